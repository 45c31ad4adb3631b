/**
 * Fields read from a user's file and used as facts: cache-fact rows (a
 * `--cache-facts` file, the config's `cacheFacts`) are checked field by
 * field, so no NaN, negative or infinite cost or threshold is ever printed
 * as fact; an unterminated frontmatter block is named as such, at line 1.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProject, collectInstructionFiles, configBuildOptions, DEFAULT_LIMITS, loadConfig } from '../../compiler/index.js';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeTree } from '../helpers/tree.js';

const SOURCES = {
  'prompts/profiles/default.md': '---\nsections: [intro]\n---\n',
  'prompts/sections/intro.md': '---\nname: intro\n---\nHello.\n',
};

const ROW = { provider: 'anthropic', family: 'Claude Test', ids: ['claude-test-1'], minimumTokens: 1024 };

describe('cache-fact rows', () => {
  const bad: Array<[string, string, RegExp]> = [
    ['a negative read multiple', JSON.stringify([{ ...ROW, readMultiplier: -0.5 }]), /fact 0: readMultiplier must be a finite number, not negative/],
    ['an infinite write multiple (1e400 in JSON)', `[${JSON.stringify(ROW).slice(0, -1)}, "writeMultiplier": {"5m": 1e400}}]`, /fact 0: writeMultiplier\.5m must be a finite number, not negative/],
    ['a write multiple that is text', JSON.stringify([{ ...ROW, writeMultiplier: { '5m': 'cheap' } }]), /fact 0: writeMultiplier\.5m must be a finite number/],
    ['write multiples that are a list', JSON.stringify([{ ...ROW, writeMultiplier: [1.25] }]), /fact 0: writeMultiplier must be an object of TTL: multiple/],
    ['a minimum past the safe integers', `[${JSON.stringify(ROW).replace('1024', '1e300')}]`, /fact 0: minimumTokens must be a whole number/],
    ['a fractional breakpoint count', JSON.stringify([{ ...ROW, maxBreakpoints: 2.5 }]), /fact 0: maxBreakpoints must be a whole number of at least 1/],
    ['a zero prefix increment', JSON.stringify([{ ...ROW, prefixIncrement: 0 }]), /fact 0: prefixIncrement must be a whole number of at least 1/],
    ['a negative documented minimum', JSON.stringify([{ ...ROW, documentedMinimumTokens: -1 }]), /fact 0: documentedMinimumTokens must be a whole number/],
    ['an unknown caching mode', JSON.stringify([{ ...ROW, caching: 'sometimes' }]), /fact 0: caching must be 'automatic' or 'breakpoints'/],
    ['a source that is not text', JSON.stringify([{ ...ROW, source: 42 }]), /fact 0: source must be a string/],
  ];

  it.each(bad)('%s: --cache-facts refuses the file, naming the row and field', async (_what, text, message) => {
    const root = await tempDir();
    await writeTree(root, { ...SOURCES, 'facts.json': text });
    const run = await runCli(['check', '--root', root, '--no-cache', '--model', 'claude-test-1', '--cache-facts', path.join(root, 'facts.json')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/NaN|Infinity|\n\s+at /);
  });

  it('the same rows given in the config are a diagnostic at its cacheFacts key', async () => {
    const root = await tempDir();
    await writeTree(root, { ...SOURCES, 'prompt-build.config.json': JSON.stringify({ cacheFacts: [{ ...ROW, readMultiplier: -1 }] }) });
    const loaded = await loadConfig(root);
    expect(loaded.diagnostics).toEqual([]);
    expect(configBuildOptions(root, loaded).diagnostics.map((d) => `${d.rule} ${d.file}:${d.line} ${d.message}`)).toEqual([
      'config/invalid-value prompt-build.config.json:1 cacheFacts: fact 0: readMultiplier must be a finite number, not negative',
    ]);
  });

  it('a row with every field right is used, and its TTL names are only names', async () => {
    const root = await tempDir();
    const row = { ...ROW, writeMultiplier: { '5m': 1.25, toString: 2 }, readMultiplier: 0.1, maxBreakpoints: 4, documentedMinimumTokens: 1024 };
    await writeTree(root, { ...SOURCES, 'facts.json': JSON.stringify([row]) });
    const run = await runCli(['check', '--root', root, '--no-cache', '--model', 'claude-test-1', '--cache-facts', path.join(root, 'facts.json'), '--reporter', 'json']);
    const rules = (JSON.parse(run.stdout) as { diagnostics: Array<{ rule: string }> }).diagnostics.map((d) => d.rule);
    expect(rules).toEqual(['cache/prefix-below-minimum']);
  });
});

describe('frontmatter that is opened and never closed', () => {
  it('a section: frontmatter/invalid-yaml at line 1, saying so, whatever the rest would parse as', async () => {
    const root = await tempDir();
    await writeTree(root, {
      ...SOURCES,
      'prompts/sections/intro.md': '---\nname: intro\n\nSome prose: that YAML would read as a mapping\n',
    });
    const result = await buildProject({ root, cacheDir: null });
    expect(result.diagnostics.map((d) => `${d.rule} ${d.file}:${d.line}:${d.column} ${d.message}`)).toContain(
      'frontmatter/invalid-yaml prompts/sections/intro.md:1:1 frontmatter opened at line 1 is never closed',
    );
  });

  it('through the CLI, with the note, for a file that is only the opening line', async () => {
    const root = await tempDir();
    await writeTree(root, { ...SOURCES, 'prompts/sections/intro.md': '---' });
    const run = await runCli(['build', '--root', root, '--no-cache']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('prompts/sections/intro.md:1:1: error frontmatter/invalid-yaml: frontmatter opened at line 1 is never closed');
    expect(run.stderr).toContain('note: close it with a line holding only `---`');
  });

  it('an instruction file in instructions mode: a warning, and its text still read', async () => {
    const dir = await tempDir();
    await fs.writeFile(path.join(dir, 'CLAUDE.md'), '---\npaths: [a\nRules here.\n');
    const found = await collectInstructionFiles(path.join(dir, 'CLAUDE.md'), { homeDir: dir, limits: DEFAULT_LIMITS, seen: new Set() });
    expect(found.warnings.map((w) => `${w.rule} ${w.line}:${w.column} ${w.message}`)).toEqual(['frontmatter/invalid-yaml 1:1 frontmatter opened at line 1 is never closed']);
    expect(found.files.map((f) => f.content)).toEqual(['---\npaths: [a\nRules here.\n']);
  });

  it('a closed block, and a `----` rule line, are not affected', async () => {
    const root = await tempDir();
    await writeTree(root, { ...SOURCES, 'prompts/sections/rule.md': '----\nA section with no frontmatter.\n' });
    const result = await buildProject({ root, cacheDir: null });
    expect(result.diagnostics.filter((d) => d.rule === 'frontmatter/invalid-yaml')).toEqual([]);
  });
});

describe('frontmatter in another language than YAML', () => {
  // gray-matter evaluates a `---js` block as JavaScript: a crafted prompt file would run code in every build and editor.
  it.each(['js', 'javascript', 'coffee', 'json'])('`---%s` is refused unread, at its language, and runs nothing', async (language) => {
    const root = await tempDir();
    const marker = path.join(root, 'ran');
    const block = `{ name: (process.getBuiltinModule('node:fs').writeFileSync(${JSON.stringify(marker)}, 'x'), 'intro') }`;
    await writeTree(root, { ...SOURCES, 'prompts/sections/intro.md': `---${language}\n${block}\n---\nHello.\n` });
    const run = await runCli(['build', '--root', root, '--no-cache']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`prompts/sections/intro.md:1:4`);
    expect(run.stderr).toContain(`frontmatter/invalid-yaml`);
    expect(run.stderr).toContain(`frontmatter in '${language}' is not read: only YAML frontmatter is`);
    expect(run.stderr).not.toMatch(/internal error|\n\s+at /);
    await expect(fs.access(marker)).rejects.toThrow();
  });

  it('a long first line is named cut, not whole', async () => {
    const root = await tempDir();
    await writeTree(root, { ...SOURCES, 'prompts/sections/intro.md': `---${'x'.repeat(5000)}\nname: intro\n---\nHello.\n` });
    const built = await buildProject({ root, cacheDir: null, write: false });
    const refused = built.diagnostics.find((d) => d.rule === 'frontmatter/invalid-yaml')!;
    expect(refused.message).toBe(`frontmatter in '${'x'.repeat(40)}…' is not read: only YAML frontmatter is`);
  });

  it('`---yaml` and `--- yml` are YAML', async () => {
    const root = await tempDir();
    await writeTree(root, { ...SOURCES, 'prompts/sections/intro.md': '---yaml\nname: intro\n---\nHello.\n', 'prompts/sections/two.md': '--- yml\nname: two\n---\nTwo.\n' });
    const built = await buildProject({ root, cacheDir: null, write: false });
    expect(built.diagnostics.filter((d) => d.rule.startsWith('frontmatter/'))).toEqual([]);
    expect(built.manifest?.profiles.default?.sections.map((s) => s.name)).toEqual(['intro']);
  });
});
