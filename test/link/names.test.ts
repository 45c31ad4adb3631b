/**
 * Section and agent names name artifact files: a name no disk can hold, two
 * names one disk would take for one, or a `name:` YAML read as another type
 * is a positioned diagnostic, never a raw ENAMETOOLONG at write time.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProject, createCompiler } from '../../compiler/index.js';
import { buildThenBreak, errors, expectPreviousBundle, messageOf } from '../helpers/rebuild.js';
import { tempDir, writeTree } from '../helpers/tree.js';

const section = (name: string) => `---\nname: ${name}\n---\nBody\n`;
const agent = (name: string) => `---\nname: ${name}\ndescription: d\n---\nBody\n`;
const profile = (...names: string[]) => ({ 'prompts/profiles/p.md': `---\nsections: [${names.map((n) => JSON.stringify(n)).join(', ')}]\n---\n` });
const GOOD = { ...profile('a'), 'prompts/sections/a.md': 'Intro\n' };

describe('section names', () => {
  it('up to 100 characters build', async () => {
    const name = 'n'.repeat(100);
    const root = await tempDir();
    await writeTree(root, { ...profile(name), 'prompts/sections/a.md': section(name) });
    const result = await buildProject({ root, cacheDir: null });
    expect(errors(result)).toEqual([]);
    await fs.access(path.join(root, 'dist', result.manifest!.profiles.p!.sections[0]!.file));
  });

  it('over 100 characters are refused at the name, and the previous bundle stays', async () => {
    const name = 'n'.repeat(101);
    const run = await buildThenBreak(GOOD, (root) => writeTree(root, { ...profile(name), 'prompts/sections/a.md': section(name) }));
    expect(errors(run.result)).toEqual(['section/invalid-name prompts/sections/a.md:2:1']);
    expect(messageOf(run.result, 'section/invalid-name')).toBe(
      `section name '${'n'.repeat(57)}…' is 101 bytes long; names are at most 100 (they name artifact files)`,
    );
    await expectPreviousBundle(run);
  });

  it('a name far past any file-name limit is a diagnostic, not ENAMETOOLONG', async () => {
    const name = 'n'.repeat(300);
    const run = await buildThenBreak(GOOD, (root) => writeTree(root, { ...profile(name), 'prompts/sections/a.md': section(name) }));
    expect(errors(run.result)).toEqual(['section/invalid-name prompts/sections/a.md:2:1']);
    await expectPreviousBundle(run);
  });

  it('a long file name stands for the name when none is written: refused at line 1', async () => {
    const stem = 's'.repeat(150);
    const run = await buildThenBreak(GOOD, (root) => writeTree(root, { ...profile(stem), [`prompts/sections/${stem}.md`]: 'Body\n' }));
    expect(errors(run.result)).toEqual([`section/invalid-name prompts/sections/${stem}.md:1:1`]);
    await expectPreviousBundle(run);
  });

  it('a Windows device name is refused', async () => {
    const run = await buildThenBreak(GOOD, (root) => writeTree(root, { ...profile('Aux'), 'prompts/sections/a.md': section('Aux') }));
    expect(errors(run.result)).toEqual(['section/invalid-name prompts/sections/a.md:2:1']);
    expect(messageOf(run.result, 'section/invalid-name')).toBe("section name 'Aux' is a device name on Windows, which no file can be named");
  });

  it('two names that differ only by case are an error naming both files', async () => {
    const run = await buildThenBreak(GOOD, (root) =>
      writeTree(root, { ...profile('Intro', 'intro'), 'prompts/sections/a.md': section('Intro'), 'prompts/sections/b.md': section('intro') }),
    );
    expect(errors(run.result)).toEqual(['section/case-collision prompts/sections/b.md:2:1']);
    expect(messageOf(run.result, 'section/case-collision')).toBe(
      "section name 'intro' differs from 'Intro' (prompts/sections/a.md) only by case",
    );
    await expectPreviousBundle(run);
  });

  it('a case collision comes and goes with incremental rebuilds', async () => {
    const root = await tempDir();
    const b = path.join(root, 'prompts/sections/b.md');
    await writeTree(root, { ...profile('Intro', 'other'), 'prompts/sections/a.md': section('Intro'), 'prompts/sections/b.md': section('other') });
    const compiler = await createCompiler({ root, cacheDir: null });
    const collisions = async (changes?: Array<{ path: string; kind: 'change' }>) =>
      errors(await compiler.build(changes)).filter((e) => e.startsWith('section/case-collision'));
    expect(await collisions()).toEqual([]);
    await fs.writeFile(b, section('INTRO'));
    expect(await collisions([{ path: b, kind: 'change' }])).toEqual(['section/case-collision prompts/sections/b.md:2:1']);
    await fs.writeFile(b, section('other'));
    expect(await collisions([{ path: b, kind: 'change' }])).toEqual([]);
    expect(errors(await compiler.build())).toEqual([]);
  });

  it.each([
    ['0x1F', "'name' must be a string; YAML reads '0x1F' as the number 31", 'quote it: name: "0x1F"'],
    ['1e3', "'name' must be a string; YAML reads '1e3' as the number 1000", 'quote it: name: "1e3"'],
    ['true', "'name' must be a string; YAML reads 'true' as the boolean true", 'quote it: name: "true"'],
    ['null', "'name' must be a string; YAML reads 'null' as no value", 'quote it: name: "null"'],
    ['', "'name' must be a string; YAML reads it as no value", undefined],
    ['[a, b]', "'name' must be a string; YAML reads '[a, b]' as a list", undefined],
  ])('name: %s is refused, not converted', async (written, message, note) => {
    const run = await buildThenBreak(GOOD, (root) => writeTree(root, { 'prompts/sections/a.md': section(written) }));
    expect(errors(run.result)).toEqual(['section/invalid-name prompts/sections/a.md:2:1']);
    const d = run.result.diagnostics.find((x) => x.rule === 'section/invalid-name')!;
    expect([d.message, d.note]).toEqual([message, note]);
    await expectPreviousBundle(run);
  });

  it('the same name quoted is a string, and builds', async () => {
    const root = await tempDir();
    await writeTree(root, { ...profile('0x1F'), 'prompts/sections/a.md': section('"0x1F"') });
    const result = await buildProject({ root, cacheDir: null, write: false });
    expect(errors(result)).toEqual([]);
    expect(result.bundle!.manifest.profiles.p!.sections[0]!.name).toBe('0x1F');
  });
});

describe('agent names', () => {
  it.each([
    ["a '/'", 'a/b', "agent name 'a/b' holds '/', which a file name cannot hold"],
    ["a '\\'", 'a\\b', "agent name 'a\\b' holds '\\', which a file name cannot hold"],
    ["a ':'", '"a:b"', "agent name 'a:b' holds ':', which a file name cannot hold"],
    ['a NUL', '"a\\0b"', "agent name 'a\\x00b' holds U+0000, which a file name cannot hold"],
    ['a path out of dist/', '"../../escape"', "agent name '../../escape' holds '/', which a file name cannot hold"],
    ['101 characters', 'n'.repeat(101), `agent name '${'n'.repeat(57)}…' is 101 bytes long; names are at most 100 (they name artifact files)`],
    ['a Windows device name', 'nul', "agent name 'nul' is a device name on Windows, which no file can be named"],
  ])('a name with %s is an error', async (_what, written, message) => {
    const run = await buildThenBreak(GOOD, (root) => writeTree(root, { 'agents/x.md': agent(written) }));
    expect(errors(run.result)).toEqual(['agent/invalid-field agents/x.md:2:1']);
    expect(messageOf(run.result, 'agent/invalid-field')).toBe(message);
    await expectPreviousBundle(run);
  });

  it.each([
    ['0x1F', "'name' must be a string; YAML reads '0x1F' as the number 31"],
    ['true', "'name' must be a string; YAML reads 'true' as the boolean true"],
  ])('name: %s is refused, not converted', async (written, message) => {
    const run = await buildThenBreak(GOOD, (root) => writeTree(root, { 'agents/x.md': agent(written) }));
    expect(errors(run.result)).toEqual(['agent/invalid-field agents/x.md:2:1']);
    expect(messageOf(run.result, 'agent/invalid-field')).toBe(message);
    await expectPreviousBundle(run);
  });

  it('name: with no value is no name: the file is skipped, as Claude Code skips an agent without one', async () => {
    const root = await tempDir();
    await writeTree(root, { ...GOOD, 'agents/x.md': agent('') });
    const result = await buildProject({ root, cacheDir: null, write: false });
    expect(errors(result)).toEqual([]);
    expect(result.diagnostics.filter((d) => d.file === 'agents/x.md').map((d) => `${d.severity} ${d.rule} ${d.message}`)).toEqual([
      "warning agent/missing-field Claude Code skips this file: its frontmatter has no 'name'",
    ]);
    expect(Object.keys(result.bundle!.manifest.skippedAgents ?? {})).toEqual(['agents/x.md']);
  });

  it('a 100-character name builds', async () => {
    const root = await tempDir();
    const name = 'a'.repeat(100);
    await writeTree(root, { ...GOOD, 'agents/x.md': agent(name) });
    const result = await buildProject({ root, cacheDir: null });
    expect(errors(result)).toEqual([]);
    await fs.access(path.join(root, 'dist', result.manifest!.agents[name]!.file));
  });
});

describe("'__proto__' as a name (a key no manifest can hold)", () => {
  const PROTO = "'__proto__', which a bundle's manifest cannot hold as a name (JavaScript reads the key as the object's prototype)";

  it('an agent and a profile so named are each refused where they are named, and the previous bundle stays', async () => {
    for (const [files, rule, at] of [
      [{ 'agents/x.md': agent('__proto__') }, 'agent/invalid-field', 'agents/x.md:2:1'],
      [{ 'prompts/profiles/__proto__.md': '---\nsections: [a]\n---\n' }, 'profile/invalid-name', 'prompts/profiles/__proto__.md:1:1'],
    ] as const) {
      const run = await buildThenBreak(GOOD, (root) => writeTree(root, files));
      expect(errors(run.result)).toEqual([`${rule} ${at}`]);
      expect(messageOf(run.result, rule)).toContain(PROTO);
      await expectPreviousBundle(run);
    }
  });

  it('a section so named was refused already: section names start with a letter or digit', async () => {
    const run = await buildThenBreak(GOOD, (root) => writeTree(root, { ...profile('__proto__'), 'prompts/sections/a.md': section('__proto__') }));
    expect(errors(run.result)).toEqual(['section/invalid-name prompts/sections/a.md:2:1']);
  });

  it('other Object.prototype keys are ordinary names that build and stay in the manifest', async () => {
    const root = await tempDir();
    await writeTree(root, {
      'prompts/profiles/constructor.md': '---\nsections: [toString]\n---\n',
      'prompts/sections/t.md': section('toString'),
      'agents/x.md': agent('hasownproperty'),
    });
    const result = await buildProject({ root, cacheDir: null });
    expect(errors(result)).toEqual([]);
    const manifest = JSON.parse(await fs.readFile(path.join(root, 'dist', 'manifest.json'), 'utf8'));
    expect(Object.keys(manifest.profiles)).toEqual(['constructor']);
    expect(manifest.profiles.constructor.sections[0].name).toBe('toString');
    expect(Object.keys(manifest.agents)).toEqual(['hasownproperty']);
  });
});
