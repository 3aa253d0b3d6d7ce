/**
 * Where a bundled worker_threads entry is: next to the code asking (out/node, out/main), one level
 * up when a bundler put that code in a chunks folder, or in out/node of the checkout (source run by
 * the tests, whose global setup builds out/node). null when there is none: callers then run the
 * work in their own thread.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

export function bundledWorkerPath(name: string, here: string): string | null {
  const candidates = [here, path.dirname(here)].flatMap((d) => [path.join(d, `${name}.mjs`), path.join(d, `${name}.js`)]);
  let dir = here;
  for (let i = 0; i < 5; i++) {
    candidates.push(path.join(dir, 'out', 'node', `${name}.mjs`));
    dir = path.dirname(dir);
  }
  return candidates.find((p) => existsSync(p)) ?? null;
}
