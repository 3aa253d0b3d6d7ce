/**
 * Test fixture (not used by the app): what the server's tests shared as copies — waiting until a
 * condition holds, and a static folder with an index page for startServer.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/** Waits (up to `ms`: how long to wait, not a measure) until `cond` holds. */
export async function until(what: string, cond: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Registers the hooks of a static folder (an index page) made before the file's tests and removed after them; returns its getter. */
export function useStaticDir(prefix: string): () => string {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), prefix));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html>');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return () => dir;
}
