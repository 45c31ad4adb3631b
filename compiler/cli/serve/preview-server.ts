/**
 * The server behind `watch --serve`: the report page of the working tree on
 * loopback only (127.0.0.1, never another interface), and a server-sent
 * events stream that tells open pages to reload after each build. It
 * answers only GET for `/` and `/events`, only to a Host naming loopback
 * with its port and to no Origin but its own (request-guard.ts), so a web
 * page elsewhere can neither read it through DNS rebinding nor drive it.
 *
 * Any page can still make the browser send it requests (an `<img>`), so no
 * request may take the watch down: a request it cannot read is a 400, an
 * error while answering a 500, and it holds at most MAX_CONNECTIONS sockets
 * (more are closed on arrival), each given HEADERS_TIMEOUT_MS to send its
 * request.
 */
import http from 'node:http';
import { loopbackAuthority, ownOrigin, requestPath } from './request-guard.js';

export const HOST = '127.0.0.1';
/** Open sockets at once, event streams included: a few tabs need a handful each. */
export const MAX_CONNECTIONS = 32;
/** How long a socket may take to send its request's headers before it is closed (a slow sender holds a slot). */
export const HEADERS_TIMEOUT_MS = 10_000;

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
  let bound = port;
  const answer = (request: http.IncomingMessage, response: http.ServerResponse) => {
    if (!loopbackAuthority(request.headers.host, bound)) return plain(response, 403, 'forbidden: this server answers only to 127.0.0.1 and localhost on its own port\n');
    if (!ownOrigin(request.headers.origin, bound)) return plain(response, 403, 'forbidden: requests from another origin are refused\n');
    if (request.method !== 'GET') return plain(response, 405, 'method not allowed\n');
    const pathname = requestPath(request.url, bound);
    if (pathname === null) return plain(response, 400, 'bad request target\n');
    if (pathname === '/') {
      const html = page().replace('<head>', `<head><meta name="prompt-build-generation" content="${generation}">`);
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
      response.end(html);
      return;
    }
    if (pathname === '/events') {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
      response.write(`event: generation\ndata: ${generation}\n\n`);
      streams.add(response);
      request.on('close', () => streams.delete(response));
      return;
    }
    plain(response, 404, 'not found\n');
  };
  const server = http.createServer({ headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: HEADERS_TIMEOUT_MS, connectionsCheckingInterval: 1_000 }, (request, response) => {
    try {
      answer(request, response);
    } catch {
      // A bug answering one request is that request's 500, never the end of the watch.
      if (!response.headersSent) plain(response, 500, 'internal error\n');
      else response.destroy();
    }
  });
  server.maxConnections = MAX_CONNECTIONS;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, HOST, () => resolve());
  });
  // After listening, an error is one connection's (an accept refused for want of file descriptors):
  // the server keeps listening, and an unhandled 'error' event would end the process.
  server.on('error', () => {});
  const address = server.address();
  bound = typeof address === 'object' && address ? address.port : port;
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

function plain(response: http.ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' });
  response.end(text);
}
