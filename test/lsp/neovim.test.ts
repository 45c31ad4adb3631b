/**
 * A real editor nobody here wrote: Neovim's built-in LSP client (Debian's
 * neovim, installed by test/setup/ensure-tools.mjs) runs `prompt-build lsp`
 * headless, and a small Lua script records what the client saw.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REPO, tempDir, writeTree, CLI_BIN } from '../helpers/tree.js';

const NVIM = '/usr/bin/nvim';

describe('prompt-build lsp in Neovim', () => {
  it('shows the build’s diagnostic on the open section, goes to an include’s file, hovers an include', async () => {
    const root = await fs.realpath(await tempDir());
    await writeTree(root, {
      'prompts/sections/intro.md': 'You are careful on {{weekday}}.\n\n@../fragments/rules.md\n',
      'prompts/fragments/rules.md': 'Read before you edit.\n',
      'prompts/profiles/default.md': '---\nsections: [intro]\n---\n',
    });
    const out = path.join(root, 'nvim-result.json');
    const env = { ...process.env, PB_ROOT: root, PB_OUT: out, PB_NODE: process.execPath, PB_BIN: CLI_BIN, HOME: root, XDG_STATE_HOME: root, XDG_DATA_HOME: root };
    const script = path.join(REPO, 'test/lsp/neovim-client.lua');
    // Bounded: a client that never gets its answers ends the run, and the missing file says so.
    await new Promise<void>((resolve) => execFile(NVIM, ['--headless', '--clean', '-c', `luafile ${script}`], { env, timeout: 60_000 }, () => resolve()));
    const seen = JSON.parse(await fs.readFile(out, 'utf8')) as {
      attached: boolean;
      error?: string;
      diagnostics: { lnum: number; col: number; severity: number; code: string; message: string }[];
      definition: { uri: string } | { uri: string }[];
      hover: { contents: { value: string } };
    };
    expect(seen.error).toBeUndefined();
    expect(seen.attached).toBe(true);
    expect(seen.diagnostics).toEqual([expect.objectContaining({ lnum: 0, col: 19, severity: 1, code: 'section/static-template' })]);
    const definition = Array.isArray(seen.definition) ? seen.definition[0]! : seen.definition;
    expect(definition.uri).toBe(pathToFileURL(path.join(root, 'prompts/fragments/rules.md')).href);
    expect(seen.hover.contents.value).toBe('`@../fragments/rules.md` → `prompts/fragments/rules.md` · 22 bytes');
  });
});
