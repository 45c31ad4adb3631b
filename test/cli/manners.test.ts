/**
 * The CLI behaves like its peers: `--version`; colour on a terminal and not
 * in a pipe, with NO_COLOR and FORCE_COLOR honoured; a closed pipe ends it
 * quietly; a mistyped command, option or section gets the nearest names.
 * The terminal is a real pseudo-terminal, from util-linux's `script`.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { REPO, tempDir, writeTree, CLI_BIN } from '../helpers/tree.js';

const BIN = CLI_BIN;
const ANSI = /\u001b\[\d+m/;

let root: string;

beforeAll(async () => {
  root = await tempDir('pb-manners-');
  await writeTree(root, {
    'prompts/sections/intro.md': 'You are a coding agent.\n',
    'prompts/sections/static-cwd.md': 'Working in {{cwd}}.\n',
    'prompts/profiles/default.md': '---\ncacheWarning: false\nsections: [intro, static-cwd]\n---\n',
  });
});

afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

interface Run {
  code: number;
  output: string;
}

/** The environment without anything that decides colour, plus `env`. */
function envWith(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { NO_COLOR: _n, FORCE_COLOR: _f, CI: _c, TERM: _t, ...rest } = process.env;
  return { ...rest, TERM: 'xterm-256color', ...env };
}

/** Runs a shell command line; its stdout. */
function shell(command: string, env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile('bash', ['-c', command], { env: envWith(env), cwd: root }, (error, stdout) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: stdout });
    });
  });
}

/** Runs the CLI on a pseudo-terminal: stdout and stderr are a TTY. */
function onTerminal(args: string, env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return shell(`script -qec ${JSON.stringify(`${process.execPath} ${BIN} ${args}`)} /dev/null`, env);
}

function inPipe(args: string, env: NodeJS.ProcessEnv = {}): Promise<Run> {
  // stdout and stderr both into the pipe.
  return shell(`${process.execPath} ${BIN} ${args} 2>&1 | cat`, env);
}

describe('prompt-build --version', () => {
  it('prints the version from package.json', async () => {
    const { version } = JSON.parse(await fs.readFile(path.join(REPO, 'package.json'), 'utf8')) as { version: string };
    const run = await runCli(['--version']);
    expect(run).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });
});

describe('colour', () => {
  // A build error: its diagnostic is coloured when colour is on.
  const build = '--root . build --no-cache';

  it('is on for a terminal', async () => {
    const run = await onTerminal(build);
    expect(run.output).toContain('static-cwd');
    expect(run.output).toMatch(ANSI);
  });

  it('is off in a pipe', async () => {
    const run = await inPipe(build);
    expect(run.output).toContain('static-cwd');
    expect(run.output).not.toMatch(ANSI);
  });

  it('is off on a terminal with NO_COLOR, and NO_COLOR wins over FORCE_COLOR', async () => {
    expect((await onTerminal(build, { NO_COLOR: '1' })).output).not.toMatch(ANSI);
    expect((await onTerminal(build, { NO_COLOR: '1', FORCE_COLOR: '1' })).output).not.toMatch(ANSI);
  });

  it('is on in a pipe with FORCE_COLOR, and off on a terminal with FORCE_COLOR=0', async () => {
    expect((await inPipe(build, { FORCE_COLOR: '1' })).output).toMatch(ANSI);
    expect((await onTerminal(build, { FORCE_COLOR: '0' })).output).not.toMatch(ANSI);
  });

  it('follows --color and --no-color over everything else', async () => {
    expect((await inPipe(`${build} --color`, { NO_COLOR: '1' })).output).toMatch(ANSI);
    expect((await onTerminal(`${build} --no-color`, { FORCE_COLOR: '1' })).output).not.toMatch(ANSI);
  });
});

describe('a closed pipe', () => {
  it('ends `inspect | head -1` quietly: the first line, no EPIPE, exit 0', async () => {
    // A manifest with enough profiles that inspect's output outgrows the pipe's buffer.
    const bundle = path.join(root, 'big');
    await fs.mkdir(bundle, { recursive: true });
    const profile = { name: 'p', description: '', source: 'prompts/profiles/p.md', sections: [], boundaryIndex: 0, staticPrefixHash: '0'.repeat(64), staticTokens: 0 };
    const profiles = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`p${i}`, { ...profile, name: `p${i}` }]));
    await fs.writeFile(path.join(bundle, 'manifest.json'), JSON.stringify({ schemaVersion: 1, tool: { name: 'prompt-build', version: '0', handlebars: '4' }, profiles, agents: {}, sources: {} }));
    const run = await shell(`set -o pipefail; ${process.execPath} ${BIN} inspect big 2>&1 | head -1`);
    expect(run).toEqual({ code: 0, output: 'profile p0\n' });
  });
});

describe('"did you mean"', () => {
  it('a mistyped command or option gets the nearest names, exit 2', async () => {
    const command = await runCli(['biuld']);
    expect(command.code).toBe(2);
    expect(command.stderr).toMatch(/Unknown argument: biuld\nbiuld: did you mean 'build', .*\? \(\d+ commands known\)\n$/);
    const option = await runCli(['inspect', '--jsn']);
    expect(option.code).toBe(2);
    expect(option.stderr).toMatch(/--jsn: did you mean '--json', .*\? \(\d+ options known\)\n$/);
  });

  it('an unknown section in a profile gets the three nearest of the known sections and their count, not the whole list', async () => {
    const sections = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`prompts/sections/topic-${i}.md`, `Topic ${i}.\n`]));
    const dir = await tempDir('pb-manners-near-');
    await writeTree(dir, { ...sections, 'prompts/sections/env-info.md': 'Env.\n', 'prompts/profiles/default.md': '---\ncacheWarning: false\nsections: [env_inf]\n---\n' });
    const run = await runCli(['build', '--root', dir, '--no-cache', '--reporter', 'json']);
    expect(run.code).toBe(1);
    const [diagnostic] = JSON.parse(run.stdout).diagnostics;
    expect(diagnostic).toMatchObject({ rule: 'profile/unknown-section', note: "did you mean 'env-info', 'topic-0' or 'topic-1'? (41 sections known)" });
    await fs.rm(dir, { recursive: true, force: true });
  });
});
