// Bundles the Node-side entry points (CLI, serve mode, workers, benchmarks) with esbuild.
// Runs from `npm install` (the `prepare` script) so `npx qpairs` works right after install.
import { build } from 'esbuild';
import { existsSync } from 'node:fs';

const entries = {
  qpairs: 'src/main/cli/index.ts',
  'train-worker': 'src/main/training/train-worker.ts',
  'compute-worker': 'src/main/engine/compute-worker.ts',
  'segment-worker': 'src/main/bm25/segment-worker.ts',
  'dump-parse-worker': 'src/main/import/dump-parse-worker.ts',
  'bench-models': 'scripts/bench/models.ts',
  'bench-semeval-models': 'scripts/bench/semeval-models.ts',
  'bench-bm25': 'scripts/bench/bm25.ts',
  'bench-scale': 'scripts/bench/scale.ts',
  'bench-live': 'scripts/bench/live-metrics.ts',
  'gen-se-dump': 'scripts/bench/se-dump.ts',
  'bench-active': 'scripts/bench/active.ts',
  'bench-archive': 'scripts/bench/archive-import.ts',
  'bench-fair-use': 'scripts/bench/fair-use.ts',
};
const entryPoints = Object.fromEntries(Object.entries(entries).filter(([, p]) => existsSync(p)));

await build({
  entryPoints,
  outdir: 'out/node',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
