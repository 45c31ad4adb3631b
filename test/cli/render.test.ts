/**
 * `prompt-build render` on the repository's own bundle: every flag changes the
 * output exactly as the priority chain says (docs/runtime.md#the-priority-chain). Runs in a temporary
 * non-git working directory so no git snapshot is appended and the last part
 * is the one under test.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../compiler/runtime/manifest.js';
import { runCli, runCliInProcess } from '../helpers/cli.js';
import { REPO, tempDir } from '../helpers/tree.js';

const BOUNDARY = '__SYSTEM_PROMPT_DYNAMIC_BOUNDARY__';
let cwd: string;
let manifest: Manifest;

async function distText(file: string): Promise<string> {
  return (await fs.readFile(path.join(REPO, 'dist', file), 'utf8')).replace(/\n+$/, '');
}

async function render(...flags: string[]): Promise<{ system: string[]; blocks: Array<{ text: string }>; systemContext: unknown; userContext: Record<string, string> }> {
  const run = await runCli(['render', '--json', '--root', REPO, '--cwd', cwd, ...flags], {
    env: { GIT_CEILING_DIRECTORIES: path.dirname(cwd), HOME: cwd },
  });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout);
}

beforeAll(async () => {
  cwd = await tempDir('pb-render-');
  manifest = JSON.parse(await fs.readFile(path.join(REPO, 'dist/manifest.json'), 'utf8')) as Manifest;
});

describe('render', () => {
  it('default: static sections, the boundary, dynamic sections; two cache blocks', async () => {
    const out = await render();
    const profile = manifest.profiles.default!;
    const statics = await Promise.all(profile.sections.slice(0, profile.boundaryIndex).map((s) => distText(s.file)));
    expect(out.system.slice(0, statics.length)).toEqual(statics);
    expect(out.system[statics.length]).toBe(BOUNDARY);
    expect(out.system.join('\n')).toContain(`Working directory: ${cwd}`);
    expect(out.blocks).toHaveLength(2);
    expect(out.blocks.some((b) => b.text.includes(BOUNDARY))).toBe(false);
    expect(out.userContext.currentDate).toMatch(/^Today's date is \d{4}-\d{2}-\d{2}\.$/);
    expect(out.systemContext).toEqual({});
  });

  it('--agent replaces the default prompt with the agent’s', async () => {
    const out = await render('--agent', 'explore');
    expect(out.system).toEqual([await distText(manifest.agents.explore!.file)]);
  });

  it('--coordinator uses the coordinator prompt, and appends the agent’s when one is set', async () => {
    const coordinator = await distText(manifest.profiles.coordinator!.sections[0]!.file);
    expect((await render('--coordinator')).system[0]).toBe(coordinator);
    const withAgent = await render('--coordinator', '--agent', 'plan');
    expect(withAgent.system[0]).toBe(coordinator);
    expect(withAgent.system.at(-1)).toBe(await distText(manifest.agents.plan!.file));
  });

  it('--proactive assembles the proactive profile; with an agent, the agent goes under a heading after it', async () => {
    const proactive = await render('--proactive');
    const first = await distText(manifest.profiles.proactive!.sections[0]!.file);
    expect(proactive.system[0]).toBe(first);
    const withAgent = await render('--proactive', '--agent', 'explore');
    expect(withAgent.system[0]).toBe(first);
    expect(withAgent.system.at(-1)).toBe(`# Custom Agent Instructions\n${await distText(manifest.agents.explore!.file)}`);
  });

  it('--custom-system-prompt replaces the default and skips the system context', async () => {
    const out = await render('--custom-system-prompt', 'You are terse.');
    expect(out.system).toEqual(['You are terse.']);
    expect(out.systemContext).toBeNull();
  });

  it('--append-system-prompt is added last', async () => {
    const out = await render('--append-system-prompt', 'Always answer in haiku.');
    expect(out.system.at(-1)).toBe('Always answer in haiku.');
    expect(out.system[0]).toBe(await distText(manifest.profiles.default!.sections[0]!.file));
  });

  it('--override-system-prompt replaces everything, and append is not added', async () => {
    const out = await render('--override-system-prompt', 'Only this.', '--append-system-prompt', 'Not this.', '--agent', 'plan');
    expect(out.system).toEqual(['Only this.']);
  });

  it('--context supplies dynamic inputs; values that look like templates are printed, not evaluated', async () => {
    const file = path.join(cwd, 'ctx.json');
    await fs.writeFile(
      file,
      JSON.stringify({ language: 'Japanese', mcpServers: [{ name: 'tracker', instructions: 'Use {{cwd}} literally.' }] }),
    );
    const text = (await render('--context', file)).system.join('\n');
    expect(text).toContain('Japanese');
    expect(text).toContain('## tracker\n\nUse {{cwd}} literally.');
  });

  it('human output names each section and shows the boundary', async () => {
    const run = await runCli(['render', '--root', REPO, '--cwd', cwd], { env: { GIT_CEILING_DIRECTORIES: path.dirname(cwd), HOME: cwd } });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('── intro (static) ──');
    expect(run.stdout).toMatch(/════ dynamic boundary — static prefix above: ~\d+ tokens/);
    expect(run.stdout).toContain('── env-info (dynamic, cached) ──');
    expect(run.stdout).toContain('━━ user context (first user message) ━━');
  });

  it('an unknown agent is a usage error, not a stack trace', async () => {
    const run = await runCli(['render', '--root', REPO, '--cwd', cwd, '--agent', 'nobody']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("no agent 'nobody'");
    expect(run.stderr).not.toContain('    at ');
  });

  it('renders an agent in a project with agents and no profiles; a profile is asked for only where one is used', async () => {
    const root = await tempDir('pb-render-agents-only-');
    await fs.mkdir(path.join(root, 'agents'), { recursive: true });
    await fs.writeFile(path.join(root, 'agents/reviewer.md'), '---\nname: reviewer\ndescription: reviews code\n---\nYou review code.\n');
    const built = await runCliInProcess(['build', '--root', root, '--no-cache']); // setup: render is under test
    expect(built.code, built.stderr).toBe(0);
    const env = { GIT_CEILING_DIRECTORIES: path.dirname(cwd), HOME: cwd };
    const agent = await runCli(['render', '--json', '--root', root, '--cwd', cwd, '--agent', 'reviewer'], { env });
    expect(agent.code, agent.stderr).toBe(0);
    expect((JSON.parse(agent.stdout) as { system: string[] }).system[0]).toBe('You review code.');
    const plain = await runCli(['render', '--root', root, '--cwd', cwd], { env });
    expect(plain.code).toBe(2);
    expect(plain.stderr).toContain("the bundle has no profile 'default'");
    const proactive = await runCli(['render', '--root', root, '--cwd', cwd, '--agent', 'reviewer', '--proactive'], { env });
    expect(proactive.code).toBe(2);
    expect(proactive.stderr).toContain("the bundle has no profile 'proactive'");
  });

  it('adds only the run-time context asked for with --context-parts, and says which', async () => {
    const env = { GIT_CEILING_DIRECTORIES: path.dirname(cwd), HOME: cwd };
    const json = async (...flags: string[]) => {
      const run = await runCli(['render', '--json', '--root', REPO, '--cwd', cwd, ...flags], { env });
      expect(run.code, run.stderr).toBe(0);
      return JSON.parse(run.stdout) as { system: string[]; userContext: Record<string, string>; systemContext: unknown; contextParts: string[] };
    };
    const all = await json();
    expect(all.contextParts).toEqual(['git', 'instructions', 'date']);
    expect(Object.keys(all.userContext)).toContain('currentDate');
    const none = await json('--context-parts', 'none');
    expect(none.contextParts).toEqual([]);
    expect(none.userContext).toEqual({});
    expect(none.systemContext).toBeNull();
    expect(none.system).toEqual(all.system.filter((part) => !part.startsWith('gitStatus: ')));
    const date = await json('--context-parts', 'date');
    expect(Object.keys(date.userContext)).toEqual(['currentDate']);
    const human = await runCli(['render', '--root', REPO, '--cwd', cwd, '--context-parts', 'date'], { env });
    expect(human.stdout).toContain("run-time context added: today's date (choose with --context-parts)");
    const wrong = await runCli(['render', '--root', REPO, '--cwd', cwd, '--context-parts', 'git,weather'], { env });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--context-parts git,weather: give a comma-separated list of git, instructions, date, or none');
  });
});
