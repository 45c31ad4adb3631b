/**
 * `prompt-build watch` on a temporary copy of `test/fixtures/watch-basic`,
 * through a scripted series of edits. After every step the watched `dist/`
 * must be byte-identical to a clean build of the same tree; after a failing
 * step it must still hold the last good build.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../compiler/runtime/manifest.js';
import { copyFixture, readTree, REPO, tempDir, writeTree } from '../helpers/tree.js';
import { cleanBuild, expectDist, WatchProcess } from './watch-process.js';

describe('prompt-build watch', () => {
  let root: string;
  let watcher: WatchProcess;
  const file = (rel: string) => path.join(root, rel);
  const edit = async (rel: string, change: (text: string) => string) => fs.writeFile(file(rel), change(await fs.readFile(file(rel), 'utf8')));

  /**
   * Applies a step that must build and compares the watched `dist/` with a
   * clean build of the same tree; returns the status lines of the step.
   */
  async function goodStep(step: () => Promise<unknown>): Promise<string[]> {
    const from = watcher.lines.length;
    await step();
    const expected = await cleanBuild(root);
    expect(expected.files, 'the clean build of this step fails').not.toBeNull();
    await watcher.waitFor(/^rebuilt in/, from);
    await expectDist(root, expected.files!, watcher);
    const builds = watcher.builds(from);
    expect(builds.at(-1)).toMatch(/^rebuilt in \d+ ms/);
    return builds;
  }

  /**
   * Applies a step that breaks the build: the watcher prints the diagnostics
   * a clean build gives, and leaves `dist/` as it was.
   */
  async function badStep(step: () => Promise<unknown>, rule: string): Promise<void> {
    const before = await readTree(file('dist'));
    const from = watcher.lines.length;
    await step();
    const expected = await cleanBuild(root);
    expect(expected.files).toBeNull();
    expect(expected.diagnostics.join('\n')).toContain(rule);
    await watcher.waitFor(/^✖ rebuild failed/, from);
    await watcher.quiet();
    const printed = watcher.lines.slice(from).join('\n');
    for (const d of expected.diagnostics) expect(printed).toContain(d);
    expect(watcher.builds(from).at(-1)).toMatch(/^✖ rebuild failed in \d+ ms with \d+ errors?; .*dist\/ keeps the last good build$/);
    expect(await readTree(file('dist'))).toEqual(before);
  }

  beforeAll(async () => {
    root = await copyFixture('watch-basic');
    watcher = new WatchProcess(root);
    await watcher.waitFor(/^watching /);
  });

  afterAll(async () => {
    await watcher?.stop('SIGKILL');
    await fs.rm(root, { recursive: true, force: true });
  });

  it('starts with a full build equal to a clean build', async () => {
    expect(watcher.lines.some((l) => /^built 2 profiles, 1 agent into .*dist\/ in \d+ ms$/.test(l))).toBe(true);
    await expectDist(root, (await cleanBuild(root)).files!, watcher);
  });

  it('rebuilds what a nested fragment reaches, and reports the cache bust', async () => {
    const builds = await goodStep(() => edit('prompts/fragments/leaf.md', (t) => t.replace('tests', 'unit tests')));
    // leaf.md ← shared.md ← rules (section) and explore (agent); intro and env-info are untouched.
    expect(builds.at(-1)).toMatch(/^rebuilt in \d+ ms · sections: rules · agents: explore · ⚠ cache-bust: default$/);
  });

  it('says when an edit leaves the static prefixes alone', async () => {
    const builds = await goodStep(() => edit('prompts/sections/env-info.md', (t) => t.replace('Working directory', 'Current directory')));
    expect(builds.at(-1)).toMatch(/ · sections: env-info · static prefixes unchanged$/);
  });

  it('reports a missing include, then picks up the file when it is added', async () => {
    await badStep(() => edit('prompts/sections/intro.md', (t) => `${t}@../fragments/later.md\n`), 'include/missing');
    const builds = await goodStep(() => fs.writeFile(file('prompts/fragments/later.md'), 'Added later.\n'));
    expect(builds.at(-1)).toMatch(/sections: intro · ⚠ cache-bust: default$/);
  });

  it('adds a new profile and section', async () => {
    const builds = await goodStep(async () => {
      await fs.writeFile(file('prompts/sections/extra.md'), 'An extra section.\n');
      await fs.writeFile(file('prompts/profiles/extra.md'), '---\nsections: [intro, extra]\n---\n');
    });
    expect(builds.at(-1)).toMatch(/profiles: extra \(added\) · sections: extra \(added\) · static prefixes unchanged$/);
  });

  it('turns a deleted include into diagnostics, and recovers when it comes back', async () => {
    const glossary = await fs.readFile(file('docs/glossary.md'));
    await badStep(() => fs.rm(file('docs/glossary.md')), 'include/missing');
    await goodStep(() => fs.writeFile(file('docs/glossary.md'), glossary));
  });

  it('deletes a section and its profile', async () => {
    const builds = await goodStep(async () => {
      await fs.rm(file('prompts/profiles/extra.md'));
      await fs.rm(file('prompts/sections/extra.md'));
    });
    expect(builds.at(-1)).toMatch(/profiles: extra \(removed\) · sections: extra \(removed\)/);
  });

  it('follows a renamed section file', async () => {
    await goodStep(() => fs.rename(file('prompts/sections/rules.md'), file('prompts/sections/house-rules.md')));
    const manifest = JSON.parse(await fs.readFile(file('dist/manifest.json'), 'utf8'));
    expect(manifest.profiles.default.sections[1].source).toBe('prompts/sections/house-rules.md');
  });

  it('follows a renamed fragment once its includer follows too', async () => {
    await goodStep(async () => {
      await fs.rename(file('prompts/fragments/tone.md'), file('prompts/fragments/voice.md'));
      await edit('prompts/sections/intro.md', (t) => t.replace('tone.md', 'voice.md'));
    });
  });

  it('keeps the last good dist on a broken file, and the next good save recovers', async () => {
    const good = await fs.readFile(file('prompts/sections/env-info.md'), 'utf8');
    await badStep(() => fs.writeFile(file('prompts/sections/env-info.md'), good.replace('inputs: [cwd]', 'inputs: [cwd')), 'frontmatter/invalid-yaml');
    await badStep(() => fs.writeFile(file('prompts/sections/env-info.md'), good.replace('{{cwd}}', '{{cwd')), 'template/syntax');
    await goodStep(() => fs.writeFile(file('prompts/sections/env-info.md'), good.replace('{{cwd}}', '{{cwd}} (fixed)')));
    // A template in a fragment of a static section, positioned in the fragment's new text.
    await badStep(() => edit('prompts/fragments/leaf.md', (t) => `Hello.\n\n${t}- Greet {{user}}.\n`), 'section/static-template');
    await goodStep(() => edit('prompts/fragments/leaf.md', (t) => t.replace('{{user}}', 'the user')));
  });

  it('builds the last of a burst of 20 saves', async () => {
    const builds = await goodStep(async () => {
      for (let i = 1; i <= 20; i++) await fs.writeFile(file('prompts/fragments/leaf.md'), `- Save number ${i}.\n`);
    });
    expect(await fs.readFile(file('dist/agents/' + (await agentFile(root))), 'utf8')).toContain('- Save number 20.');
    expect(builds.length).toBeLessThan(20);
  });

  it('ignores files no build can read', async () => {
    const from = watcher.lines.length;
    await fs.writeFile(file('prompts/fragments/.leaf.md.swp'), 'swap');
    await fs.writeFile(file('notes.json'), '{}');
    await new Promise((r) => setTimeout(r, 400));
    expect(watcher.builds(from)).toEqual([]);
  });

  it('closes the watcher and exits 0 on SIGINT', async () => {
    const code = await watcher.stop('SIGINT');
    expect(code).toBe(0);
    expect(watcher.lines).toContain('watch stopped');
  });
});

describe('prompt-build watch, stopped by SIGTERM', () => {
  it('exits 0', async () => {
    const root = await copyFixture('watch-basic');
    const watcher = new WatchProcess(root);
    await watcher.waitFor(/^watching /);
    expect(await watcher.stop('SIGTERM')).toBe(0);
    await fs.rm(root, { recursive: true, force: true });
  });
});

const LIB = path.join(REPO, 'lib/index.js');

describe('prompt-build watch with the parse cache', () => {
  it('saves it when stopped, so the next cold build parses nothing the session saw', async () => {
    const root = await copyFixture('watch-basic');
    const watcher = new WatchProcess(root, []); // the parse cache in its default place
    await watcher.waitFor(/^watching /);
    const from = watcher.lines.length;
    const section = path.join(root, 'prompts/sections/intro.md');
    await fs.appendFile(section, '\nA sentence added while watching.\n');
    await watcher.waitFor(/^rebuilt in/, from);
    expect(await watcher.stop('SIGINT')).toBe(0);

    // The compiled library, as the CLI: the cache is keyed by a fingerprint of the code that wrote it.
    const { createCompiler } = (await import(LIB)) as typeof import('../../compiler/index.js');
    const { stats } = await (await createCompiler({ root })).build();
    expect(stats.cacheMisses).toBe(0);
    expect(stats.cacheHits).toBeGreaterThan(0);
    await fs.rm(root, { recursive: true, force: true });
  });
});

async function agentFile(root: string): Promise<string> {
  const files = await fs.readdir(path.join(root, 'dist/agents'));
  expect(files).toHaveLength(1);
  return files[0]!;
}

describe('prompt-build watch and its config file', () => {
  it('reloads the config when it changes and builds again; a config with errors keeps the one loaded before', async () => {
    const root = await tempDir('pb-watch-config-');
    await writeTree(root, {
      'prompt-build.config.json': JSON.stringify({ constants: { TOOL: 'Bash' } }),
      'prompts/sections/intro.md': 'Use {{const.TOOL}}.\n',
      'prompts/profiles/default.md': '---\nsections: [intro]\ncacheWarning: false\n---\n',
    });
    const watcher = new WatchProcess(root);
    await watcher.waitFor(/^watching /);
    const intro = async () => {
      const manifest = JSON.parse(await fs.readFile(path.join(root, 'dist/manifest.json'), 'utf8')) as Manifest;
      return fs.readFile(path.join(root, 'dist', manifest.profiles.default!.sections[0]!.file), 'utf8');
    };
    expect(await intro()).toBe('Use Bash.\n');

    let from = watcher.lines.length;
    // An editor's save in two steps: truncate, then write a moment later. chokidar drops the
    // write's event when it follows within 5 ms, so the config must be read once the save settles.
    const handle = await fs.open(path.join(root, 'prompt-build.config.json'), 'w');
    await new Promise((resolve) => setTimeout(resolve, 2));
    await handle.writeFile(JSON.stringify({ constants: { TOOL: 'Shell' } }));
    await handle.close();
    await watcher.waitFor(/prompt-build\.config\.json changed: reloading the config and building again$/, from);
    await watcher.waitFor(/^built /, from);
    expect(await intro()).toBe('Use Shell.\n');

    from = watcher.lines.length;
    await fs.writeFile(path.join(root, 'prompt-build.config.json'), JSON.stringify({ constants: { TOOL: 7 } }));
    await watcher.waitFor(/prompt-build\.config\.json changed and cannot be used: still building with the config loaded before$/, from);
    from = watcher.lines.length;
    await fs.appendFile(path.join(root, 'prompts/sections/intro.md'), 'Always.\n');
    await watcher.waitFor(/^rebuilt in/, from);
    expect(await intro()).toBe('Use Shell.\nAlways.\n');
    expect(await watcher.stop('SIGINT')).toBe(0);
    await fs.rm(root, { recursive: true, force: true });
  });
});
