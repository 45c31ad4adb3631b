/**
 * A migrating team's agents folder, built as users build it: 43 agent files
 * in the shapes public collections use (test/helpers/agent-collection.ts).
 * The build holds exactly the agents Claude Code loads, says in one line per
 * skipped file what Claude Code does with it, lists those files in the
 * manifest, and keeps the full notes for --verbose and JSON.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProject, createCompiler } from '../../compiler/index.js';
import { agentCollection } from '../helpers/agent-collection.js';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeTree } from '../helpers/tree.js';

const collection = agentCollection();

async function project(extra: Record<string, string> = {}): Promise<string> {
  const root = await tempDir('pb-agents-cc-');
  await writeTree(root, { ...collection.files, ...extra });
  return root;
}

interface JsonDiagnostic {
  rule: string;
  severity: string;
  file: string;
  line: number;
  column: number;
  message: string;
  note?: string;
}

describe('43 agent files, built as Claude Code loads them', () => {
  it('has the shapes it says: 43 files, 22 that load, 21 skipped', () => {
    expect(Object.keys(collection.files)).toHaveLength(43);
    expect(collection.loaded).toHaveLength(22);
    expect(Object.keys(collection.skipped)).toHaveLength(21);
  });

  it('build: exit 0, exactly the 22 loadable agents, one line per skipped file saying Claude Code skips it, the manifest listing them', async () => {
    const root = await project();
    const run = await runCli(['build', '--root', root, '--no-cache']);
    expect(run.code, run.stderr).toBe(0);
    const manifest = JSON.parse(await fs.readFile(path.join(root, 'dist/manifest.json'), 'utf8'));
    expect(Object.keys(manifest.agents).sort()).toEqual(collection.loaded);
    expect(Object.fromEntries(Object.entries(manifest.skippedAgents as Record<string, { rule: string }>).map(([file, s]) => [file, s.rule]))).toEqual(collection.skipped);
    const lines = run.stderr.split('\n');
    for (const [file, rule] of Object.entries(collection.skipped)) {
      const about = lines.filter((line) => line.startsWith(`${file}:`));
      expect(about, file).toHaveLength(1);
      expect(about[0]).toMatch(new RegExp(`^${file}:\\d+:\\d+: (warning|info) ${rule}: Claude Code skips this file: `));
    }
    // Brief lines only: no excerpt frame or note under them.
    expect(lines.filter((line) => line.startsWith('  note:'))).toEqual([]);
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThan(250);
    expect(run.stderr).toContain("built 0 profiles, 22 agents (21 agent files skipped, listed in the manifest's skippedAgents) from 43 sources");
  });

  it('an unreadable agent is reported where the lenient reading stops (the <example> line), not at the strict parser’s first complaint', async () => {
    const root = await project();
    const result = await buildProject({ root, cacheDir: null, write: false });
    const at = (file: string) => result.diagnostics.filter((d) => d.file === file);
    // description on line 3 ends in "Examples:" (the strict complaint, line 3 col 14); line 4 is blank; <example> is line 5.
    const [simplifier] = at('agents/plugin/code-simplifier.md');
    expect(simplifier).toMatchObject({ rule: 'frontmatter/invalid-yaml', severity: 'warning', line: 5, column: 1 });
    expect(simplifier!.message).toBe("Claude Code skips this file: its frontmatter cannot be read ('<example>' is not a 'key: value' line)");
    expect(simplifier!.note).toContain("line 5 goes on with 'description' (line 3) at the left margin");
    expect(simplifier!.note).toContain("rules: { 'frontmatter/invalid-yaml': 'error' }");
    // Without the blank line, <example> is line 4.
    expect(at('agents/plugin/test-writer.md')[0]).toMatchObject({ line: 4, column: 1 });
    expect(at('agents/broken/unclosed-list.md')[0]!.message).toContain("'tools' opens a list it never closes");
    expect(at('agents/other/neither.md')[0]!.message).toBe("Claude Code skips this file: its frontmatter has no 'name' nor 'description'");
  });

  it('a value that starts with a quote and goes on after it is read whole, quote and all, as Claude Code’s retry reads it, with a warning', async () => {
    const root = await project();
    const result = await buildProject({ root, cacheDir: null, write: false });
    const agent = result.bundle!.manifest.agents['quote-started-0']!;
    expect(agent.description).toBe('"Use this agent when the user asks for a security review." Examples: the user says "check auth 0"');
    expect(agent.extra).toBeUndefined();
    const warning = result.diagnostics.find((d) => d.file === 'agents/lenient/quote-started-0.md')!;
    expect(warning).toMatchObject({ rule: 'frontmatter/lenient-yaml', severity: 'warning', line: 3, column: 14 });
    expect(warning.message).toContain("'description'");
  });

  it('--reporter json carries every note whole; --verbose prints the brief ones with excerpt and note', async () => {
    const long = `Expert: ${'reviews code carefully '.repeat(140)}`.trimEnd();
    const root = await project({ 'agents/lenient/long.md': `---\nname: long\ndescription: ${long}\n---\nBody.\n` });
    const json = await runCli(['build', '--root', root, '--no-cache', '--reporter', 'json']);
    expect(json.code).toBe(0);
    const diagnostics = (JSON.parse(json.stdout) as { diagnostics: JsonDiagnostic[] }).diagnostics;
    const longWarning = diagnostics.find((d) => d.file === 'agents/lenient/long.md')!;
    expect(longWarning.note).toBe(`put the value in quotes: description: ${JSON.stringify(long)}`);
    expect(diagnostics.find((d) => d.file === 'agents/plugin/code-simplifier.md')!.note).toContain("goes on with 'description'");

    const brief = await runCli(['build', '--root', root, '--no-cache']);
    const briefLine = brief.stderr.split('\n').filter((line) => line.startsWith('agents/lenient/long.md'));
    expect(briefLine).toHaveLength(1);
    expect(briefLine[0]!.length).toBeLessThan(250);
    expect(brief.stderr).not.toContain('put the value in quotes');

    const verbose = await runCli(['build', '--root', root, '--no-cache', '--verbose']);
    expect(verbose.code).toBe(0);
    expect(verbose.stderr).toContain(`  note: put the value in quotes: description: ${JSON.stringify(long)}`);
    // The excerpt is cut around the caret, whatever the line's length.
    const excerpt = verbose.stderr.split('\n').find((line) => line.startsWith('  3 | description: Expert'))!;
    expect(excerpt.length).toBeLessThan(140);
  });

  it("with rules: { 'frontmatter/invalid-yaml': 'error' } an unreadable agent fails the build, printed whole", async () => {
    const root = await project({ 'prompt-build.config.json': JSON.stringify({ rules: { 'frontmatter/invalid-yaml': 'error' } }) });
    const run = await runCli(['build', '--root', root, '--no-cache']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('agents/plugin/code-simplifier.md:5:1: error frontmatter/invalid-yaml: Claude Code skips this file');
    expect(run.stderr).toMatch(/ {2}5 \| <example>\n/);
    expect(run.stderr).toContain("note: line 5 goes on with 'description' (line 3)");
    await expect(fs.access(path.join(root, 'dist'))).rejects.toThrow();
  });

  it('a rebuild after fixing, breaking or deleting an agent file keeps skippedAgents in step with the tree', async () => {
    const root = await tempDir('pb-agents-cc-');
    await writeTree(root, { 'agents/a.md': '---\nname: a\n---\nA.\n', 'agents/b.md': '---\nname: b\ndescription: B\n---\nB.\n' });
    const compiler = await createCompiler({ root, cacheDir: null, write: false });
    const skippedOf = (r: Awaited<ReturnType<typeof compiler.build>>) => Object.keys(r.bundle!.manifest.skippedAgents ?? {});
    expect(skippedOf(await compiler.build())).toEqual(['agents/a.md']);
    await writeTree(root, { 'agents/a.md': '---\nname: a\ndescription: A\n---\nA.\n', 'agents/b.md': '---\nname: b\ndescription: B\n<example>\n---\nB.\n' });
    const swapped = await compiler.build([{ kind: 'change', path: path.join(root, 'agents/a.md') }, { kind: 'change', path: path.join(root, 'agents/b.md') }]);
    expect(skippedOf(swapped)).toEqual(['agents/b.md']);
    expect(Object.keys(swapped.bundle!.manifest.agents)).toEqual(['a']);
    await fs.rm(path.join(root, 'agents/b.md'));
    const gone = await compiler.build([{ kind: 'unlink', path: path.join(root, 'agents/b.md') }]);
    expect(gone.bundle!.manifest.skippedAgents).toBeUndefined();
  });

  it('a section whose frontmatter cannot be read stays an error', async () => {
    const root = await tempDir('pb-agents-cc-');
    await writeTree(root, {
      'prompts/sections/s.md': '---\ndescription: Use when\n<example>\n---\nText.\n',
      'prompts/profiles/p.md': '---\nsections: [s]\n---\n',
    });
    const result = await buildProject({ root, cacheDir: null, write: false });
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map((d) => `${d.severity} ${d.rule} ${d.line}`)).toContain('error frontmatter/invalid-yaml 3');
  });
});
