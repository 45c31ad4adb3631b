/**
 * `watch --serve` meets what any web page can make a browser send it, and
 * what a local process can send it by hand: raw sockets on 127.0.0.1 to a
 * real watch process. No request takes the watch down (it still answers and
 * still rebuilds after all of them), a foreign Host or Origin is refused,
 * and the server holds a bounded number of sockets.
 */
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEADERS_TIMEOUT_MS, MAX_CONNECTIONS, startPreviewServer } from '../../compiler/cli/serve/preview-server.js';
import { tempDir, writeTree } from '../helpers/tree.js';
import { WatchProcess } from '../watch/watch-process.js';

let root: string;
let watcher: WatchProcess;
let port: number;
let exited = false;

beforeAll(async () => {
  root = await tempDir('pb-serve-req-');
  await writeTree(root, {
    'prompts/sections/intro.md': 'You are a coding agent.\n',
    'prompts/profiles/default.md': '---\ncacheWarning: false\nsections: [intro]\n---\n',
  });
  watcher = new WatchProcess(root, ['--no-cache', '--serve', '--port', '0']);
  void watcher.exitCode().then(() => (exited = true));
  port = Number(/:(\d+)\/$/.exec(await watcher.waitFor(/^serving the report on /))![1]);
  await watcher.waitFor(/^built /);
});

afterAll(async () => {
  await watcher?.stop();
  if (root) await fs.rm(root, { recursive: true, force: true });
});

/** Sends `bytes` on a fresh socket and gives back everything the server sent before closing it. */
function exchange(bytes: string | Buffer, timeoutMs = 10_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no end of answer to ${JSON.stringify(String(bytes).slice(0, 80))}; got ${JSON.stringify(Buffer.concat(chunks).toString('latin1').slice(0, 200))}`));
    }, timeoutMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    // The server may close while a long request is still being written: what it answered is what counts.
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('latin1'));
    });
    socket.end(bytes);
  });
}

/** The status code of the answer to a request with this request line and these headers. */
async function status(requestLine: string, headers: Record<string, string> = { host: `127.0.0.1:${port}` }): Promise<number | null> {
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  const answer = await exchange(`${requestLine}\r\n${lines.join('')}connection: close\r\n\r\n`);
  const code = /^HTTP\/1\.1 (\d{3}) /.exec(answer)?.[1];
  return code === undefined ? null : Number(code);
}

const host = () => ({ host: `127.0.0.1:${port}` });

async function stillServing(): Promise<void> {
  expect(exited).toBe(false);
  expect(await status('GET / HTTP/1.1')).toBe(200);
}

describe('watch --serve: no request takes the watch down', () => {
  it('answers targets that are not URLs to parse with 4xx, and the watch goes on', async () => {
    expect(await status('GET // HTTP/1.1')).toBe(404);
    expect(await status('GET //evil.example/x HTTP/1.1')).toBe(404);
    expect(await status('GET /% HTTP/1.1')).toBe(404);
    expect(await status('GET /%zz%ff?%% HTTP/1.1')).toBe(404);
    expect(await status('GET * HTTP/1.1')).toBe(400);
    expect(await status('GET http://evil.example/ HTTP/1.1')).toBe(400);
    expect(await status('GET http:// HTTP/1.1')).toBe(400);
    expect(await status('GET ftp://127.0.0.1/ HTTP/1.1')).toBe(400);
    await stillServing();
  });

  it('reads the absolute form only on its own loopback authority', async () => {
    expect(await status(`GET http://127.0.0.1:${port}/ HTTP/1.1`)).toBe(200);
    expect(await status(`GET http://localhost:${port}/events?x HTTP/1.1`)).toBe(200);
    expect(await status(`GET http://127.0.0.1:${port + 1}/ HTTP/1.1`)).toBe(400);
    await stillServing();
  });

  it('survives malformed request lines, bad bytes and huge headers', async () => {
    const answers = [
      await exchange('GARBAGE\r\n\r\n'),
      await exchange('GET / HTTP/9.9\r\n\r\n'),
      await exchange(Buffer.from([0x47, 0x45, 0x54, 0x20, 0x2f, 0x00, 0xff, 0x20, 0x48, 0x54, 0x54, 0x50, 0x2f, 0x31, 0x2e, 0x31, 0x0d, 0x0a, 0x0d, 0x0a])),
      await exchange(`GET / HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nx-big: ${'a'.repeat(200_000)}\r\n\r\n`),
      await exchange(`GET / HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n${'x-many: 1\r\n'.repeat(5_000)}\r\n`),
      await exchange(`GET / HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-length: -1\r\n\r\n`),
      await exchange(''),
    ];
    answers.forEach((answer, i) => expect(answer === '' || /^HTTP\/1\.1 4\d\d /.test(answer), `${i}: ${answer.slice(0, 80)}`).toBe(true));
    expect(answers[0]).toMatch(/^HTTP\/1\.1 400 /);
    expect(answers[3]).toMatch(/^HTTP\/1\.1 431 /);
    // A GET with a broken chunked body is answered (the body is never read), then the socket is dropped.
    expect(await exchange(`GET / HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n`)).toMatch(/^HTTP\/1\.1 (200|400) /);
    await stillServing();
  });

  it('still rebuilds after all of it', async () => {
    const from = watcher.lines.length;
    await fs.writeFile(path.join(root, 'prompts/sections/intro.md'), 'You are a careful coding agent.\n');
    await watcher.waitFor(/^rebuilt in /, from);
    expect(watcher.lines.join('\n')).not.toMatch(/internal error|Invalid URL/);
  });
});

describe('the preview server: an error while answering', () => {
  it('is that request\'s 500, and the next request is answered', async () => {
    let fail = true;
    const server = await startPreviewServer(0, () => {
      if (fail) throw new Error('a bug while rendering the page');
      return '<!doctype html><html><head></head><body>ok</body></html>';
    });
    const own = Number(new URL(server.url).port);
    const get = async () => {
      const answer = await new Promise<string>((resolve) => {
        const socket = net.connect(own, '127.0.0.1');
        let data = '';
        socket.on('data', (chunk) => (data += chunk.toString('latin1')));
        socket.on('error', () => {});
        socket.on('close', () => resolve(data));
        socket.end(`GET / HTTP/1.1\r\nhost: 127.0.0.1:${own}\r\nconnection: close\r\n\r\n`);
      });
      return /^HTTP\/1\.1 (\d{3}) /.exec(answer)?.[1];
    };
    try {
      expect(await get()).toBe('500');
      fail = false;
      expect(await get()).toBe('200');
    } finally {
      await server.close();
    }
  });
});

describe('watch --serve: only its own host and origin', () => {
  it('refuses a foreign Host (DNS rebinding) with 403', async () => {
    for (const name of ['evil.example', `evil.example:${port}`, `127.0.0.1:${port + 1}`, '127.0.0.1', `localhost.:${port}`, `127.0.0.2:${port}`, `[::2]:${port}`, `127.0.0.1:${port}@evil.example`, '']) {
      expect(await status('GET / HTTP/1.1', { host: name }), name).toBe(403);
    }
    // No Host at all (HTTP/1.0 lets a client leave it out).
    expect(Number(/^HTTP\/1\.1 (\d{3})/.exec(await exchange('GET / HTTP/1.0\r\n\r\n'))?.[1])).toBe(403);
    for (const name of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`]) {
      expect(await status('GET / HTTP/1.1', { host: name }), name).toBe(200);
    }
  });

  it('refuses a foreign Origin with 403, on the page and on the event stream', async () => {
    for (const origin of ['http://evil.example', `http://evil.example:${port}`, 'null', `https://127.0.0.1:${port}`, `http://127.0.0.1:${port + 1}`, `http://127.0.0.1:${port}.evil.example`]) {
      expect(await status('GET / HTTP/1.1', { ...host(), origin }), origin).toBe(403);
      expect(await status('GET /events HTTP/1.1', { ...host(), origin }), origin).toBe(403);
    }
    expect(await status('GET / HTTP/1.1', { ...host(), origin: `http://127.0.0.1:${port}` })).toBe(200);
    expect(await status('GET / HTTP/1.1', { ...host(), origin: `http://localhost:${port}` })).toBe(200);
  });
});

describe('watch --serve: a bounded number of sockets', () => {
  it(`holds at most ${MAX_CONNECTIONS} sockets, closes idle ones after the headers timeout, and answers afterwards`, async () => {
    const open = async () => {
      const socket = net.connect(port, '127.0.0.1');
      const state = { closed: false, data: '' };
      socket.on('error', () => {});
      socket.on('data', (chunk) => (state.data += chunk.toString('latin1')));
      socket.on('close', () => (state.closed = true));
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      return { socket, state };
    };
    const held = [];
    for (let i = 0; i < MAX_CONNECTIONS; i++) held.push(await open());
    const extra = [];
    for (let i = 0; i < 8; i++) extra.push(await open());
    // The extras are closed on arrival, long before the held sockets' headers timeout.
    await until(() => extra.every((s) => s.state.closed), HEADERS_TIMEOUT_MS / 2);
    expect(extra.every((s) => s.state.closed && s.state.data === '')).toBe(true);
    expect(held.some((s) => s.state.closed)).toBe(false);
    // A held socket is still served.
    held[0]!.socket.write(`GET / HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n\r\n`);
    await until(() => /^HTTP\/1\.1 200 /.test(held[0]!.state.data), 10_000);
    // Sockets that never send a request do not keep their slots.
    await until(() => held.slice(1).every((s) => s.state.closed), HEADERS_TIMEOUT_MS + 10_000);
    for (const s of [...held, ...extra]) s.socket.destroy();
    await stillServing();
  });
});

async function until(done: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`not done within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
