/**
 * The config file, through the CLI as users run it: each file kind, which
 * one wins, flag > file > default, a broken config as a positioned
 * diagnostic, and `check` naming the options the bundle was built with.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProject, configBuildOptions, loadConfig } from '../../compiler/index.js';
import { runCli, runCliInProcess } from '../helpers/cli.js';
import { REPO, tempDir, writeTree } from '../helpers/tree.js';

const SOURCES = {
  'prompts/sections/intro.md': 'Hello from {{const.PRODUCT}}.\n\n<!-- maintainer note -->\n\nBye.\n',
  'prompts/profiles/default.md': '---\nsections: [intro]\n---\n',
};

async function project(files: Record<string, string>): Promise<string> {
  const root = await tempDir('pb-config-');
  await writeTree(root, { ...SOURCES, ...files });
  return root;
}

async function builtText(root: string, out = 'dist'): Promise<string> {
  const manifest = JSON.parse(await fs.readFile(path.join(root, out, 'manifest.json'), 'utf8'));
  return fs.readFile(path.join(root, out, manifest.profiles.default.sections[0].file), 'utf8');
}

const DEFINE_CONFIG = `import { defineConfig } from ${JSON.stringify(path.join(REPO, 'lib/config/define-config.js'))};`;

describe('config file kinds', () => {
  const kinds: Record<string, string> = {
    'prompt-build.config.json': JSON.stringify({ out: 'out-json', constants: { PRODUCT: 'json' } }),
    'prompt-build.config.mjs': `export default { out: 'out-mjs', constants: { PRODUCT: 'mjs' } };\n`,
    'prompt-build.config.js': `${DEFINE_CONFIG}\nexport default defineConfig({ out: 'out-js', constants: { PRODUCT: 'js' } });\n`,
    'prompt-build.config.ts': `${DEFINE_CONFIG}\nconst product: string = 'ts';\nexport default defineConfig({ out: 'out-ts', constants: { PRODUCT: product } });\n`,
    'prompt-build.config.mts': `const product = 'mts' as const;\nexport default { out: 'out-mts', constants: { PRODUCT: product } };\n`,
  };
  for (const [file, text] of Object.entries(kinds)) {
    const kind = file.split('.').at(-1)!;
    // Every kind through the loader; a JSON and a TypeScript one through a whole CLI build as well (each build costs a process).
    const throughCli = kind === 'json' || kind === 'ts';
    it(`reads ${file}${throughCli ? ', and the CLI builds with it' : ''}`, async () => {
      const root = await project({ [file]: text, 'package.json': '{"type":"module"}' });
      const loaded = await loadConfig(root);
      expect(loaded.diagnostics).toEqual([]);
      expect(loaded.config).toEqual({ out: `out-${kind}`, constants: { PRODUCT: kind } });
      if (!throughCli) return;
      const run = await runCli(['build', '--root', root, '--no-cache']);
      expect(run.stderr).not.toMatch(/internal error/);
      expect(run.code).toBe(0);
      expect(await builtText(root, `out-${kind}`)).toBe(`Hello from ${kind}.\n\nBye.\n`);
    });
  }

  it('takes the first file of the search order when there are several', async () => {
    const root = await project({
      'prompt-build.config.json': JSON.stringify({ constants: { PRODUCT: 'json' } }),
      'prompt-build.config.mjs': `export default { constants: { PRODUCT: 'mjs' } };\n`,
    });
    expect((await runCli(['build', '--root', root, '--no-cache'])).code).toBe(0);
    expect(await builtText(root)).toBe('Hello from mjs.\n\nBye.\n');
  });

  it('--config names another file, resolved against the root', async () => {
    const root = await project({
      'prompt-build.config.json': JSON.stringify({ constants: { PRODUCT: 'default' } }),
      'config/ci.json': JSON.stringify({ constants: { PRODUCT: 'ci' } }),
    });
    expect((await runCli(['build', '--root', root, '--no-cache', '--config', 'config/ci.json'])).code).toBe(0);
    expect(await builtText(root)).toBe('Hello from ci.\n\nBye.\n');
  });
});

describe('precedence: flag > file > default', () => {
  it('comments: the default strips, the file keeps, --no-keep-comments strips again', async () => {
    const root = await project({ 'prompt-build.config.json': JSON.stringify({ constants: { PRODUCT: 'x' } }) });
    await runCli(['build', '--root', root, '--no-cache']);
    expect(await builtText(root)).not.toContain('<!--');

    await fs.writeFile(path.join(root, 'prompt-build.config.json'), JSON.stringify({ comments: 'keep', constants: { PRODUCT: 'x' } }));
    await runCli(['build', '--root', root, '--no-cache']);
    expect(await builtText(root)).toContain('<!-- maintainer note -->');

    expect((await runCli(['build', '--root', root, '--no-cache', '--no-keep-comments'])).code).toBe(0);
    expect(await builtText(root)).not.toContain('<!--');
  });

  it('--out over the file’s out, the file’s over dist/', async () => {
    const root = await project({ 'prompt-build.config.json': JSON.stringify({ out: 'from-file', constants: { PRODUCT: 'x' } }) });
    await runCli(['build', '--root', root, '--no-cache']);
    await expect(fs.access(path.join(root, 'from-file/manifest.json'))).resolves.toBeUndefined();
    await runCli(['build', '--root', root, '--no-cache', '--out', 'from-flag']);
    await expect(fs.access(path.join(root, 'from-flag/manifest.json'))).resolves.toBeUndefined();
    await expect(fs.access(path.join(root, 'dist'))).rejects.toThrow();
  });

  it('models and rule levels from the file reach the build; --model overrides the models', async () => {
    const root = await project({
      'prompt-build.config.json': JSON.stringify({ models: ['claude-opus-4-5'], rules: { 'cache/prefix-below-minimum': 'error' }, constants: { PRODUCT: 'x' } }),
    });
    const strict = await runCli(['build', '--root', root, '--no-cache', '--reporter', 'json']);
    expect(strict.code).toBe(1);
    const rules = JSON.parse(strict.stdout).diagnostics.map((d: { rule: string; severity: string }) => `${d.severity} ${d.rule}`);
    expect(rules).toContain('error cache/prefix-below-minimum');
    await expect(fs.access(path.join(root, 'dist'))).rejects.toThrow();
    // A model with no cache facts: nothing below a minimum to report, so the rule cannot fail the build.
    const other = await runCli(['build', '--root', root, '--no-cache', '--reporter', 'json', '--model', 'some-local-model']);
    expect(JSON.parse(other.stdout).diagnostics.map((d: { rule: string }) => d.rule)).toEqual(['cache/unknown-model']);
    expect(other.code).toBe(0);
  });

  it('a rule set to off is not reported', async () => {
    const root = await project({
      'prompts/sections/spare.md': 'Not in any profile.\n',
      'prompt-build.config.json': JSON.stringify({ rules: { 'section/unused': 'off', 'cache/prefix-below-minimum': 'off' }, constants: { PRODUCT: 'x' } }),
    });
    const run = await runCli(['build', '--root', root, '--no-cache', '--reporter', 'json']);
    expect(JSON.parse(run.stdout).diagnostics).toEqual([]);
    await fs.writeFile(path.join(root, 'prompt-build.config.json'), JSON.stringify({ rules: { 'cache/prefix-below-minimum': 'off' }, constants: { PRODUCT: 'x' } }));
    const again = await runCli(['build', '--root', root, '--no-cache', '--reporter', 'json']);
    expect(JSON.parse(again.stdout).diagnostics.map((d: { rule: string }) => d.rule)).toEqual(['section/unused']);
  });
});

describe('a broken config is a positioned diagnostic', () => {
  async function failure(file: string, text: string) {
    const root = await project({ [file]: text });
    const run = await runCli(['build', '--root', root, '--no-cache']);
    await expect(fs.access(path.join(root, 'dist'))).rejects.toThrow();
    expect(run.stderr).not.toMatch(/internal error|\n\s+at /);
    return run;
  }

  it('a JSON syntax error points at the character', async () => {
    const run = await failure('prompt-build.config.json', '{\n  "out": "dist",\n  "models": [,]\n}\n');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('prompt-build.config.json:3:14: error config/syntax');
    expect(run.stderr).toMatch(/\n\s+\| {14}\^/);
  });

  it('a JavaScript syntax error names its line', async () => {
    const run = await failure('prompt-build.config.mjs', 'export default {\n  out: "dist",\n  models: [\n};\n');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/prompt-build\.config\.mjs:4:\d+: error config\/syntax/);
  });

  it('an unknown key points at its line and suggests the known one', async () => {
    const run = await failure('prompt-build.config.json', '{\n  "out": "dist",\n  "modles": ["claude-sonnet-4-5"]\n}\n');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("prompt-build.config.json:3:3: error config/unknown-key: unknown key 'modles'");
    expect(run.stderr).toContain("did you mean 'models'?");
  });

  it('a wrong type names the key path, in a nested object too', async () => {
    const run = await failure('prompt-build.config.json', '{\n  "include": {\n    "maxDepth": "five"\n  },\n  "rules": { "section/unusd": "off" }\n}\n');
    expect(run.stderr).toContain('prompt-build.config.json:3:5: error config/invalid-value: include.maxDepth: must be a whole number above 0, not "five"');
    expect(run.stderr).toContain("config/unknown-key: no rule 'section/unusd'");
  });

  it('a TypeScript config with a wrong value is refused the same way', async () => {
    const run = await failure('prompt-build.config.ts', "export default {\n  comments: 'maybe',\n};\n");
    expect(run.stderr).toContain("prompt-build.config.ts:2:3: error config/invalid-value: comments: must be one of 'keep', 'strip', not \"maybe\"");
  });

  it('as JSON with --reporter json', async () => {
    const root = await project({ 'prompt-build.config.json': '{ "out": 3 }' });
    const run = await runCli(['check', '--root', root, '--reporter', 'json']);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).diagnostics).toEqual([
      { rule: 'config/invalid-value', severity: 'error', file: 'prompt-build.config.json', line: 1, column: 3, message: 'out: must be a non-empty string, not number 3' },
    ]);
  });

  it('--config naming a missing file', async () => {
    const root = await project({});
    const run = await runCli(['build', '--root', root, '--config', 'nope.json']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('error config/load-failed: no config file nope.json');
  });
});

describe('check and the options a bundle was built with', () => {
  it('names an option mismatch instead of calling dist/ stale', async () => {
    const root = await project({ 'prompt-build.config.json': JSON.stringify({ comments: 'keep', constants: { PRODUCT: 'x' } }) });
    expect((await runCli(['build', '--root', root, '--no-cache'])).code).toBe(0);
    expect((await runCli(['check', '--root', root])).code).toBe(0);
    const flagged = await runCli(['check', '--root', root, '--no-keep-comments']);
    expect(flagged.code).toBe(1);
    expect(flagged.stderr).toContain('dist/ was built with other options: comments (keep in the bundle, strip here)');
    expect(flagged.stderr).not.toContain('is stale');
  });

  it('a changed constant is named too', async () => {
    const root = await project({ 'prompt-build.config.json': JSON.stringify({ constants: { PRODUCT: 'one' } }) });
    await runCliInProcess(['build', '--root', root, '--no-cache']); // setup: check is under test
    await fs.writeFile(path.join(root, 'prompt-build.config.json'), JSON.stringify({ constants: { PRODUCT: 'two' } }));
    const run = await runCli(['check', '--root', root, '--reporter', 'json']);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).otherOptions).toEqual(['constants']);
  });
});

describe('the config as build options (library)', () => {
  it('targets: js is always built; the file can leave Python out', async () => {
    const root = await project({ 'prompt-build.config.json': JSON.stringify({ targets: ['js'], constants: { PRODUCT: 'x' } }) });
    const loaded = await loadConfig(root);
    expect(loaded.diagnostics).toEqual([]);
    expect(configBuildOptions(root, loaded).options.targets).toEqual(['js']);
    const result = await buildProject({ root, cacheDir: null, write: false, ...configBuildOptions(root, loaded).options });
    expect([...result.bundle!.files.keys()].filter((f) => f.endsWith('.py'))).toEqual([]);
    expect(result.manifest!.options!.targets).toEqual(['js']);
  });
});

describe('source folders', () => {
  it('a config can keep the prompt set and the agents elsewhere, a dot-folder such as .claude/agents included', async () => {
    const root = await tempDir('pb-config-');
    await writeTree(root, {
      'prompt-build.config.json': JSON.stringify({ sources: { prompts: './src/prompts/', agents: '.claude/agents' }, agents: { ignore: ['drafts/**'] } }),
      'src/prompts/sections/intro.md': 'Hello.\n',
      'src/prompts/profiles/default.md': '---\nsections: [intro]\ncacheWarning: false\n---\n',
      'src/prompts/fragments/unused.md': 'Fragment.\n',
      '.claude/agents/reviewer.md': '---\nname: reviewer\ndescription: Reviews.\n---\nYou review.\n',
      '.claude/agents/drafts/wip.md': '---\nname: wip\ndescription: Not yet.\n---\nDraft.\n',
      '.claude/agents/.hidden/secret.md': '---\nname: secret\ndescription: Hidden.\n---\nHidden.\n',
      // Where the default layout would look: not sources under this config.
      'prompts/sections/stray.md': 'Stray.\n',
      'agents/stray.md': '---\nname: stray\ndescription: Stray.\n---\nStray.\n',
    });
    const loaded = await loadConfig(root);
    const { options, diagnostics } = configBuildOptions(root, loaded);
    expect(diagnostics).toEqual([]);
    const result = await buildProject({ root, cacheDir: null, write: false, ...options });
    expect(result.diagnostics).toEqual([]);
    expect(Object.keys(result.manifest!.agents)).toEqual(['reviewer']);
    expect(result.manifest!.profiles.default!.sections.map((s) => s.source)).toEqual(['src/prompts/sections/intro.md']);
    expect(Object.keys(result.manifest!.sources).sort()).toEqual(['.claude/agents/reviewer.md', 'src/prompts/fragments/unused.md', 'src/prompts/profiles/default.md', 'src/prompts/sections/intro.md']);
    // The out directory may not be inside a configured source folder.
    const run = await runCli(['build', '--root', root, '--no-cache', '--out', '.claude/agents/dist']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('is inside the sources (.claude/agents/)');
  });

  it('a folder outside the root, the root itself, or one folder for both is a positioned config error', async () => {
    for (const [sources, message] of [
      [{ prompts: '../elsewhere' }, 'sources.prompts: "../elsewhere" must be inside the root'],
      [{ agents: '.' }, 'sources.agents: "." may not be the root itself'],
      [{ prompts: 'src', agents: 'src/agents' }, 'sources: one source folder holds the other (src, src/agents)'],
    ] as const) {
      const root = await project({ 'prompt-build.config.json': JSON.stringify({ sources }, null, 2) });
      const loaded = await loadConfig(root);
      const found = [...loaded.diagnostics, ...configBuildOptions(root, loaded).diagnostics];
      expect(found.map((d) => `${d.file}:${d.line}: ${d.rule}: ${d.message}`)).toEqual([expect.stringMatching(new RegExp(`^prompt-build\\.config\\.json:[23]: config/invalid-value: ${message.replace(/[.()"]/g, '\\$&')}$`))]);
    }
  });
});
