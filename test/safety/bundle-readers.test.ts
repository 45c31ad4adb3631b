/**
 * A bundle is data from a stranger: `dist/` comes from a pull request as
 * much as the sources do. Every command that reads one (`report`, `diff`,
 * `inspect`, `check`, `render`) and the runtime's loader read its files as
 * regular files inside it — no link at any component, no FIFO or device —
 * and check each against the manifest's hash, templates and maps included;
 * a file named by an option is a regular file too; a manifest is checked
 * whole before a command uses it; and names that are also
 * `Object.prototype` keys are names like any other. Real trees, real links
 * and FIFOs, the built CLI.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundle } from '../../compiler/runtime/index.js';
import { runCli, runCliInProcess, type CliRun } from '../helpers/cli.js';
import { REPO, tempDir, writeTree, CLI_BIN } from '../helpers/tree.js';

const TREE: Record<string, string> = {
  'prompts/sections/intro.md': 'You are a coding agent.\n@../fragments/rules.md\nEnd of intro.\n',
  'prompts/fragments/rules.md': 'Rule one.\nRule two.\n',
  'prompts/sections/env-info.md': '---\nkind: dynamic\ninputs: [cwd]\n---\nWorking directory: {{cwd}}\n',
  'prompts/profiles/default.md': '---\ndescription: The full prompt.\ncacheWarning: false\nsections: [intro, env-info]\n---\n',
  'agents/helper.md': '---\nname: helper\ndescription: Helps.\ntools: Read, Grep\n---\nYou help.\n',
};

/** The same project with a profile and an agent whose names every object inherits. */
const PROTO_TREE: Record<string, string> = {
  ...TREE,
  'prompts/profiles/constructor.md': '---\ndescription: Named like a prototype key.\ncacheWarning: false\nsections: [intro]\n---\n',
  'agents/to-string.md': '---\nname: toString\ndescription: Named like a prototype key.\ntools: Read\n---\nYou convert.\n',
};

const SECRET = 'SECRET-TOKEN-3f1c9e';

let work: string;
let root: string;
let dist: string;
let manifest: Manifest;

interface Entry {
  name: string;
  file: string;
  template?: string;
  map?: string;
}
interface Manifest {
  profiles: Record<string, { sections: Entry[]; description: unknown; source: unknown }>;
  agents: Record<string, Entry & { tools: unknown }>;
}

/** The tree built by the CLI's own code in this process: the build is setup, the readers are under test. */
async function built(files: Record<string, string>, name: string): Promise<string> {
  const dir = path.join(work, name);
  await writeTree(dir, files);
  const run = await runCliInProcess(['build', '--root', dir, '--no-cache']);
  if (run.code !== 0) throw new Error(`build failed: ${run.stderr}`);
  return dir;
}

/** A fresh copy of the built bundle to tamper with. */
async function copyOfDist(): Promise<string> {
  const copy = await fs.mkdtemp(path.join(work, 'dist-'));
  await fs.cp(dist, copy, { recursive: true });
  return copy;
}

const section = (name: string): Entry => manifest.profiles.default!.sections.find((s) => s.name === name)!;

/** No TypeError, no stack frame: a bundle's problem is one message. */
function expectNoStack(run: CliRun): void {
  expect(run.stderr).not.toMatch(/TypeError|\n\s+at /);
}

/**
 * Runs the CLI where a FIFO may block it: polls for its exit until a
 * deadline, then kills it. `exited` false means it hung.
 */
async function runWithDeadline(args: readonly string[], cwd = REPO, deadlineMs = 15_000): Promise<CliRun & { exited: boolean }> {
  const child = spawn(process.execPath, [CLI_BIN, ...args], { cwd, env: { ...process.env, NO_COLOR: '1' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  let code: number | null = null;
  child.on('exit', (c) => (code = c ?? 1));
  const end = Date.now() + deadlineMs;
  while (code === null && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
  if (code === null) {
    child.kill('SIGKILL');
    return { code: -1, stdout, stderr, exited: false };
  }
  // Let the pipes drain after the exit.
  await new Promise((r) => setTimeout(r, 20));
  return { code, stdout, stderr, exited: true };
}

const mkfifo = (file: string) => execFileSync('mkfifo', [file]);

beforeAll(async () => {
  work = await tempDir('pb-bundle-readers-');
  root = await built(TREE, 'project');
  dist = path.join(root, 'dist');
  manifest = JSON.parse(await fs.readFile(path.join(dist, 'manifest.json'), 'utf8')) as Manifest;
});

afterAll(async () => {
  await fs.rm(work, { recursive: true, force: true });
});

describe('a bundle is read as regular files inside it', () => {
  it('refuses a link inside the bundle even to the very bytes the manifest names (report)', async () => {
    const copy = await copyOfDist();
    const template = section('env-info').template!;
    // The same bytes outside the bundle: only the link check can refuse this.
    const outside = path.join(work, 'same-bytes.hbs');
    await fs.copyFile(path.join(copy, template), outside);
    await fs.rm(path.join(copy, template));
    await fs.symlink(outside, path.join(copy, template));
    const run = await runCli(['report', copy, '--out-file', '-']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${path.join(copy, template)} is a symbolic link; a bundle's files are read only as regular files`);
    expect(run.stdout).toBe('');
    expectNoStack(run);
  });

  it('refuses a folder of the bundle that is a link, whatever its files hold (diff)', async () => {
    const copy = await copyOfDist();
    const elsewhere = path.join(work, 'static-elsewhere');
    await fs.cp(path.join(copy, 'static'), elsewhere, { recursive: true });
    await fs.rm(path.join(copy, 'static'), { recursive: true });
    await fs.symlink(elsewhere, path.join(copy, 'static'));
    const run = await runCli(['diff', dist, copy]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${path.join(copy, section('intro').file)} is inside static/, a symbolic link`);
    expectNoStack(run);
  });

  it('puts nothing a link points at into the report: a template linked to a secret', async () => {
    const copy = await copyOfDist();
    const secret = path.join(work, 'environ');
    await fs.writeFile(secret, `GITHUB_TOKEN=${SECRET}\n`);
    const template = path.join(copy, section('env-info').template!);
    await fs.rm(template);
    await fs.symlink(secret, template);
    const run = await runCli(['report', copy, '--out-file', '-']);
    expect(run.code).toBe(2);
    expect(run.stdout + run.stderr).not.toContain(SECRET);
  });

  it('refuses a FIFO inside the bundle at once, naming it (report)', async () => {
    const copy = await copyOfDist();
    const agent = path.join(copy, manifest.agents.helper!.file);
    await fs.rm(agent);
    mkfifo(agent);
    const run = await runWithDeadline(['report', copy, '--out-file', '-']);
    expect(run.exited, 'report hung on a FIFO in the bundle').toBe(true);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${agent} is a FIFO (named pipe); only regular files are read`);
  });

  it('refuses a manifest.json that is a FIFO at once (inspect)', async () => {
    const copy = await copyOfDist();
    await fs.rm(path.join(copy, 'manifest.json'));
    mkfifo(path.join(copy, 'manifest.json'));
    const run = await runWithDeadline(['inspect', copy, '--root', root]);
    expect(run.exited, 'inspect hung on a FIFO manifest').toBe(true);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${path.join(copy, 'manifest.json')} is a FIFO (named pipe)`);
  });

  it('refuses a file of the bundle over the size limit before reading it (report)', async () => {
    const copy = await copyOfDist();
    const template = path.join(copy, section('env-info').template!);
    // Sparse: 257 MiB that take no disk and no time to make.
    await fs.truncate(template, 257 * 1024 * 1024);
    const run = await runCli(['report', copy, '--out-file', '-']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${template} is ${257 * 1024 * 1024} bytes, over the ${256 * 1024 * 1024}-byte limit`);
  });

  it('the check gate fails at once on a dist/manifest.json that is a FIFO', async () => {
    const project = await fs.mkdtemp(path.join(work, 'project-'));
    await fs.cp(root, project, { recursive: true });
    await fs.rm(path.join(project, 'dist/manifest.json'));
    mkfifo(path.join(project, 'dist/manifest.json'));
    const run = await runWithDeadline(['check', '--root', project, '--no-cache']);
    expect(run.exited, 'check hung on a FIFO manifest').toBe(true);
    expect(run.code).toBe(1);
    // In the manifest's place, not read: a changed file (a FIFO is no file of a bundle).
    expect(run.stderr).toContain('changed  dist/manifest.json');
  });

  it('checks a template against the manifest before showing it (report)', async () => {
    const copy = await copyOfDist();
    const template = section('env-info').template!;
    await fs.appendFile(path.join(copy, template), `{{${SECRET}}}`);
    const run = await runCli(['report', copy, '--out-file', '-']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${path.join(copy, template)} does not match the manifest`);
    expect(run.stdout).not.toContain(SECRET);
  });

  it('refuses a template the manifest gives no hash (a bundle from before templates were hashed), with a rebuild hint', async () => {
    const copy = await copyOfDist();
    const crafted = structuredClone(manifest) as unknown as { profiles: { default: { sections: Record<string, unknown>[] } } };
    for (const s of crafted.profiles.default.sections) delete s.templateHash;
    await fs.writeFile(path.join(copy, 'manifest.json'), JSON.stringify(crafted));
    const run = await runCli(['report', copy, '--out-file', '-']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${path.join(copy, section('env-info').template!)} has no hash in the manifest (built by an older prompt-build), so it cannot be checked; rebuild the bundle`);
    expectNoStack(run);
  });

  it('checks a source map against the manifest before using it (report)', async () => {
    const copy = await copyOfDist();
    const map = section('intro').map!;
    expect(map).toBeDefined();
    const file = path.join(copy, map);
    // Still a valid map, pointing its lines elsewhere: only the hash tells.
    const edited = JSON.parse(await fs.readFile(file, 'utf8')) as { segments: { line: number }[] };
    edited.segments[0]!.line = 99;
    await fs.writeFile(file, JSON.stringify(edited, null, 2));
    const run = await runCli(['report', copy, '--out-file', '-']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file} does not match the manifest`);
  });

  it('the runtime loader refuses a link inside the bundle, even to the same bytes', async () => {
    const copy = await copyOfDist();
    const file = section('intro').file;
    const outside = path.join(work, 'same-bytes.md');
    await fs.copyFile(path.join(copy, file), outside);
    await fs.rm(path.join(copy, file));
    await fs.symlink(outside, path.join(copy, file));
    await expect(loadBundle(copy)).rejects.toThrow(`bundle ${copy}: ${file} is a symbolic link`);
  });

  it('the runtime loader refuses a FIFO inside the bundle without blocking', async () => {
    const copy = await copyOfDist();
    const file = manifest.agents.helper!.file;
    await fs.rm(path.join(copy, file));
    mkfifo(path.join(copy, file));
    await expect(loadBundle(copy)).rejects.toThrow(`bundle ${copy}: ${file} is a FIFO (named pipe)`);
  });
});

describe('the loader imports the bytes it verified', () => {
  it('a thunk swapped after its check never runs', async () => {
    const copy = await copyOfDist();
    const thunk = path.join(copy, section('env-info').file);
    // Its top level runs on import: the mark of code that ran unverified.
    const evil = 'globalThis.__pwned = true;\nexport default function create() { return () => "PWNED"; }\n';
    const dir = await fs.mkdtemp(path.join(work, 'hook-'));
    // A loader hook that plays the writer: the moment Node loads the thunk's file, it swaps the file's bytes.
    await fs.writeFile(
      path.join(dir, 'swap-hook.mjs'),
      `import fs from 'node:fs';\n` +
        `export async function load(url, context, next) {\n` +
        `  if (url === ${JSON.stringify(`file://${thunk}`)}) fs.writeFileSync(${JSON.stringify(thunk)}, ${JSON.stringify(evil)});\n` +
        `  return next(url, context);\n` +
        `}\n`,
    );
    await fs.writeFile(path.join(dir, 'register.mjs'), `import { register } from 'node:module';\nregister('./swap-hook.mjs', import.meta.url);\n`);
    await fs.writeFile(
      path.join(dir, 'load.mjs'),
      `const { loadBundle, getSystemPrompt, createSectionCache } = await import(${JSON.stringify(path.join(REPO, 'lib/runtime/index.js'))});\n` +
        `const bundle = await loadBundle(${JSON.stringify(copy)});\n` +
        `const prompt = await getSystemPrompt(bundle, { profile: 'default', context: { cwd: '/here' }, cache: createSectionCache() });\n` +
        `const loaded = { pwned: globalThis.__pwned === true, prompt };\n` +
        // The hook works: importing the file by its path now runs the swapped bytes.
        `await import(${JSON.stringify(`file://${thunk}`)});\n` +
        `console.log(JSON.stringify({ ...loaded, hookSwapped: globalThis.__pwned === true }));\n`,
    );
    const out = execFileSync(process.execPath, ['--import', path.join(dir, 'register.mjs'), path.join(dir, 'load.mjs')], { encoding: 'utf8' });
    const result = JSON.parse(out) as { pwned: boolean; prompt: string[]; hookSwapped: boolean };
    expect(result.hookSwapped).toBe(true);
    expect(result.pwned).toBe(false);
    expect(result.prompt).toContain('Working directory: /here');
  });
});

describe('a file named by an option or argument is a regular file', () => {
  let fifo: string;
  beforeAll(async () => {
    fifo = path.join(work, 'named.fifo');
    mkfifo(fifo);
  });

  it('render --context FIFO exits at once with a message', async () => {
    const run = await runWithDeadline(['render', '--root', root, '--context', fifo]);
    expect(run.exited, 'render hung on --context FIFO').toBe(true);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--context ${fifo}: is a FIFO (named pipe); only regular files are read`);
  });

  it('inspect --cache-facts FIFO exits at once with a message', async () => {
    const run = await runWithDeadline(['inspect', dist, '--root', root, '--cache-facts', fifo]);
    expect(run.exited, 'inspect hung on --cache-facts FIFO').toBe(true);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--cache-facts ${fifo}: is a FIFO (named pipe); only regular files are read`);
  });

  it('render --context /dev/zero is refused as a device, not read', async () => {
    const run = await runWithDeadline(['render', '--root', root, '--context', '/dev/zero']);
    expect(run.exited, 'render read /dev/zero').toBe(true);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--context /dev/zero: is a character device; only regular files are read');
  });

  it('a --context file over the size limit is refused before it is read', async () => {
    // Sparse: 65 MiB that take no disk and no time to make.
    const big = path.join(work, 'big-context.json');
    await fs.writeFile(big, '');
    await fs.truncate(big, 65 * 1024 * 1024);
    const run = await runCli(['render', '--root', root, '--context', big]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`--context ${big}: is ${65 * 1024 * 1024} bytes, over the ${64 * 1024 * 1024}-byte limit`);
  });

  it('report OLD NEW with a FIFO for OLD exits at once with a message', async () => {
    const run = await runWithDeadline(['report', fifo, dist, '--out-file', '-']);
    expect(run.exited, 'report hung on a FIFO argument').toBe(true);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${fifo} is a FIFO (named pipe); only regular files are read`);
  });
});

describe('a manifest is checked whole before a command uses it', () => {
  const cases: Array<[string, (m: Manifest) => void, string]> = [
    ['tools: "Read"', (m) => void (m.agents.helper!.tools = 'Read'), 'agent helper: tools is not a list of strings'],
    ['a numeric description', (m) => void (m.profiles.default!.description = 5), 'profile default: description is not a string'],
    ['source: null', (m) => void (m.profiles.default!.sections[0]!.source = null as never), 'profile default, section 0: source is not a string'],
  ];
  for (const [what, edit, message] of cases) {
    it(`${what}: inspect and report say which field, without a TypeError`, async () => {
      const copy = await copyOfDist();
      const crafted = structuredClone(manifest);
      edit(crafted);
      await fs.writeFile(path.join(copy, 'manifest.json'), JSON.stringify(crafted));
      for (const args of [['inspect', copy, '--root', root], ['report', copy, '--out-file', '-']]) {
        const run = await runCli(args);
        expect(run.code, `${args[0]}: ${run.stderr}`).toBe(2);
        expect(run.stderr).toContain(message);
        expectNoStack(run);
      }
    });
  }
});

describe('a message listing several problems', () => {
  it('keeps its own line breaks on a terminal (no literal \\n), each problem on a line', async () => {
    const copy = await copyOfDist();
    const crafted = structuredClone(manifest);
    crafted.agents.helper!.tools = 'Read' as never;
    crafted.profiles.default!.description = 5 as never;
    await fs.writeFile(path.join(copy, 'manifest.json'), JSON.stringify(crafted));
    const run = await runCli(['inspect', copy, '--root', root]);
    expect(run.code).toBe(2);
    expect(run.stderr).not.toContain('\\n');
    const lines = run.stderr.split('\n');
    const tools = lines.findIndex((line) => line.includes('agent helper: tools is not a list of strings'));
    const description = lines.findIndex((line) => line.includes('profile default: description is not a string'));
    expect(tools).toBeGreaterThanOrEqual(0);
    expect(description).toBeGreaterThanOrEqual(0);
    expect(tools).not.toBe(description);
  });
});

describe('names that are Object.prototype keys are names like any other', () => {
  let protoRoot: string;
  beforeAll(async () => {
    protoRoot = await built(PROTO_TREE, 'proto');
  });

  it('diff: a profile named constructor is added, an agent named toString is added', async () => {
    const json = await runCli(['diff', dist, path.join(protoRoot, 'dist'), '--format', 'json']);
    expect(json.code, json.stderr).toBe(0);
    const diff = JSON.parse(json.stdout) as { profiles: { name: string; status: string }[]; agents: { name: string; status: string }[] };
    expect(diff.profiles.find((p) => p.name === 'constructor')?.status).toBe('added');
    expect(diff.agents.find((a) => a.name === 'toString')?.status).toBe('added');
    const back = await runCli(['diff', path.join(protoRoot, 'dist'), dist]);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).toContain('profile constructor: removed');
    expect(back.stdout).toContain('agent toString: removed');
  });

  it('diff and report: a crafted manifest whose profile is named __proto__ (JSON keeps it as a key)', async () => {
    const copy = await copyOfDist();
    const file = path.join(copy, 'manifest.json');
    // Edited as text: an assignment to __proto__ in JavaScript would set a prototype, not a key.
    const text = (await fs.readFile(file, 'utf8')).replace('"default": {', '"__proto__": {').replace('"name": "default"', '"name": "__proto__"');
    await fs.writeFile(file, text);
    const json = await runCli(['diff', dist, copy, '--format', 'json']);
    expect(json.code, json.stderr).toBe(0);
    const diff = JSON.parse(json.stdout) as { profiles: { name: string; status: string }[] };
    expect(diff.profiles.map((p) => [p.name, p.status])).toEqual([
      ['__proto__', 'added'],
      ['default', 'removed'],
    ]);
    const report = await runCli(['report', dist, copy, '--out-file', '-']);
    expect(report.code, report.stderr).toBe(0);
    expectNoStack(report);
  });

  it('report OLD NEW: a profile named constructor on one side only', async () => {
    const run = await runCli(['report', dist, path.join(protoRoot, 'dist'), '--out-file', '-']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Named like a prototype key.');
    expectNoStack(run);
  });

  it('the check gate: a baseline without the profile named constructor', async () => {
    const run = await runCli(['check', '--root', protoRoot, '--no-cache', '--allow-static-prefix-change', 'default', '--baseline', dist]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('check passed: 2 profiles, 2 agents');
  });
});
