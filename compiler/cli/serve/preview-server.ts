/**
 * The server behind `watch --serve`: the report page of the working tree on
 * loopback only (127.0.0.1, never another interface), and a server-sent
 * events stream that tells open pages to reload after each build. It
 * answers only GET for `/` and `/events`, and only to a Host header naming
 * loopback, so a web page elsewhere cannot read it through DNS rebinding.
 */
import http from 'node:http';

export const HOST = '127.0.0.1';

export interface PreviewServer {
  url: string;
  /** The page changed: the next request gets it, open pages are told to reload. */
  changed(): void;
  close(): Promise<void>;
}

/** `page()` is asked for the HTML on each request for `/`. */
export async function startPreviewServer(port: number, page: () => string): Promise<PreviewServer> {
  const streams = new Set<http.ServerResponse>();
  // Which build the page is of: a page loaded just before a build, whose event stream opened
  // just after it, would otherwise miss that build's reload (see LIVE_SCRIPT).
  let generation = 0;
  const server = http.createServer((request, response) => {
    if (!loopbackHost(request.headers.host)) return plain(response, 403, 'forbidden: this server answers only to 127.0.0.1 and localhost\n');
    if (request.method !== 'GET') return plain(response, 405, 'method not allowed\n');
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname === '/') {
      const html = page().replace('<head>', `<head><meta name="prompt-build-generation" content="${generation}">`);
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
      response.end(html);
      return;
    }
    if (url.pathname === '/events') {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
      response.write(`event: generation\ndata: ${generation}\n\n`);
      streams.add(response);
      request.on('close', () => streams.delete(response));
      return;
    }
    plain(response, 404, 'not found\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, HOST, () => resolve());
  });
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  return {
    url: `http://${HOST}:${bound}/`,
    changed() {
      generation++;
      for (const stream of streams) stream.write('event: reload\ndata: build\n\n');
    },
    async close() {
      for (const stream of streams) stream.end();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

function loopbackHost(host: string | undefined): boolean {
  if (host === undefined) return false;
  const name = host.replace(/:\d+$/, '');
  return name === '127.0.0.1' || name === 'localhost' || name === '[::1]';
}

function plain(response: http.ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  response.end(text);
}
