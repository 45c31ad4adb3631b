/**
 * What the preview server asks of a request before answering it: a Host
 * naming loopback with the served port (a DNS-rebound name is refused), no
 * Origin but its own (another site's page is refused), and a target it can
 * read without throwing — the origin form `/path?query`, or the absolute
 * form naming the same loopback host. Pure functions of the request's
 * strings: nothing here can throw.
 */

const LOOPBACK_NAMES: ReadonlySet<string> = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** `host[:port]` names loopback and, when a port is written, the served one (none written means 80). */
export function loopbackAuthority(authority: string | undefined, port: number): boolean {
  if (authority === undefined) return false;
  const match = /^(\[::1\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(authority.toLowerCase());
  if (!match) return false;
  const written = match[2] === undefined ? 80 : Number(match[2]);
  return LOOPBACK_NAMES.has(match[1]!) && written === port;
}

/** No Origin (a plain navigation or same-origin GET) or exactly this server's own. `null` is refused. */
export function ownOrigin(origin: string | undefined, port: number): boolean {
  if (origin === undefined) return true;
  const match = /^http:\/\/(.+)$/.exec(origin);
  return match !== null && loopbackAuthority(match[1], port);
}

/**
 * The path a request names, or null when its target is not one this server
 * reads: the origin form `/…` up to `?`, or an absolute `http://` URL on this
 * server's own loopback authority. `//` is a path like any other (it is not
 * found), never a URL to parse.
 */
export function requestPath(target: string | undefined, port: number): string | null {
  if (target === undefined) return null;
  if (target.startsWith('/')) return target.split('?', 1)[0]!;
  const absolute = /^http:\/\/([^/?#]*)(\/[^?#]*)?/i.exec(target);
  if (absolute && loopbackAuthority(absolute[1], port)) return absolute[2] ?? '/';
  return null;
}
