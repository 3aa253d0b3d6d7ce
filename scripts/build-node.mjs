// Bundles the Node-side entry points (CLI, serve mode, workers, benchmarks) with esbuild.
// Runs from `npm install` (the `prepare` script) so `npx qpairs` works right after install.
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { NODE_BUNDLE, NODE_WORKERS } from './node-bundle.mjs';

const entries = {
  qpairs: 'src/main/cli/index.ts',
  ...NODE_WORKERS,
  'bench-models': 'scripts/bench/models.ts',
  'bench-semeval-models': 'scripts/bench/semeval-models.ts',
  'bench-bm25': 'scripts/bench/bm25.ts',
  'bench-scale': 'scripts/bench/scale.ts',
  'bench-live': 'scripts/bench/live-metrics.ts',
  'gen-se-dump': 'scripts/bench/se-dump.ts',
  'bench-active': 'scripts/bench/active.ts',
  'bench-archive': 'scripts/bench/archive-import.ts',
  'bench-fair-use': 'scripts/bench/fair-use.ts',
  'bench-export': 'scripts/bench/export-memory.ts',
};
const entryPoints = Object.fromEntries(Object.entries(entries).filter(([, p]) => existsSync(p)));

await build({ ...NODE_BUNDLE, entryPoints, outdir: 'out/node' });
