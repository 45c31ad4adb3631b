/**
 * Exact mode against an endpoint that lies, redirects, floods or echoes, on
 * a local server (127.0.0.1, started here; no test calls the network): no
 * answer that cannot be a count is used or kept, the cache is per endpoint,
 * and no message shows the key or a password.
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sha256 } from '../../compiler/core/hash.js';
import { fetchExactCounts, maxTextTokens } from '../../compiler/tokens/exact-counts.js';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeTree } from '../helpers/tree.js';

const MODEL = 'claude-sonnet-4-5';
const KEY = 'sk-ant-test-SECRET-KEY';

interface Seen {
  url: string;
  headers: http.IncomingHttpHeaders;
  system: string | undefined;
}

const servers: http.Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) s.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A server whose every answer `answer` writes; what it was asked is in `seen`. */
async function server(answer: (system: string | undefined, req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const s = http.createServer((req, res) => {
    let data = '';
    req.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
    req.on('end', () => {
      const system = data === '' ? undefined : (JSON.parse(data) as { system?: string }).system;
      seen.push({ url: req.url!, headers: req.headers, system });
      answer(system, req, res);
    });
  });
  servers.push(s);
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, seen };
}

const json = (res: http.ServerResponse, value: unknown, status = 200) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
};

/** The honest stub: 8 for the request, one per character of the system prompt. */
const honest = (system: string | undefined, _req: http.IncomingMessage, res: http.ServerResponse) => json(res, { input_tokens: 8 + [...(system ?? '')].length });

const TEXTS = ['You are careful.\n', 'Answer briefly.\n'];
const count = (url: string, extra: Partial<Parameters<typeof fetchExactCounts>[0]> = {}) =>
  fetchExactCounts({ models: [MODEL], texts: TEXTS, cacheDir: null, env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: url }, ...extra });

describe('answers that cannot be counts', () => {
  it('a negative overhead is refused, and nothing is cached: the next build, honest, counts for real', async () => {
    const cacheDir = await tempDir();
    const liar = await server((system, req, res) => json(res, { input_tokens: system === undefined ? -1e15 : 5 }));
    const first = await count(liar.url, { cacheDir });
    expect(first.problem).toBe('count_tokens answered input_tokens that cannot be a count here (-1000000000000000)');
    expect(first.counts.get(MODEL)!.size).toBe(0);
    const honestOne = await server(honest);
    const second = await count(honestOne.url, { cacheDir });
    expect(second.problem).toBeNull();
    expect([...second.counts.get(MODEL)!.values()]).toEqual(TEXTS.map((t) => [...t].length));
  });

  it.each([
    ['more tokens than the text has bytes', (system: string | undefined) => 8 + (system === undefined ? 0 : 10_000), 'count_tokens answered input_tokens that cannot be a count here (10008)'],
    ['fewer tokens for a text than for none', (system: string | undefined) => (system === undefined ? 50 : 3), 'count_tokens answered fewer tokens for a text than for none'],
    ['a fraction', (system: string | undefined) => (system === undefined ? 8 : 9.5), 'count_tokens answered input_tokens that cannot be a count here (9.5)'],
    ['a string', (system: string | undefined) => (system === undefined ? 8 : '12'), 'count_tokens answered input_tokens that cannot be a count here (string)'],
  ])('%s: refused, estimated instead', async (_what, tokens, problem) => {
    const { url } = await server((system, req, res) => json(res, { input_tokens: tokens(system) }));
    const result = await count(url);
    expect(result.problem).toBe(problem);
    expect(result.counts.get(MODEL)!.size).toBe(0);
  });

  it('a poisoned cache entry is not used: it is counted again', async () => {
    const cacheDir = await tempDir();
    const honestOne = await server(honest);
    const file = path.join(cacheDir, 'anthropic-token-counts.v2.json');
    const poison = { [honestOne.url]: { [MODEL]: { 'request-overhead': 8, [sha256(TEXTS[0]!)]: 1e15, [sha256(TEXTS[1]!)]: -3 } } };
    await fs.writeFile(file, JSON.stringify(poison));
    const result = await count(honestOne.url, { cacheDir });
    expect(result.problem).toBeNull();
    expect([...result.counts.get(MODEL)!.values()]).toEqual(TEXTS.map((t) => [...t].length));
    expect(honestOne.seen.map((r) => r.system)).toEqual(TEXTS); // the overhead came from the cache; the texts were asked again
    const kept = JSON.parse(await fs.readFile(file, 'utf8'));
    expect(kept[honestOne.url][MODEL][sha256(TEXTS[0]!)]).toBe([...TEXTS[0]!].length);
  });

  it('counts are kept per endpoint: one endpoint’s answers are not another’s', async () => {
    const cacheDir = await tempDir();
    const a = await server(honest);
    const b = await server(honest);
    await count(a.url, { cacheDir });
    await count(b.url, { cacheDir });
    expect(a.seen).toHaveLength(3);
    expect(b.seen).toHaveLength(3);
    await count(a.url, { cacheDir });
    expect(a.seen).toHaveLength(3); // its own counts, from the cache
  });

  it('the bound is the text’s UTF-8 length plus a little', () => {
    expect(maxTextTokens('abc')).toBe(3 + 64);
    expect(maxTextTokens('✓')).toBe(3 + 64);
  });
});

describe('credentials', () => {
  it('a key holding CR/LF is refused by name, never printed', async () => {
    const { url, seen } = await server(honest);
    const result = await count(url, { env: { ANTHROPIC_API_KEY: `${KEY}\r\nX-Injected: 1`, ANTHROPIC_BASE_URL: url } });
    expect(result.problem).toBe('ANTHROPIC_API_KEY holds characters a header cannot carry (a space or a line break?)');
    expect(result.problem).not.toContain('SECRET');
    expect(seen).toHaveLength(0);
  });

  it('a password in ANTHROPIC_BASE_URL is refused and never printed, through the CLI too', async () => {
    const { url, seen } = await server(honest);
    const withPassword = url.replace('http://', 'http://user:hunter2-SECRET@');
    const result = await count(withPassword);
    expect(result.problem).toBe(`ANTHROPIC_BASE_URL holds a user name or password (http://***@${new URL(url).host}); give the key in ANTHROPIC_API_KEY`);
    expect(seen).toHaveLength(0);
    const root = await tempDir();
    await writeTree(root, { 'prompts/profiles/default.md': '---\nsections: [intro]\n---\n', 'prompts/sections/intro.md': 'Hello.\n' });
    const run = await runCli(['build', '--root', root, '--exact-tokens', '--model', MODEL], { env: { ANTHROPIC_BASE_URL: withPassword, ANTHROPIC_API_KEY: `${KEY}\n` } });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('tokens/exact-unavailable');
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/SECRET/);
  });

  it('an endpoint echoing the key in its error does not get it printed', async () => {
    const { url } = await server((system, req, res) => json(res, { error: { message: `bad key ${req.headers['x-api-key']}` } }, 401));
    const result = await count(url);
    expect(result.problem).toBe('count_tokens answered 401: bad key [ANTHROPIC_API_KEY]');
  });

  it('a redirect to another origin is not followed, so the key stays here', async () => {
    const elsewhere = await server(honest);
    const redirecting = await server((system, req, res) => {
      res.writeHead(307, { location: `${elsewhere.url.replace('127.0.0.1', 'localhost')}/v1/messages/count_tokens` });
      res.end();
    });
    const result = await count(redirecting.url);
    expect(result.problem).toBe('count_tokens answered 307');
    expect(elsewhere.seen).toHaveLength(0);
  });
});

describe('the answer’s size', () => {
  it('a body over the cap is refused without being buffered whole', async () => {
    const { url } = await server((system, req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }); // no length: streamed
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let sent = 0;
      const more = () => {
        while (sent < 4096) {
          sent++;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end('{"input_tokens": 8}');
      };
      res.on('close', () => (sent = Infinity));
      more();
    });
    const result = await count(url, { timeoutMs: 20_000 });
    expect(result.problem).toBe('count_tokens answered more than 65536 bytes');
  });

  it('a declared length over the cap is refused before reading', async () => {
    const { url } = await server((system, req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024) });
      res.write('{');
    });
    const result = await count(url);
    expect(result.problem).toBe('count_tokens answered 10485760 bytes, over the 65536-byte limit');
  });
});

describe('the count cache as a checkout may bring it', () => {
  it('a FIFO at the cache’s name is not read (no hang): counted again, and the FIFO left alone', async () => {
    const { execFileSync } = await import('node:child_process');
    const cacheDir = await tempDir();
    execFileSync('mkfifo', [path.join(cacheDir, 'anthropic-token-counts.v2.json.fifo')]);
    await fs.rename(path.join(cacheDir, 'anthropic-token-counts.v2.json.fifo'), path.join(cacheDir, 'anthropic-token-counts.v2.json'));
    const { url, seen } = await server(honest);
    const result = await count(url, { cacheDir });
    expect(result.problem).toBeNull();
    expect(seen).toHaveLength(3);
  });

  it('a symlink at the temporary name is not written through', async () => {
    const cacheDir = await tempDir();
    const outside = path.join(await tempDir(), 'victim.txt');
    await fs.writeFile(outside, 'keep me\n');
    await fs.symlink(outside, path.join(cacheDir, `anthropic-token-counts.v2.json.${process.pid}.tmp`));
    const { url } = await server(honest);
    expect((await count(url, { cacheDir })).problem).toBeNull();
    expect(await fs.readFile(outside, 'utf8')).toBe('keep me\n');
    expect(Object.keys(JSON.parse(await fs.readFile(path.join(cacheDir, 'anthropic-token-counts.v2.json'), 'utf8')))).toEqual([url]);
  });
});
