/**
 * `plugins` in the config: its shape checked with the rest of the config
 * (options kept as given: they are the plugin's), a plugin's rule ids
 * accepted in `rules` once there are plugins, and each entry loaded — a
 * package from the root, a file inside it, a preset's plugins — or a
 * diagnostic at its entry.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPlugins } from '../../compiler/config/load-plugins.js';
import { validateConfig } from '../../compiler/config/validate-config.js';
import { REPO, tempDir, writeTree } from '../helpers/tree.js';

const rule = () => undefined;

describe('plugins in the config', () => {
  it('takes plugins, names and [plugin, options], options as given; refuses anything else at its place', () => {
    const pattern = /TODO/g;
    const { config, problems } = validateConfig({ plugins: [rule, 'remark-lint', ['./lint/x.mjs', { pattern }], [rule]] });
    expect(problems).toEqual([]);
    expect((config.plugins![2] as [string, { pattern: RegExp }])[1].pattern).toBe(pattern);
    const bad = validateConfig({ plugins: [3, '', [], [rule, {}, 'extra'], [null]] }).problems;
    expect(bad.map((p) => `${p.keyPath.join('.')}: ${p.message}`)).toEqual([
      'plugins.0: plugins.0: must be a plugin: the function, or its package name or file as a string, not number 3',
      'plugins.1: plugins.1: must be a plugin: the function, or its package name or file as a string, not ""',
      'plugins.2: plugins.2: a plugin with options is written [plugin, options], not a list of 0',
      'plugins.3: plugins.3: a plugin with options is written [plugin, options], not a list of 3',
      'plugins.4.0: plugins.4.0: must be a plugin: the function, or its package name or file as a string, not null',
    ]);
  });

  it("accepts a plugin's rule ids in rules only when there are plugins, never one in prompt-build's own namespaces", () => {
    expect(validateConfig({ plugins: [rule], rules: { 'remark-lint/no-empty-url': 'error', 'section/unused': 'off' } }).problems).toEqual([]);
    expect(validateConfig({ rules: { 'remark-lint/no-empty-url': 'error' } }).problems.map((p) => p.message)).toEqual(["no rule 'remark-lint/no-empty-url'"]);
    expect(validateConfig({ plugins: [rule], rules: { 'section/unsued': 'off' } }).problems.map((p) => `${p.message} (${p.note})`)).toEqual(["no rule 'section/unsued' (did you mean 'section/unused'?)"]);
  });

  it('loads a package from the root, a file in it and a preset, named for their diagnostics', async () => {
    const root = await tempDir('pb-plugins-');
    await writeTree(root, {
      'lint/one.mjs': 'export default function one() {}\n',
      'lint/preset.mjs': 'function a() {}\nfunction b() {}\nexport default { plugins: [a, [b, { level: 2 }]] };\n',
    });
    await fs.symlink(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'));
    const entries = ['remark-lint-no-empty-url', ['./lint/one.mjs', { word: 'x' }], './lint/preset.mjs', rule] as const;
    const text = `export default { plugins: ['remark-lint-no-empty-url', ['./lint/one.mjs', { word: 'x' }], './lint/preset.mjs', rule] };\n`;
    const { plugins, diagnostics } = await loadPlugins(root, entries as never, { file: 'prompt-build.config.mjs', text });
    expect(diagnostics).toEqual([]);
    const column = (written: string) => text.indexOf(written) + 1;
    expect(plugins.map((p) => [p.name, typeof p.attacher, p.options, p.declaredAt?.column])).toEqual([
      ['remark-lint-no-empty-url', 'function', undefined, column("'remark-lint-no-empty-url'")],
      ['one', 'function', { word: 'x' }, column("'./lint/one.mjs'")],
      ['preset:a', 'function', undefined, column("'./lint/preset.mjs'")],
      ['preset:b', 'function', { level: 2 }, column("'./lint/preset.mjs'")],
      // A function is placed at the `plugins` key: the config's text does not say which word wrote it.
      ['rule', 'function', undefined, column('plugins')],
    ]);
  });

  it('says why an entry does not load, at the entry: no such package, a file outside the root or not there, no plugin exported', async () => {
    const root = await tempDir('pb-plugins-');
    const outside = await tempDir('pb-outside-');
    await writeTree(root, { 'lint/data.mjs': 'export default 42;\n' });
    await writeTree(outside, { 'p.mjs': 'export default function p() {}\n' });
    const entries = ['no-such-plugin-package', `../${path.basename(outside)}/p.mjs`, './lint/missing.mjs', './lint/data.mjs'];
    const text = `{\n  "plugins": [\n    ${entries.map((e) => JSON.stringify(e)).join(',\n    ')}\n  ]\n}\n`;
    const { plugins, diagnostics } = await loadPlugins(root, entries, { file: 'prompt-build.config.json', text });
    expect(plugins).toEqual([]);
    expect(diagnostics.map((d) => `${d.rule} ${d.line}:${d.column} ${d.message}`)).toEqual([
      "plugin/load-failed 3:5 plugin \"no-such-plugin-package\" did not load: no package 'no-such-plugin-package' is installed where the project is",
      `plugin/load-failed 4:5 plugin "../${path.basename(outside)}/p.mjs" did not load: it is outside the project root`,
      'plugin/load-failed 5:5 plugin "./lint/missing.mjs" did not load: there is no file ./lint/missing.mjs',
      'plugin/load-failed 6:5 plugin "./lint/data.mjs" did not load: its default export is neither a plugin (a function) nor a preset ({ plugins: [...] })',
    ]);
  });

  it('refuses a package name whose subpath walks out (.., ., a backslash), before resolving it', async () => {
    const root = await tempDir('pb-plugins-');
    const outside = await tempDir('pb-outside-');
    await writeTree(outside, { 'evil.mjs': 'export default function evil() {}\n' });
    await fs.symlink(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'));
    const up = path.relative(path.join(root, 'node_modules', 'x'), outside).split(path.sep).join('/');
    const entries = [`x/${up}/evil.mjs`, `remark-lint/./../../${up}/evil.mjs`, 'remark-lint\\..\\evil.mjs', '@scope/../evil.mjs'];
    const text = `{\n  "plugins": [\n    ${entries.map((e) => JSON.stringify(e)).join(',\n    ')}\n  ]\n}\n`;
    const { plugins, diagnostics } = await loadPlugins(root, entries, { file: 'prompt-build.config.json', text });
    expect(plugins).toEqual([]);
    expect(diagnostics.map((d) => `${d.rule} ${d.message}`)).toEqual(entries.map((e) => `plugin/load-failed plugin ${JSON.stringify(e)} did not load: '${e}' is not a package name`));
    // A scoped package with a plain subpath is still a package name (here: not installed).
    const scoped = await loadPlugins(root, ['@no-such-scope/plugin/lib/rule.js'], { file: 'prompt-build.config.json', text: '{"plugins":["@no-such-scope/plugin/lib/rule.js"]}' });
    expect(scoped.diagnostics.map((d) => d.message)).toEqual(["plugin \"@no-such-scope/plugin/lib/rule.js\" did not load: no package '@no-such-scope/plugin/lib/rule.js' is installed where the project is"]);
  });
});
