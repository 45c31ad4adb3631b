/**
 * `prompt-build report` as a command: where it writes (the named file and
 * nothing else; its default never over a file that is not a report), what
 * it refuses, and what the page holds — escaped text, a strict CSP naming
 * its one script, costs from the cache facts — byte-identical every time.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { amount } from '../../compiler/report/numbers.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tree.js';
import { builtTree, HOSTILE_IMG, TREE } from './tree.js';

let root: string;
let dist: string;
let work: string;

beforeAll(async () => {
  root = await builtTree();
  dist = path.join(root, 'dist');
  work = await tempDir('pb-report-cwd-');
});

afterAll(async () => {
  await fs.rm(root, { recursive: true, force: true });
  await fs.rm(work, { recursive: true, force: true });
});

const listing = async (dir: string) => (await fs.readdir(dir, { recursive: true })).sort();

describe('prompt-build report: where it writes', () => {
  it('writes the --out-file it is given, and nothing else', async () => {
    const before = { work: await listing(work), root: await listing(root) };
    const run = await runCli(['report', dist, '--out-file', 'named.html'], { cwd: work });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^wrote named\.html \(\d+ KB\): 2 profiles, 4 sections, 1 agent\n$/);
    expect(await listing(work)).toEqual([...before.work, 'named.html'].sort());
    expect(await listing(root)).toEqual(before.root);
  });

  it('defaults to prompt-build-report.html here, which it replaces when it is a report, and only then', async () => {
    const dir = await tempDir('pb-report-default-');
    const first = await runCli(['report', dist], { cwd: dir });
    expect(first.code, first.stderr).toBe(0);
    expect(await listing(dir)).toEqual(['prompt-build-report.html']);
    expect((await runCli(['report', dist], { cwd: dir })).code).toBe(0);
    await fs.writeFile(path.join(dir, 'prompt-build-report.html'), '<p>my own notes</p>');
    const refused = await runCli(['report', dist], { cwd: dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('prompt-build-report.html exists and is not a prompt-build report; it is left as it is');
    expect(await fs.readFile(path.join(dir, 'prompt-build-report.html'), 'utf8')).toBe('<p>my own notes</p>');
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('replaces a named --out-file only when it is a report too, and never through a link or into a FIFO', async () => {
    const dir = await tempDir('pb-report-named-');
    const named = path.join(dir, 'notes.html');
    await fs.writeFile(named, '<p>my own notes</p>');
    const refused = await runCli(['report', dist, '--out-file', named], { cwd: dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('notes.html exists and is not a prompt-build report; it is left as it is');
    expect(await fs.readFile(named, 'utf8')).toBe('<p>my own notes</p>');

    const report = path.join(dir, 'report.html');
    expect((await runCli(['report', dist, '--out-file', report], { cwd: dir })).code).toBe(0);
    expect((await runCli(['report', dist, '--out-file', report], { cwd: dir })).code).toBe(0);

    const link = path.join(dir, 'link.html');
    await fs.symlink(report, link);
    const linked = await runCli(['report', dist, '--out-file', link], { cwd: dir });
    expect(linked.code).toBe(2);
    expect(linked.stderr).toContain('link.html is a symbolic link');

    const fifo = path.join(dir, 'fifo.html');
    execFileSync('mkfifo', [fifo]);
    const piped = await runCli(['report', dist, '--out-file', fifo], { cwd: dir });
    expect(piped.code).toBe(2);
    expect(piped.stderr).toContain('fifo.html is not a regular file');
    expect((await fs.readdir(dir)).sort()).toEqual(['fifo.html', 'link.html', 'notes.html', 'report.html']);
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('reads the out directory when no bundle is named, and prints to stdout for --out-file -', async () => {
    const run = await runCli(['report', '--root', root, '--out-file', '-'], { cwd: work });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.startsWith('<!doctype html>\n<!-- prompt-build report -->\n')).toBe(true);
    expect(run.stdout).toContain('bundle <code>');
  });

  it('refuses a directory as --out-file, more than two bundles, and a missing bundle, with exit 2', async () => {
    const dir = await runCli(['report', dist, '--out-file', work]);
    expect(dir.code).toBe(2);
    expect(dir.stderr).toContain('is a directory');
    const three = await runCli(['report', dist, dist, dist, '--out-file', '-']);
    expect(three.code).toBe(2);
    expect(three.stderr).toContain('at most two bundles');
    const missing = await runCli(['report', path.join(root, 'nowhere'), '--out-file', '-']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no bundle at');
  });

  it('refuses a manifest that names a file outside the bundle, or an artifact that does not match it', async () => {
    const copy = await tempDir('pb-report-tampered-');
    await fs.cp(dist, copy, { recursive: true });
    const manifestFile = path.join(copy, 'manifest.json');
    const manifest = JSON.parse(await fs.readFile(manifestFile, 'utf8'));
    const original = JSON.stringify(manifest);
    manifest.profiles.default.sections.find((s: { name: string }) => s.name === 'env-info').template = '../../etc/passwd';
    await fs.writeFile(manifestFile, JSON.stringify(manifest));
    const outside = await runCli(['report', copy, '--out-file', '-']);
    expect(outside.code).toBe(2);
    expect(outside.stderr).toContain('template "../../etc/passwd" is not a relative path inside the bundle');
    await fs.writeFile(manifestFile, original);
    const intro = JSON.parse(original).profiles.default.sections[0].file;
    await fs.appendFile(path.join(copy, intro), 'edited');
    const edited = await runCli(['report', copy, '--out-file', '-']);
    expect(edited.code).toBe(2);
    expect(edited.stderr).toContain(`${intro} does not match the manifest`);
    await fs.rm(copy, { recursive: true, force: true });
  });
});

describe('prompt-build report: the page', () => {
  let html: string;
  beforeAll(async () => {
    const run = await runCli(['report', dist, '--out-file', '-']);
    expect(run.code, run.stderr).toBe(0);
    html = run.stdout;
  });

  it('is the same bytes for the same bundle', async () => {
    expect((await runCli(['report', dist, '--out-file', '-'])).stdout).toBe(html);
  });

  it('has a strict Content-Security-Policy that allows its one inline script by hash, and loads nothing', () => {
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)![1]!;
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(scripts).toHaveLength(1);
    const hash = createHash('sha256').update(scripts[0]!).digest('base64');
    expect(csp.split('; ')).toEqual(["default-src 'none'", "style-src 'unsafe-inline'", `script-src 'sha256-${hash}'`, "img-src 'none'", "base-uri 'none'", "form-action 'none'"]);
    expect(html).not.toMatch(/\s(src|href)="(?!#)/);
  });

  it('escapes every string from the sources', () => {
    expect(html).not.toContain(HOSTILE_IMG);
    expect(html).not.toContain('<script>window');
    expect(html).toContain('Text with &lt;/script&gt;&lt;script&gt;window.__pwned = 1&lt;/script&gt;');
    expect(html).toContain('The full prompt &lt;img src=x onerror=&quot;window.__pwned = 2&quot;&gt;');
  });

  it('shows dynamic sections with their template, inputs and, when uncached, the reason', () => {
    expect(html).toContain('<span class="ln" data-line="5">Working directory: {{cwd}}</span>');
    expect(html).toContain('template rendered per request from inputs: <code>cwd</code>');
    expect(html).toContain('<code>servers</code> (optional) · <span class="warn">uncached</span>: servers come and go');
  });

  it('lists agents with tools, model and size', () => {
    expect(html).toMatch(/<tr><td><a href="#a-0">helper<\/a><\/td><td>Read, Grep<\/td><td>haiku<\/td><td class="n">3<\/td>/);
  });
});

describe('prompt-build report: costs from the cache facts', () => {
  it('prices cold and warm requests per model, and says when a prefix is too short or a model unknown', async () => {
    // About 1,200 tokens of prose in the static prefix, above Claude Sonnet 4.5's 1,024-token minimum.
    const big = await builtTree({ ...TREE, 'prompts/sections/hostile.md': `${'The quick brown fox jumps over the lazy dog. '.repeat(120)}\n`, 'prompts/sections/intro.md': 'Intro line for the prefix, 36 bytes\n' });
    const manifest = JSON.parse(await fs.readFile(path.join(big, 'dist/manifest.json'), 'utf8')) as { profiles: Record<string, { staticTokens: number }> };
    const prefix = manifest.profiles.default!.staticTokens;
    expect(prefix).toBeGreaterThan(1024);
    const run = await runCli(['report', path.join(big, 'dist'), '--out-file', '-', '--model', 'claude-sonnet-4-5', '--model', 'mystery-1']);
    expect(run.code, run.stderr).toBe(0);
    const card = /<article class="profile" id="p-0" data-profile="default">[\s\S]*?<\/article>/.exec(run.stdout)![0];
    expect(card).toContain(`static prefix ~${prefix.toLocaleString('en-US')} tokens in 2 sections`);
    const dynamic = Number(/dynamic tail ~(\d+) tokens/.exec(card)![1]);
    const row = /<tr><td>claude-sonnet-4-5<\/td>(.*?)<\/tr>/.exec(card)![1]!;
    const cells = [...row.matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((m) => m[1]);
    const [cold, warm] = [prefix * 1.25 + dynamic, prefix * 0.1 + dynamic];
    expect(cells).toEqual(['1,024', '<span class="ok">yes</span>', amount(cold), amount(warm), amount((prefix + dynamic - warm) * 1000)]); // saved against sending the prefix uncached
    expect(card).toContain('<tr><td>mystery-1</td><td colspan="5" class="warn">no cache facts known for this model</td></tr>');
    const simple = /data-profile="simple">[\s\S]*?<\/article>/.exec(run.stdout)![0];
    const intro = (manifest.profiles.simple as unknown as { staticTokens: number }).staticTokens;
    expect(simple).toContain(`<span class="warn">no — ${(1024 - intro).toLocaleString('en-US')} tokens short</span>`);
    await fs.rm(big, { recursive: true, force: true });
  });
});
