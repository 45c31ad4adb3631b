/**
 * A Claude Code project's skills, commands, output styles and rules
 * (docs/claude-code.md), on the fixture test/fixtures/claude-code: good files
 * and one of each mistake Claude Code passes over without a word.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it, onTestFinished } from 'vitest';
import { buildProject, configBuildOptions, createCompiler, loadConfig, resolveBuildOptions, type Diagnostic } from '../../compiler/index.js';
import { loadBundle } from '../../compiler/runtime/index.js';
import { globProblem } from '../../compiler/definitions/glob-check.js';
import { sourcePathTest } from '../../compiler/pipeline/discover.js';
import { readDocument } from '../../compiler/lsp/document.js';
import { completionsAt } from '../../compiler/lsp/features.js';
import { runCliInProcess } from '../helpers/cli.js';
import { copyFixture, FIXTURES, readTree, REPO, tempDir, writeTree } from '../helpers/tree.js';

const FIXTURE = path.join(FIXTURES, 'claude-code');

async function build(root: string, write = false) {
  const loaded = await loadConfig(root);
  const { options, diagnostics } = configBuildOptions(root, loaded);
  expect(diagnostics).toEqual([]);
  return buildProject({ root, cacheDir: null, write, ...options });
}

/** A project of one profile and section, with skills and commands in `.claude/` and `files` written there. */
async function claudeProject(files: Record<string, string>): Promise<string> {
  const root = await tempDir();
  await writeTree(root, {
    'prompt-build.config.json': JSON.stringify({ sources: { skills: '.claude/skills', commands: '.claude/commands' } }),
    'prompts/profiles/default.md': '---\nsections: [a]\ncacheWarning: false\n---\n',
    'prompts/sections/a.md': 'Hi.\n',
    ...files,
  });
  return root;
}

const shown = (d: Diagnostic) => `${d.file}:${d.line}:${d.column}: ${d.severity} ${d.rule}: ${d.message}`;

describe('a Claude Code project', () => {
  it('reports each mistake Claude Code passes over, at its place, and builds the rest', async () => {
    const result = await build(FIXTURE);
    expect(result.diagnostics.map(shown)).toEqual([
      ".claude/commands/frontend/component.md:3:1: warning claude/unknown-field: Claude Code reads no 'alowed-tools' in a command: the field does nothing",
      ".claude/rules/api.md:4:6: warning claude/invalid-glob: paths: 'src/{a,b/**' opens a '{' it never closes: Claude Code never loads this rule for it",
      ".claude/rules/testing.md:2:1: warning claude/unknown-field: Claude Code reads no 'globs' in a rule: the field does nothing",
      '.claude/skills/README.md:1:1: info claude/skipped: Claude Code skips this file: it is in no skill folder',
      ".claude/skills/long-description/SKILL.md:3:1550: warning claude/description-truncated: Claude Code cuts this skill's description at 1,536 characters (description and when_to_use together, 1,562 here): the listing ends before 'LOST WORDS here and afte'",
      ".claude/skills/notes-only/notes.md:1:1: warning claude/skipped: Claude Code skips this file: its folder 'notes-only' holds no SKILL.md, so it is no skill and its files reach no prompt",
    ]);
    const notes = Object.fromEntries(result.diagnostics.map((d) => [`${d.file}:${d.line}`, d.note]));
    expect(notes['.claude/commands/frontend/component.md:3']).toBe("did you mean 'allowed-tools'?");
    expect(notes['.claude/rules/testing.md:2']).toBe("another tool reads 'globs'; Claude Code reads 'paths'");
    expect(result.diagnostics.find((d) => d.file === '.claude/skills/notes-only/notes.md')!.excerpt).toBe('Notes that no SKILL.md points to.');
    expect(result.diagnostics.find((d) => d.file === '.claude/skills/README.md')!.excerpt).toBe('# Our skills');
    const cut = result.diagnostics.find((d) => d.rule === 'claude/description-truncated')!;
    expect(cut.excerpt!.slice(cut.column - 1)).toMatch(/^LOST WORDS/);

    const claude = result.manifest!.claudeCode!;
    expect(Object.keys(claude.skills!)).toEqual(['long-description', 'pdf-tools']);
    expect(Object.keys(claude.commands!)).toEqual(['frontend:component', 'review']);
    expect(Object.keys(claude.outputStyles!)).toEqual(['teacher']);
    expect(Object.keys(claude.rules!)).toEqual(['api', 'testing']);
    expect(Object.keys(claude.skipped!)).toEqual(['.claude/skills/README.md', '.claude/skills/notes-only/notes.md']);
    const skill = claude.skills!['pdf-tools']!;
    expect(skill.fields).toEqual({ name: 'pdf-tools', description: 'Fills and merges PDF forms. Use when the user works with PDF files.', 'allowed-tools': 'Read, Bash(python:*)', 'argument-hint': '[file]', 'disable-model-invocation': false });
    expect(Object.keys(skill.files!)).toEqual(['forms.md']);
    expect(skill.file).toMatch(/^claude\/skills\/pdf-tools\/SKILL\.[0-9a-f]{8}\.md$/);
    expect(claude.commands!['frontend:component']!.file).toMatch(/^claude\/commands\/frontend\/component\.[0-9a-f]{8}\.md$/);
    // @include and constants, as in an agent; Claude Code's own placeholders kept as written.
    const text = result.bundle!.files.get(skill.file)!;
    expect(text).toContain('Ask the Platform team before changing a public API.');
    expect(text).toContain('Open $ARGUMENTS with the scripts in ${CLAUDE_SKILL_DIR}/scripts.');
    expect(Object.keys(result.manifest!.sources)).toContain('.claude/shared/team.md');
  });

  it('an unknown field far from every known one lists the fields, a wrong type is an error, an unreadable one skips the file', async () => {
    const root = await tempDir('pb-claude-');
    await writeTree(root, {
      'prompt-build.config.json': JSON.stringify({ sources: { outputStyles: 'styles', skills: 'skills', commands: 'commands' } }),
      'skills/deploy/SKILL.md': '---\ndescription: Deploys.\n---\nDeploy.\n',
      'commands/deploy.md': 'Deploy the old way.\n',
      'styles/a.md': '---\ncolour: blue\nkeep-coding-instructions: "yes"\n---\nBe brief.\n',
      'styles/b.md': '---\nname: [unclosed\n---\nText.\n',
      'skills/x/SKILL.md': '---\nname: Not_A_Name\ncontext: inline\narguments: [file]\npaths: src/**/*.{ts,tsx}, /abs/**\n---\nDo.\n',
    });
    const result = await build(root);
    expect(result.diagnostics.map(shown)).toEqual([
      'commands/deploy.md:1:1: warning claude/duplicate-name: Claude Code runs the skill skills/deploy/SKILL.md for /deploy: this command is never used',
      "skills/x/SKILL.md:2:1: warning claude/invalid-field: name 'Not_A_Name' is not lowercase letters, digits and hyphens of at most 64 characters, as Claude Code documents it",
      'skills/x/SKILL.md:3:1: error claude/invalid-field: \'context\' must be one of fork (got "inline")',
      "skills/x/SKILL.md:5:27: warning claude/invalid-glob: paths: '/abs/**' is absolute; globs are relative to the project root: Claude Code never loads this skill for it",
      "styles/a.md:2:1: warning claude/unknown-field: Claude Code reads no 'colour' in an output style: the field does nothing",
      "styles/a.md:3:1: error claude/invalid-field: 'keep-coding-instructions' must be true or false",
      expect.stringMatching(/^styles\/b\.md:\d+:\d+: warning frontmatter\/invalid-yaml: Claude Code skips this file: its frontmatter cannot be read, so the output style is not loaded/),
    ]);
    expect(result.diagnostics.find((d) => d.file === 'styles/a.md')!.note).toBe('the fields Claude Code reads here: name, description, keep-coding-instructions');
  });

  it('the same sources give the same bundle; a later build prunes what an earlier one wrote', async () => {
    const root = await copyFixture('claude-code');
    const first = await build(root);
    const again = await build(root);
    expect([...again.bundle!.files.entries()]).toEqual([...first.bundle!.files.entries()]);
    const cli = await runCliInProcess(['build', '--root', root, '--no-cache']);
    expect(cli.stderr).toContain("built 0 profiles, 1 agent and 2 skills, 2 commands, 1 output style, 2 rules (2 Claude Code files skipped, listed in the manifest's claudeCode.skipped) from 12 sources");
    const before = await readTree(path.join(root, 'dist'));
    await fs.writeFile(path.join(root, '.claude/commands/review.md'), '---\ndescription: Review\n---\nReview #$1.\n');
    await build(root, true);
    const after = await readTree(path.join(root, 'dist'));
    const commands = (tree: Map<string, Buffer>) => [...tree.keys()].filter((f) => f.startsWith('claude/commands/review.'));
    expect(commands(after)).toHaveLength(1);
    expect(commands(after)).not.toEqual(commands(before));
    const inspect = await runCliInProcess(['inspect', path.join(root, 'dist'), '--root', root]);
    expect(inspect.stdout).toMatch(/claude code\n  kind +name +bytes +tokens +source\n  skill +long-description .*\n  skill +pdf-tools .*\n +forms\.md .*\.claude\/skills\/pdf-tools\/forms\.md\n  command +frontend:component /);
    expect(inspect.stdout).toContain("2 files Claude Code skips (the manifest's claudeCode.skipped)");
    // Both runtimes load a bundle that has them.
    const bundle = await loadBundle(path.join(root, 'dist'));
    expect(Object.keys(bundle.manifest.claudeCode!.commands!)).toEqual(['frontend:component', 'review']);
    const py = spawnSync('python3', ['-c', 'import sys; from prompt_build import load_bundle; print(sorted(load_bundle(sys.argv[1]).manifest["claudeCode"]))', path.join(root, 'dist')], {
      env: { ...process.env, PYTHONPATH: path.join(REPO, 'python/src') },
      encoding: 'utf8',
    });
    expect(py.stderr).toBe('');
    expect(py.stdout.trim()).toBe("['commands', 'outputStyles', 'rules', 'skills', 'skipped']");
    // The CLI's readers check what they print of it.
    const manifestFile = path.join(root, 'dist/manifest.json');
    const crafted = JSON.parse(await fs.readFile(manifestFile, 'utf8'));
    crafted.claudeCode.rules.api.bytes = 'many';
    await fs.writeFile(manifestFile, JSON.stringify(crafted));
    const refused = await runCliInProcess(['inspect', path.join(root, 'dist'), '--root', root]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('claudeCode.rules api: bytes is not a number 0 or above');
  });

  it('lint through the CLI: excerpt and caret, and $ARGUMENTS is no leftover in a command or skill', async () => {
    const run = await runCliInProcess(['lint', '--root', FIXTURE, '--no-cache']);
    expect(run.stdout + run.stderr).toContain(".claude/commands/frontend/component.md:3:1: warning claude/unknown-field: Claude Code reads no 'alowed-tools' in a command: the field does nothing\n  3 | alowed-tools: Write\n    | ^\n  note: did you mean 'allowed-tools'?");
    const leftovers = (run.stdout + run.stderr).split('\n').filter((line) => line.includes('static/leftover-interpolation'));
    expect(leftovers).toEqual([".claude/output-styles/teacher.md:6:52: warning static/leftover-interpolation: a JavaScript template literal's placeholder in output style 'teacher': '${name}'"]);
  });
});

describe('the config names the folders', () => {
  it('a misspelt folder key gets the one meant; one folder inside another is refused', async () => {
    for (const [sources, message] of [
      [{ skils: '.claude/skills' }, /config\/unknown-key: .*skils.*\n?.*did you mean 'skills'/],
      [{ agents: '.claude', rules: '.claude/rules' }, /sources: one source folder holds the other \(\.claude, \.claude\/rules\)/],
      [{ commands: 'same', outputStyles: 'same' }, /sources: commands and outputStyles are the same folder \(same\)/],
    ] as const) {
      const root = await tempDir('pb-claude-config-');
      await writeTree(root, { 'prompt-build.config.json': JSON.stringify({ sources }, null, 2) });
      const loaded = await loadConfig(root);
      const found = [...loaded.diagnostics, ...configBuildOptions(root, loaded).diagnostics];
      expect(found.map((d) => `${d.rule}: ${d.message}\n${d.note ?? ''}`).join('\n')).toMatch(message);
    }
  });

  it('watch takes a change in a named folder for a source, and nothing outside them', async () => {
    const isSource = await sourcePathTest({ prompts: 'prompts', agents: 'agents', skills: '.claude/skills', rules: '.claude/rules' }, []);
    expect(isSource('.claude/skills/a/SKILL.md')).toBe(true);
    expect(isSource('.claude/rules/api.md')).toBe(true);
    expect(isSource('.claude/commands/review.md')).toBe(false);
  });
});

describe('a rebuild (watch, the language server)', () => {
  it('a SKILL.md added to a folder makes its files a skill; removed, they are skipped again', async () => {
    const root = await copyFixture('claude-code');
    const { options } = configBuildOptions(root, await loadConfig(root));
    const compiler = await createCompiler(resolveBuildOptions({ root, cacheDir: null, ...options }));
    // A compiler that holds a counting thread ends it when closed.
    onTestFinished(async () => (compiler as { close?: () => Promise<void> }).close?.());
    const skippedNotes = (r: { diagnostics: Diagnostic[] }) => r.diagnostics.filter((d) => d.file === '.claude/skills/notes-only/notes.md').map((d) => d.rule);
    expect(skippedNotes(await compiler.build())).toEqual(['claude/skipped']);
    const skill = path.join(root, '.claude/skills/notes-only/SKILL.md');
    await fs.writeFile(skill, '---\nname: notes-only\ndescription: Notes.\n---\nRead notes.md.\n');
    const added = await compiler.build([{ path: skill, kind: 'add' }]);
    expect(skippedNotes(added)).toEqual([]);
    expect(Object.keys(added.bundle!.manifest.claudeCode!.skills!['notes-only']!.files!)).toEqual(['notes.md']);
    await fs.rm(skill);
    const removed = await compiler.build([{ path: skill, kind: 'unlink' }]);
    expect(skippedNotes(removed)).toEqual(['claude/skipped']);
    expect(removed.bundle!.manifest.claudeCode!.skills!['notes-only']).toBeUndefined();
  });
});

describe('the language server', () => {
  it("offers the fields Claude Code reads in the file's kind", () => {
    const options = resolveBuildOptions({ root: FIXTURE, cacheDir: null, sourceDirs: { prompts: 'prompts', agents: '.claude/agents', commands: '.claude/commands', outputStyles: '.claude/output-styles' } });
    const offered = (rel: string) => {
      const text = '---\n\n---\nBody.\n';
      const doc = readDocument(path.join(FIXTURE, rel), text, options)!;
      return completionsAt(doc, 4, [], () => []).map((c) => c.label);
    };
    expect(offered('.claude/commands/new.md')).toEqual(expect.arrayContaining(['allowed-tools', 'argument-hint', 'disable-model-invocation', 'comments']));
    expect(offered('.claude/output-styles/new.md')).toEqual(['name', 'description', 'keep-coding-instructions', 'comments']);
  });
});

describe('a rule glob', () => {
  it('is refused when it can match no project path', () => {
    expect(globProblem('src/**/*.{ts,tsx}')).toBeNull();
    expect(globProblem('[abc]/**')).toBeNull();
    expect(globProblem('')).toBe('is empty');
    expect(globProblem('/src/**')).toMatch(/^is absolute/);
    expect(globProblem('../x/**')).toMatch(/^climbs out/);
    expect(globProblem('src\\api\\*.ts')).toMatch(/^holds '\\'/);
    expect(globProblem('src/[ab')).toBe("opens a '[' it never closes");
    expect(globProblem('src/a}')).toBe("closes a '}' it never opened");
  });

  it('refuses a skill or command named __proto__, which the manifest cannot hold (it vanished from the bundle); a reference file __proto__.md is a key with its extension', async () => {
    const result = await build(
      await claudeProject({
        '.claude/skills/__proto__/SKILL.md': '---\ndescription: x\n---\nSkill.\n',
        '.claude/skills/tools/SKILL.md': '---\ndescription: y\n---\nSee @./__proto__.md\n',
        '.claude/skills/tools/__proto__.md': 'Reference.\n',
        '.claude/commands/__proto__.md': '---\ndescription: z\n---\nCommand.\n',
      }),
    );
    expect(result.ok).toBe(false);
    expect(result.diagnostics.filter((d) => d.rule === 'claude/invalid-name').map((d) => `${d.file} ${d.severity}`)).toEqual([
      '.claude/commands/__proto__.md error',
      '.claude/skills/__proto__/SKILL.md error',
    ]);
  });

  it('two commands of one name (a:b.md beside a/b.md) are an error at the second, not one that silently vanishes', async () => {
    const result = await build(
      await claudeProject({
        '.claude/commands/a/b.md': '---\ndescription: one\n---\nOne.\n',
        '.claude/commands/a:b.md': '---\ndescription: two\n---\nTwo.\n',
      }),
    );
    expect(result.ok).toBe(false);
    expect(result.diagnostics.filter((d) => d.rule === 'claude/duplicate-name').map(shown)).toEqual([
      ".claude/commands/a:b.md:1:1: error claude/duplicate-name: .claude/commands/a/b.md is the command 'a:b' too: Claude Code loads one of them, and the bundle can hold one",
    ]);
  });
});
