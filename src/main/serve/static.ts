/** Serves the built renderer (out/renderer) as static files, safely. */
import { createReadStream, existsSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
};

/**
 * The directory holding the built renderer: `explicit` if given, else the first of
 * `out/renderer` beside the bundle (out/node, out/main, out/serve), above the sources
 * (src/main/serve), or under the working directory, that has an index.html.
 */
export function findRendererDir(explicit?: string): string | null {
  const here = import.meta.dirname;
  const candidates = explicit
    ? [explicit]
    : [path.resolve(here, '../renderer'), path.resolve(here, '../../../out/renderer'), path.resolve(process.cwd(), 'out/renderer')];
  return candidates.find((d) => existsSync(path.join(d, 'index.html'))) ?? null;
}

/** Answers a GET/HEAD for a static file; returns false when no file matches. */
export function serveStatic(root: string, pathname: string, req: IncomingMessage, res: ServerResponse, headers: Record<string, string>): boolean {
  let rel: string;
  try {
    rel = decodeURIComponent(pathname);
  } catch {
    return false;
  }
  if (rel.includes('\0')) return false;
  if (rel === '/' || rel === '') rel = '/index.html';
  const file = path.resolve(root, '.' + path.posix.normalize(rel));
  if (file !== root && !file.startsWith(root + path.sep)) return false;
  let st;
  try {
    st = statSync(file);
  } catch {
    return false;
  }
  if (!st.isFile()) return false;
  const ext = path.extname(file).toLowerCase();
  const immutable = rel.startsWith('/assets/');
  res.writeHead(200, {
    ...headers,
    'Content-Type': TYPES[ext] ?? 'application/octet-stream',
    'Content-Length': String(st.size),
    'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
  });
  if (req.method === 'HEAD') {
    res.end();
    return true;
  }
  createReadStream(file).pipe(res);
  return true;
}
