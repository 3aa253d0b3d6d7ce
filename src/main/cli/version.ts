/**
 * `qpairs --version`: the package's version (from the package.json of the qpairs checkout or
 * install this code runs from: found by walking up from this file, so it holds for the sources
 * and for the bundle in out/node alike), the workspace schema version this build reads and
 * writes (a workspace of a higher one is refused), and the Node.js running it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SCHEMA_VERSION } from '../workspace/migrations';

/** The version in the nearest package.json named "qpairs" at or above `from`; null when none is found. */
export function packageVersion(from = import.meta.dirname): string | null {
  for (let dir = from; ; dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === 'qpairs' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // no package.json here (or not JSON): look further up
    }
    if (path.dirname(dir) === dir) return null;
  }
}

export function versionText(): string {
  return `qpairs ${packageVersion() ?? '(version unknown: no package.json found)'} (workspace schema ${SCHEMA_VERSION}, Node.js ${process.versions.node})`;
}
