import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Reads tests/fixtures/<dir>/<name> (throws if missing: fixtures are committed). */
export function readFixture<T = any>(dir: string, name: string): T {
  return JSON.parse(readFileSync(path.resolve(here, '../../../tests/fixtures', dir, name), 'utf8')) as T;
}

/** |actual − expected| ≤ rel·max(|expected|, tiny) — relative closeness that also works near 0. */
export function relClose(actual: number, expected: number, rel: number, abs = 0): boolean {
  return Math.abs(actual - expected) <= Math.max(abs, rel * Math.abs(expected));
}
