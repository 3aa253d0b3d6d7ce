/**
 * Every worker the main-side code looks up (bundledWorkerPath('NAME', …)) is an entry of both
 * builds that ship main-side code: the desktop app's (electron.vite.config.ts → out/main/NAME.js)
 * and the Node bundles' (scripts/node-bundle.mjs NODE_WORKERS, which the CLI's build, scripts/build-node.mjs →
 * out/node/NAME.mjs, and npm run serve's, scripts/serve.mjs → out/serve/NAME.mjs, both bundle), from the same
 * source file. A worker missing from a build would not fail there: its work would quietly run on the calling
 * thread (or, from out/serve, on the CLI's out/node bundle, however old: serve's bundle lacked the model worker).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../../tests/source-files';

const root = path.resolve(import.meta.dirname, '../..');

/** NAME → the source file the entry `'NAME': 'src/…'` of a build script names. */
function entries(file: string): Map<string, string> {
  const text = readFileSync(path.join(root, file), 'utf8');
  return new Map([...text.matchAll(/'([\w-]+-worker)':\s*'(src\/[\w/.-]+\.ts)'/g)].map((m) => [m[1]!, m[2]!]));
}

describe('bundled workers', () => {
  const used = new Set<string>();
  for (const f of sourceFiles(path.join(root, 'src/main'))) {
    for (const m of readFileSync(f, 'utf8').matchAll(/bundledWorkerPath\('([\w-]+)'/g)) used.add(m[1]!);
  }

  it('finds the workers the code looks up', () => {
    expect([...used].sort()).toEqual(['compute-worker', 'dump-parse-worker', 'segment-worker', 'train-worker']);
  });

  it('each is an entry of the desktop build and of the Node bundles, from the same existing source', () => {
    const electron = entries('electron.vite.config.ts');
    const node = entries('scripts/node-bundle.mjs');
    for (const name of used) {
      expect(electron.get(name), `${name} in electron.vite.config.ts`).toBeDefined();
      expect(node.get(name), `${name} in scripts/node-bundle.mjs`).toBe(electron.get(name));
      expect(readFileSync(path.join(root, electron.get(name)!), 'utf8')).toMatch(/parentPort/);
    }
  });

  it.each(['scripts/build-node.mjs', 'scripts/serve.mjs'])('%s bundles them all (NODE_WORKERS) and names no worker of its own', (file) => {
    const text = readFileSync(path.join(root, file), 'utf8');
    expect(text).toMatch(/import \{[^}]*\bNODE_WORKERS\b[^}]*\} from '\.\/node-bundle\.mjs'/);
    expect(text).toMatch(/\.\.\.NODE_WORKERS\b|Object\.entries\(NODE_WORKERS\)/);
    expect(text).not.toMatch(/[\w-]+-worker\.ts/);
  });
});
