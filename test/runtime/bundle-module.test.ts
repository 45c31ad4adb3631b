import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleModuleSource } from '../../compiler/bundle/bundle-module.js';
import { InternalError } from '../../compiler/diagnostics/diagnostics.js';
import { ArgumentError } from '../../compiler/runtime/arguments.js';
import { getSystemPrompt, type GetSystemPromptOptions } from '../../compiler/runtime/assemble.js';
import { BundleError, type Bundle } from '../../compiler/runtime/bundle.js';
import { loadBundleModule } from '../../compiler/runtime/load-bundle-module.js';
import { loadBundle } from '../../compiler/runtime/load-bundle.js';
import type { Manifest } from '../../compiler/runtime/manifest.js';
import { createSectionCache } from '../../compiler/runtime/section-cache.js';
import { FIXTURE_DIR, fixtureFiles, fixturePath } from './fixture.js';

const manifest = async (): Promise<Manifest> => JSON.parse(await readFile(join(FIXTURE_DIR, 'manifest.json'), 'utf8'));

describe('bundle.mjs, the single-file form', () => {
  let dir: string;
  let fromDirectory: Bundle;
  let fromModule: Bundle;
  let source: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'prompt-build-bundle-module-'));
    source = bundleModuleSource(await manifest(), await fixtureFiles());
    await writeFile(join(dir, 'bundle.mjs'), source);
    fromModule = loadBundleModule(await import(pathToFileURL(join(dir, 'bundle.mjs')).href));
    fromDirectory = await loadBundle(FIXTURE_DIR);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it.each<[string, Omit<GetSystemPromptOptions, 'cache'>]>([
    ['default', { context: { cwd: '/repo', model: 'm1', mcpServers: [{ name: 'gh', instructions: 'Issues.' }] } }],
    ['default without optional values', { context: { cwd: '/repo' } }],
    ['simple', { mode: 'simple', context: {} }],
    ['proactive', { mode: 'proactive', context: { cwd: 'C:\\work' } }],
  ])('gives the same prompt as the directory: %s', async (_name, options) => {
    const expected = await getSystemPrompt(fromDirectory, { ...options, cache: createSectionCache() });
    const actual = await getSystemPrompt(fromModule, { ...options, cache: createSectionCache() });
    expect(actual).toEqual(expected);
    expect(actual.length).toBeGreaterThan(0);
  });

  it('carries the manifest and agent prompts unchanged', async () => {
    expect(fromModule.manifest).toEqual(await manifest());
    expect(fromModule.agents.get('explore')).toEqual(fromDirectory.agents.get('explore'));
  });

  it('is deterministic: the order files are given in does not matter', async () => {
    const reversed = new Map([...(await fixtureFiles())].reverse());
    expect(bundleModuleSource(await manifest(), reversed)).toBe(source);
  });

  it('holds each text and thunk once, however many profiles name it', async () => {
    const m = await manifest();
    const named = new Set([...Object.values(m.profiles).flatMap((p) => p.sections.map((s) => s.file)), ...Object.values(m.agents).map((a) => a.file)]);
    const shared = [...named].filter((file) => Object.values(m.profiles).filter((p) => p.sections.some((s) => s.file === file)).length > 1);
    expect(shared.length).toBeGreaterThan(0); // the fixture shares sections between profiles
    for (const file of named) expect(source.split(`\n  ${JSON.stringify(file)}: `).length - 1, file).toBe(1);
  });

  it('refuses to inline a thunk that is not a default-exported factory', async () => {
    const files = await fixtureFiles();
    const thunk = await fixturePath('dynamic/env-info.');
    files.set(thunk, `const x = 1;\n${files.get(thunk)}`);
    await expect(manifest().then((m) => bundleModuleSource(m, files))).rejects.toThrow(
      new InternalError(`bundle.mjs: thunk ${thunk} does not start with "export default "`),
    );
  });
});

describe('loadBundleModule refuses a module it cannot use', () => {
  it('an unknown schemaVersion', async () => {
    const module = { manifest: { ...(await manifest()), schemaVersion: 99 }, texts: {}, thunks: {} };
    expect(() => loadBundleModule(module)).toThrow(/bundle module: manifest schemaVersion 99 is not supported/);
  });

  it('a missing text or thunk, naming the file', async () => {
    const files = await fixtureFiles();
    const texts = Object.fromEntries([...files].filter(([file]) => file.endsWith('.md')));
    const rules = await fixturePath('static/rules.');
    delete texts[rules];
    const module = { manifest: await manifest(), texts, thunks: {} };
    expect(() => loadBundleModule(module)).toThrow(
      new BundleError(`bundle module: artifact ${rules} is missing`),
    );
  });

  it('something that is not a bundle module at all', () => {
    expect(() => loadBundleModule({})).toThrow(/bundle module: the manifest is not a JSON object/);
    // No module at all is a wrong call, not a damaged bundle (test/runtime/arguments.test.ts has its words).
    expect(() => loadBundleModule(undefined)).toThrow(ArgumentError);
  });
});
