/**
 * The VS Code extension (editors/vscode/) packs into a .vsix with @vscode/vsce,
 * as a publisher would, with no marketplace and no network: the language
 * client it needs is copied from this repository's node_modules.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { REPO, tempDir } from '../helpers/tree.js';

/** The package and every package it depends on at run time, as npm installed them here. */
async function productionClosure(name: string, seen = new Set<string>()): Promise<Set<string>> {
  if (seen.has(name)) return seen;
  seen.add(name);
  const manifest = JSON.parse(await fs.readFile(path.join(REPO, 'node_modules', name, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  for (const dep of Object.keys(manifest.dependencies ?? {})) await productionClosure(dep, seen);
  return seen;
}

/** The names in a zip's central directory, and a file's inflated bytes. */
function readZip(zip: Buffer): { names: string[]; read: (name: string) => string } {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries = new Map<string, { local: number; size: number; method: number }>();
  for (let i = 0; i < count; i++) {
    const nameLength = zip.readUInt16LE(at + 28);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    entries.set(name, { method: zip.readUInt16LE(at + 10), size: zip.readUInt32LE(at + 20), local: zip.readUInt32LE(at + 42) });
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return {
    names: [...entries.keys()],
    read: (name) => {
      const e = entries.get(name)!;
      const start = e.local + 30 + zip.readUInt16LE(e.local + 26) + zip.readUInt16LE(e.local + 28);
      const data = zip.subarray(start, start + e.size);
      return (e.method === 8 ? inflateRawSync(data) : data).toString('utf8');
    },
  };
}

describe('the VS Code extension', () => {
  it('packs into a .vsix holding the extension, its manifest and the language client', async () => {
    const dir = path.join(await tempDir(), 'prompt-build-vscode');
    await fs.cp(path.join(REPO, 'editors/vscode'), dir, { recursive: true });
    for (const name of await productionClosure('vscode-languageclient')) {
      await fs.cp(path.join(REPO, 'node_modules', name), path.join(dir, 'node_modules', name), { recursive: true, dereference: true });
    }
    const vsix = path.join(dir, 'prompt-build.vsix');
    const run = await new Promise<{ code: number; output: string }>((resolve) =>
      execFile(process.execPath, [path.join(REPO, 'node_modules/@vscode/vsce/vsce'), 'package', '--skip-license', '--allow-missing-repository', '--out', vsix], { cwd: dir, timeout: 120_000 }, (error, stdout, stderr) =>
        resolve({ code: error ? 1 : 0, output: stdout + stderr }),
      ),
    );
    expect(run.output).toContain('Packaged');
    expect(run.code).toBe(0);
    const zip = readZip(await fs.readFile(vsix));
    expect(zip.names).toEqual(expect.arrayContaining(['extension.vsixmanifest', 'extension/package.json', 'extension/extension.js', 'extension/node_modules/vscode-languageclient/package.json']));
    const manifest = JSON.parse(zip.read('extension/package.json')) as { main: string; engines: { vscode: string } };
    expect(manifest).toMatchObject({ main: './extension.js', engines: { vscode: '^1.91.0' } });
    expect(zip.read('extension/extension.js')).toContain("args: ['lsp']");
  });

  it('does not run in a workspace VS Code does not trust, and takes its server command from the user only', async () => {
    // The server is the workspace's own prompt-build and loads the workspace's plugins: code from the folder runs.
    const manifest = JSON.parse(await fs.readFile(path.join(REPO, 'editors/vscode/package.json'), 'utf8')) as {
      capabilities?: { untrustedWorkspaces?: { supported: unknown } };
      contributes: { configuration: { properties: Record<string, { scope?: string }> } };
    };
    expect(manifest.capabilities?.untrustedWorkspaces?.supported).toBe(false);
    // A folder's own .vscode/settings.json cannot name the command: `machine` settings are the user's.
    expect(manifest.contributes.configuration.properties['prompt-build.command']?.scope).toBe('machine');
  });
});
