/**
 * Exact mode (`--exact-tokens`) against a local stub of Anthropic's
 * count_tokens endpoint on 127.0.0.1 — no test calls the network. What is
 * checked: the request shape, that each text is counted once (the build
 * cache), and that an unreachable or silent endpoint costs a build little
 * time and one warning, never a failure.
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fetchExactCounts } from '../../compiler/tokens/exact-counts.js';
import { sha256 } from '../../compiler/core/hash.js';
import type { Manifest } from '../../compiler/runtime/manifest.js';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeTree } from '../helpers/tree.js';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: { model: string; system?: string; messages: unknown };
}

/** The stub's count: 8 for the request itself, plus one token per character of the system prompt. */
const OVERHEAD = 8;
const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function stub(answer: 'count' | 'silent' | 'refuse-texts' | 'slow' = 'count'): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
    req.on('end', () => {
      const body = JSON.parse(data) as Seen['body'];
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      if (answer === 'silent') return; // never answers
      if (answer === 'refuse-texts' && body.system !== undefined) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'system: too long for this stub' } }));
        return;
      }
      const reply = () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ input_tokens: OVERHEAD + [...(body.system ?? '')].length }));
      };
      if (answer === 'slow') setTimeout(reply, 100);
      else reply();
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

/** A port nothing listens on: one just closed. */
async function closedPort(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

const INTRO = 'You are a careful assistant.\n';
const RULES = 'Answer in English. ✓\n';

async function project(): Promise<string> {
  const root = await tempDir();
  await writeTree(root, {
    'prompts/profiles/default.md': '---\nsections: [intro, rules]\n---\n',
    'prompts/sections/intro.md': `---\nname: intro\n---\n${INTRO}`,
    'prompts/sections/rules.md': `---\nname: rules\n---\n${RULES}`,
  });
  return root;
}

const MODEL = 'claude-sonnet-4-5';
const COUNTER = `anthropic-count-tokens:${MODEL}`;
const build = (root: string, baseUrl: string, extra: string[] = []) =>
  runCli(['build', '--root', root, '--exact-tokens', '--model', MODEL, ...extra], { env: { ANTHROPIC_BASE_URL: baseUrl, ANTHROPIC_API_KEY: 'test-key' } });
const manifestOf = async (root: string) => JSON.parse(await fs.readFile(path.join(root, 'dist/manifest.json'), 'utf8')) as Manifest;

describe('exact Claude counts through count_tokens', () => {
  it('sends the Messages API count_tokens request: model, the text as system prompt, one user turn, key and version headers', async () => {
    const { url, seen } = await stub();
    const root = await project();
    const run = await build(root, url);
    expect(run.code, run.stderr).toBe(0);
    expect(seen.length).toBe(3); // the request's own overhead, then each text once
    for (const request of seen) {
      expect(request.method).toBe('POST');
      expect(request.url).toBe('/v1/messages/count_tokens');
      expect(request.headers['x-api-key']).toBe('test-key');
      expect(request.headers['anthropic-version']).toBe('2023-06-01');
      expect(request.headers['content-type']).toBe('application/json');
      expect(Object.keys(request.body).sort()).toEqual(request.body.system === undefined ? ['messages', 'model'] : ['messages', 'model', 'system']);
      expect(request.body.model).toBe(MODEL);
      expect(request.body.messages).toEqual([{ role: 'user', content: '.' }]);
    }
    expect(seen.map((r) => r.body.system ?? null).sort()).toEqual([INTRO, RULES, null].sort());
    const profile = (await manifestOf(root)).profiles.default!;
    // Each text's count is the request's count less the request's own.
    expect(profile.sections.map((s) => s.tokenCounts)).toEqual([
      { [COUNTER]: { tokens: [...INTRO].length, method: 'exact' } },
      { [COUNTER]: { tokens: [...RULES].length, method: 'exact' } },
    ]);
    expect(profile.staticTokenCounts).toEqual({ [COUNTER]: { tokens: [...INTRO].length + [...RULES].length, method: 'exact' } });
    // An exact count below the minimum is stated as such.
    expect(run.stderr).toMatch(/has a static prefix of 50 tokens, below the 1024-token minimum claude-sonnet-4-5 models cache \(exact, anthropic-count-tokens:claude-sonnet-4-5\): it is not cached/);
  });

  it('counts each text once: a rebuild asks only for the text that changed, by content hash and model', async () => {
    const { url, seen } = await stub();
    const root = await project();
    expect((await build(root, url)).code).toBe(0);
    expect(seen).toHaveLength(3);
    await writeTree(root, { 'prompts/sections/rules.md': '---\nname: rules\n---\nAnswer briefly.\n' });
    expect((await build(root, url, ['--no-cache'])).code).toBe(0); // no build cache: everything counted again
    expect(seen).toHaveLength(3 + 3);
    const before = seen.length;
    await writeTree(root, { 'prompts/sections/rules.md': '---\nname: rules\n---\nAnswer at length.\n' });
    expect((await build(root, url)).code).toBe(0);
    expect(seen.slice(before).map((r) => r.body.system)).toEqual(['Answer at length.\n']);
    const cache = JSON.parse(await fs.readFile(path.join(root, 'node_modules/.cache/prompt-build/anthropic-token-counts.v2.json'), 'utf8')) as Record<string, Record<string, Record<string, number>>>;
    expect(cache[url]![MODEL]![sha256(INTRO)]).toBe([...INTRO].length);
  });

  it('an unreachable endpoint: the build succeeds at once on estimates and says so in one warning', async () => {
    const root = await project();
    const started = performance.now();
    const run = await build(root, await closedPort());
    expect(run.code, run.stderr).toBe(0);
    expect(performance.now() - started).toBeLessThan(15_000); // a whole CLI process on a shared machine; the refused connection itself is immediate
    const warnings = run.stderr.split('\n').filter((l) => l.includes('tokens/exact-unavailable'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/exact Claude token counts unavailable \(fetch failed: connect ECONNREFUSED 127\.0\.0\.1:\d+\): estimates used instead/);
    const profile = (await manifestOf(root)).profiles.default!;
    expect(Object.keys(profile.sections[0]!.tokenCounts!)).toEqual(['claude-3-to-4-6-estimate']);
    expect(profile.sections[0]!.tokenCounts!['claude-3-to-4-6-estimate']!.method).toBe('estimate');
    expect(run.stderr).toMatch(/which may be below|below the 1024-token minimum.*may not be cached/);
  });

  it('a build that fell back is not taken as up to date: the next one, online, counts exactly', async () => {
    const root = await project();
    expect((await build(root, await closedPort())).stderr).toMatch(/tokens\/exact-unavailable/);
    const { url, seen } = await stub();
    const run = await build(root, url);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/tokens\/exact-unavailable/);
    expect(seen).toHaveLength(3);
    expect((await manifestOf(root)).profiles.default!.staticTokenCounts).toEqual({ [COUNTER]: { tokens: [...INTRO].length + [...RULES].length, method: 'exact' } });
  });

  it('no API key: estimates, and the warning names the variable', async () => {
    const root = await project();
    const run = await runCli(['build', '--root', root, '--exact-tokens', '--model', MODEL], { env: { ANTHROPIC_API_KEY: '', ANTHROPIC_BASE_URL: await closedPort() } });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/tokens\/exact-unavailable: exact Claude token counts unavailable \(ANTHROPIC_API_KEY is not set\)/);
  });

  it('a refused request stops the rest: at most one per concurrent request is sent after it, and none is recorded', async () => {
    const { url, seen } = await stub('refuse-texts');
    const texts = Array.from({ length: 20 }, (_, i) => `text ${i}\n`);
    const result = await fetchExactCounts({ models: [MODEL], texts, cacheDir: null, env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: url } });
    expect(result.problem).toBe('count_tokens answered 400: system: too long for this stub');
    expect(result.counts.get(MODEL)!.size).toBe(0);
    expect(seen.filter((r) => r.body.system !== undefined).length).toBeLessThanOrEqual(4);
  });

  it('a slow endpoint: what the build’s budget did not reach is estimated now and counted by the next build', async () => {
    const { url, seen } = await stub('slow');
    const cacheDir = await tempDir();
    const texts = Array.from({ length: 40 }, (_, i) => `text ${i}\n`);
    const request = { models: [MODEL], texts, cacheDir, env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: url } };
    const started = performance.now();
    const first = await fetchExactCounts({ ...request, budgetMs: 500 });
    expect(performance.now() - started).toBeLessThan(2_000);
    const counted = first.counts.get(MODEL)!.size;
    expect(counted).toBeGreaterThan(0);
    expect(counted).toBeLessThan(40);
    expect(first.problem).toBe(`${40 - counted} of 40 texts not counted within a build's 0.5 s for count_tokens; later builds count them`);
    const before = seen.length;
    const second = await fetchExactCounts(request);
    expect(second.problem).toBeNull();
    expect(second.counts.get(MODEL)!.size).toBe(40);
    expect(seen.length - before).toBe(40 - counted); // the overhead and the first texts came from the cache
  });

  it('an endpoint that never answers is given up after the timeout', async () => {
    const { url, seen } = await stub('silent');
    const started = performance.now();
    const result = await fetchExactCounts({ models: [MODEL], texts: [INTRO, RULES], cacheDir: null, env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: url }, timeoutMs: 200 });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(result.problem).toBe('count_tokens did not answer in time');
    expect(result.counts.get(MODEL)!.size).toBe(0);
    expect(seen).toHaveLength(1); // the overhead request only
  });
});
