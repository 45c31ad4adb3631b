/**
 * The project's remark plugins and the built-in lint rules in the editor:
 * the language server reports what `lint` reports, and runs a file's plugins
 * again on its unsaved text.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startLsp, type LspSession } from '../helpers/lsp-client.js';
import { copyFixture, REPO } from '../helpers/tree.js';

let session: LspSession | undefined;
afterAll(() => session?.stop());

describe('prompt-build lsp with plugins', () => {
  it('publishes the plugins’ findings with the built-in rules’, and runs them again on an unsaved edit', async () => {
    const root = await fs.realpath(await copyFixture('lint-plugins'));
    await fs.symlink(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'));
    session = await startLsp(root);
    const intro = session.uri('prompts/sections/intro.md');
    const codes = () => (session!.latest.get(intro) ?? []).map((d) => `${d.code} ${d.range.start.line + 1}:${d.range.start.character + 1}`);
    await session.until(() => codes().length >= 4, 'the plugins’ findings');
    expect(codes()).toEqual(
      expect.arrayContaining([
        'prompt-rules/no-todo 3:57',
        'remark-lint/no-duplicate-headings 6:1',
        'remark-lint/no-empty-url 8:5',
        'prompt-rules/no-deep-include 8:23',
      ]),
    );
    expect(session.latest.get(intro)!.find((d) => d.code === 'remark-lint/no-empty-url')!.severity).toBe(1);

    const text = await fs.readFile(path.join(root, 'prompts/sections/intro.md'), 'utf8');
    await session.rpc.sendNotification('textDocument/didOpen', { textDocument: { uri: intro, languageId: 'markdown', version: 1, text } });
    await session.rpc.sendNotification('textDocument/didChange', { textDocument: { uri: intro, version: 2 }, contentChanges: [{ text: text.replace('TODO', 'DONE') }] });
    await session.until(() => !codes().some((c) => c.startsWith('prompt-rules/no-todo')), 'the TODO finding to go');
    expect(codes()).toEqual(expect.arrayContaining(['remark-lint/no-duplicate-headings 6:1', 'remark-lint/no-empty-url 8:5']));
  });
});
