import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
/** `../shared/data` beside the checkout (CI puts `shared/` there). */
export const SHARED_DATA = path.resolve(here, '../../shared/data');

/** Absolute path of a file under ../shared/data; throws (never skips) when it is missing. */
export function sharedData(rel: string): string {
  const p = path.join(SHARED_DATA, rel);
  if (!existsSync(p)) throw new Error(`shared data file missing: ${p} (CI must have ../shared beside the checkout)`);
  return p;
}
