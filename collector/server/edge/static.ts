import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { HttpError } from './http';

/** One folder served under a URL prefix. */
export interface Mount {
  /** URL prefix, with a trailing slash. */
  prefix: string;
  /** Absolute folder. */
  dir: string;
  /** Top-level entries never served (the admin app's page and the compiled collector inside `dist/`). */
  hidden?: readonly string[];
}

/**
 * The only file types served: anything else (sources, databases, configs) is not part of the site,
 * so a file dropped in the wrong folder is a 404 rather than a leak.
 */
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/** Sent with every page: the demo is framed only by itself, and leaks no full URL to other sites. */
const HTML_HEADERS = { 'x-frame-options': 'SAMEORIGIN', 'referrer-policy': 'strict-origin-when-cross-origin' };

/** Serve `pathname` (still percent-encoded) from the first mount whose prefix it starts with. */
export async function serveStatic(
  req: IncomingMessage,
  res: ServerResponse,
  pathname: string,
  query: string,
  mounts: readonly Mount[],
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') throw new HttpError(405, 'method not allowed', { allow: 'GET, HEAD' });
  let path: string;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    throw new HttpError(400, 'malformed path');
  }
  // an encoded `..` or `/` survives URL normalisation; refuse it before touching the disk
  if (path.includes('\0') || path.split(/[/\\]/).includes('..')) throw new HttpError(403, 'forbidden');
  const mount = mounts.find((m) => path.startsWith(m.prefix));
  if (!mount) throw new HttpError(404, 'not found');
  const relative = path.slice(mount.prefix.length);
  const segments = relative.split('/');
  if (segments.some((s) => s.startsWith('.')) || mount.hidden?.includes(segments[0]!)) throw new HttpError(404, 'not found');
  let file = resolve(mount.dir, relative);
  if (file !== mount.dir && !file.startsWith(mount.dir + sep)) throw new HttpError(403, 'forbidden');

  const info = await stat(file).catch(() => null);
  if (info?.isDirectory()) {
    if (!pathname.endsWith('/')) {
      res.writeHead(301, { location: `${pathname}/${query}` });
      res.end();
      return;
    }
    file = join(file, 'index.html');
  } else if (!info?.isFile()) throw new HttpError(404, 'not found');
  const type = TYPES[extname(file).toLowerCase()];
  const body = type ? await readFile(file).catch(() => null) : null;
  if (!type || !body) throw new HttpError(404, 'not found');
  res.writeHead(200, {
    'content-type': type,
    'content-length': body.length,
    // revalidated on every load: the bundle under dist/ is rebuilt while the server runs
    'cache-control': 'no-cache',
    ...(type.startsWith('text/html') ? HTML_HEADERS : {}),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}
