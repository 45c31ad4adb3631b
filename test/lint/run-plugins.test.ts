/**
 * The plugin runner in process: a message as a diagnostic (its place, its
 * rule id, its level from `fatal`), a message that names no rule, a plugin
 * that fails the file on purpose, one that throws when run and one that
 * throws when set up — each reported once, naming it, the others run.
 */
import { describe, expect, it } from 'vitest';
import type { PromptPlugin } from '../../compiler/core/options.js';
import remarkLint from 'remark-lint';
import remarkLintNoEmptyUrl from 'remark-lint-no-empty-url';
import { runPlugins } from '../../compiler/lint/run-plugins.js';

const SOURCES = [
  { rel: 'prompts/sections/a.md', text: '# A\n\nSee @./b.md now.\n' },
  { rel: 'prompts/sections/b.md', text: '---\nkind: dynamic\n---\nHi {{name}}.\n' },
];

type Tree = { type: string; value?: string; children?: Tree[]; position?: unknown };
type Message = { fatal?: boolean | null; url?: string | null };
type File = { message: (reason: string, options?: object) => Message; info: (reason: string, options?: object) => Message; fail: (reason: string, options?: object) => never; path: string };

function plugin(name: string, transform: (tree: Tree, file: File) => unknown, attach?: () => void): PromptPlugin {
  const attacher = function () {
    attach?.();
    return transform;
  };
  Object.defineProperty(attacher, 'name', { value: name });
  return { name, attacher: attacher as PromptPlugin['attacher'] };
}

const nodes = (tree: Tree, type: string): Tree[] => [...(tree.type === type ? [tree] : []), ...(tree.children ?? []).flatMap((c) => nodes(c, type))];

describe('runPlugins', () => {
  it('turns messages into diagnostics: place, excerpt, source/rule id, level from fatal, url as a note', async () => {
    const found = await runPlugins(
      SOURCES,
      [
        plugin('counts', (tree, file) => {
          for (const node of nodes(tree, 'include')) Object.assign(file.message('an include', { place: node.position, ruleId: 'include', source: 'mine' }), { fatal: true, url: 'https://example.com/include' });
          for (const node of nodes(tree, 'template')) file.message(`a template: ${node.value}`, { place: node.position, ruleId: 'template', source: 'mine' });
          file.info('no rule named');
        }),
      ],
      ['.md'],
    );
    expect(found).toEqual([
      { rule: 'mine/include', severity: 'error', file: 'prompts/sections/a.md', line: 3, column: 5, message: 'an include', excerpt: 'See @./b.md now.', note: 'see https://example.com/include' },
      { rule: 'counts/message', severity: 'info', file: 'prompts/sections/a.md', line: 1, column: 1, message: 'no rule named', excerpt: '# A' },
      { rule: 'mine/template', severity: 'warning', file: 'prompts/sections/b.md', line: 4, column: 4, message: 'a template: {{name}}', excerpt: 'Hi {{name}}.' },
      { rule: 'counts/message', severity: 'info', file: 'prompts/sections/b.md', line: 1, column: 1, message: 'no rule named', excerpt: '---' },
    ]);
  });

  it("keeps a rule id a plugin writes to the characters of rule ids: an escape sequence falls back to the plugin's name, an unsafe name to 'plugin'", async () => {
    const red = '\u001b[31m';
    const one = [SOURCES[0]!];
    const found = await runPlugins(
      one,
      [
        plugin('colours', (_tree, file) => {
          file.message('rule', { ruleId: `x${red}y`, source: 'mine' });
          file.message('source', { ruleId: 'ok', source: `${red}mine` });
          file.message('multi-part', { ruleId: 'no-empty-url', source: 'remark-lint' });
        }),
        plugin(`evil${red}`, (_tree, file) => {
          file.message('name', { ruleId: `${red}` });
        }),
      ],
      ['.md'],
    );
    expect(found.map((d) => `${d.rule} ${d.message}`)).toEqual(['mine/message rule', 'colours/ok source', 'remark-lint/no-empty-url multi-part', 'plugin/message name']);
  });

  it("reports a file the plugins' syntax throws on, at that file, and lints the others", async () => {
    const seen: string[] = [];
    const syntax: PromptPlugin = {
      name: 'at-syntax',
      attacher: function (this: { data: () => { micromarkExtensions?: unknown[] } }) {
        // A syntax extension that fails at an `@` in text: only a.md has one.
        const at = { tokenize: () => { throw new Error('bad syntax'); } };
        (this.data().micromarkExtensions ??= []).push({ text: { 64: at } });
        return (_tree: unknown, file: { path: string }) => void seen.push(file.path);
      } as unknown as PromptPlugin['attacher'],
    };
    const found = await runPlugins(SOURCES, [syntax], ['.md']);
    expect(found.map((d) => `${d.rule} ${d.file}:${d.line}:${d.column} ${d.message}`)).toEqual([
      "plugin/threw prompts/sections/a.md:1:1 reading this file with the plugins' syntax threw (an error: bad syntax): no plugin ran on it",
    ]);
    expect(found[0]!.note).toContain("'at-syntax'");
    expect(seen).toEqual(['prompts/sections/b.md']);
  });

  it("honours remark-lint's disable comments: a message they turn off is not reported", async () => {
    const named = (name: string, attacher: unknown): PromptPlugin => ({ name, attacher: attacher as PromptPlugin['attacher'] });
    const text = '[a]() first.\n\n<!-- lint disable no-empty-url -->\n\n[b]() off.\n\n<!-- lint enable no-empty-url -->\n\n[c]() on.\n';
    const found = await runPlugins([{ rel: 'prompts/sections/a.md', text }], [named('remark-lint', remarkLint), named('remark-lint-no-empty-url', remarkLintNoEmptyUrl)], ['.md']);
    expect(found.map((d) => `${d.rule} ${d.line}`)).toEqual(['remark-lint/no-empty-url 1', 'remark-lint/no-empty-url 9']);
  });

  it('reports a plugin that throws once, naming it and counting the files, and still runs the others', async () => {
    let ran = 0;
    const found = await runPlugins(
      SOURCES,
      [
        plugin('boom', () => {
          throw new Error('kaboom');
        }),
        plugin('setup', () => undefined, () => {
          throw new TypeError('bad options');
        }),
        plugin('fails-on-purpose', (_tree, file) => file.fail('stop here', { ruleId: 'stop', source: 'mine' })),
        plugin('after', () => {
          ran++;
        }),
      ],
      ['.md'],
    );
    expect(ran).toBe(2);
    expect(found.map((d) => `${d.rule} ${d.severity} ${d.file} ${d.message}`)).toEqual([
      'mine/stop error prompts/sections/a.md stop here',
      'mine/stop error prompts/sections/b.md stop here',
      "plugin/threw error (config) plugin 'setup' threw when set up (an error: bad options): it ran on no file",
      "plugin/threw error prompts/sections/a.md plugin 'boom' threw on this file (an error: kaboom), and on 1 more file",
    ]);
  });

  it('takes a transformer that answers through next, and one that returns a promise', async () => {
    const found = await runPlugins(
      SOURCES.slice(0, 1),
      [
        plugin('callback', ((_tree: Tree, file: File, next: (error?: unknown) => void) => {
          setTimeout(() => {
            file.message('late', { ruleId: 'late' });
            next();
          }, 1);
        }) as never),
        plugin('promise', async (_tree, file) => {
          file.message('awaited', { ruleId: 'awaited' });
        }),
      ],
      ['.md'],
    );
    expect(found.map((d) => d.rule)).toEqual(['callback/late', 'promise/awaited']);
  });
});
