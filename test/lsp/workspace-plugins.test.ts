/**
 * The editor's workspace running a project's plugins, in process: a plugin
 * that throws when set up is reported once however often lint runs, and an
 * edited file is linted only when the build reads it as a source.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Workspace } from '../../compiler/lsp/workspace.js';
import { tempDir, writeTree } from '../helpers/tree.js';

const ruleOf = (found: Map<string, { rule: string }[]>, file: string) => (found.get(file) ?? []).map((d) => d.rule);

describe('the workspace with plugins', () => {
  it('reports a plugin that throws when set up once at the config, however many lint passes there are', async () => {
    const root = await tempDir('pb-ws-plugins-');
    await writeTree(root, {
      'prompt-build.config.mjs': "export default { plugins: [function broken() { throw new Error('no'); }] };\n",
      'prompts/sections/a.md': 'Hello.\n',
      'prompts/profiles/default.md': '---\nsections: [a]\n---\n',
    });
    const ws = await Workspace.open(root);
    const config = path.join(ws.root, 'prompt-build.config.mjs');
    await ws.build();
    await ws.lint();
    ws.edit(path.join(ws.root, 'prompts/sections/a.md'), 'Hello again.\n');
    await ws.build();
    const found = await ws.lint();
    expect(ruleOf(found.diagnostics, config)).toEqual(['plugin/threw']);
  });

  it('runs the plugins on an edited file only when the build would read it as a source (no dot-folder, no ignored agent)', async () => {
    const root = await tempDir('pb-ws-plugins-');
    await writeTree(root, {
      'prompt-build.config.mjs':
        "export default { agents: { ignore: ['drafts/**'] }, plugins: [function everywhere() { return (_tree, file) => { file.message('seen', { ruleId: 'seen' }); }; }] };\n",
      'prompts/sections/a.md': 'Hello.\n',
      'prompts/sections/.notes/n.md': 'Notes.\n',
      'agents/drafts/d.md': '---\nname: d\ndescription: d\n---\nDraft.\n',
      'prompts/profiles/default.md': '---\nsections: [a]\n---\n',
    });
    const ws = await Workspace.open(root);
    await ws.build();
    await ws.lint();
    const files = ['prompts/sections/a.md', 'prompts/sections/.notes/n.md', 'agents/drafts/d.md'].map((rel) => path.join(ws.root, rel));
    for (const file of files) ws.edit(file, `${ws.textOf(file)}\nMore.\n`);
    await ws.build();
    const found = await ws.lint();
    expect(files.map((file) => ruleOf(found.diagnostics, file).filter((r) => r.startsWith('everywhere/')))).toEqual([['everywhere/seen'], [], []]);
  });

  it('runs no plugin when one of them does not load, as lint does', async () => {
    const root = await tempDir('pb-ws-plugins-');
    await writeTree(root, {
      'prompt-build.config.mjs':
        "export default { plugins: [function everywhere() { return (_tree, file) => { file.message('seen', { ruleId: 'seen' }); }; }, './lint/missing.mjs'] };\n",
      'prompts/sections/a.md': 'Hello.\n',
      'prompts/profiles/default.md': '---\nsections: [a]\n---\n',
    });
    const ws = await Workspace.open(root);
    await ws.build();
    const found = await ws.lint();
    expect(ruleOf(found.diagnostics, path.join(ws.root, 'prompt-build.config.mjs'))).toEqual(['plugin/load-failed']);
    expect([...found.diagnostics.values()].flat().filter((d) => d.rule.startsWith('everywhere/'))).toEqual([]);
  });
});
