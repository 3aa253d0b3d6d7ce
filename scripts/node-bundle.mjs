// How the Node-side code is bundled with esbuild, for `npm run build:node` (out/node) and `npm run serve`
// (out/serve): ES modules named .mjs (the workers are found next to their bundle by that name), for
// Node 22, with the installed packages left as imports (better-sqlite3 and tfjs load their native parts).
/**
 * The workers the Node-side code looks up next to its bundle (worker-bundle.ts bundledWorkerPath): entries of
 * every Node bundle. `npm run serve`'s bundle lacked the model worker, so its trainings ran the CLI's
 * out/node/train-worker.mjs, however old, or on the server's thread when there was none.
 */
export const NODE_WORKERS = {
  'train-worker': 'src/main/training/train-worker.ts',
  'compute-worker': 'src/main/engine/compute-worker.ts',
  'segment-worker': 'src/main/bm25/segment-worker.ts',
  'dump-parse-worker': 'src/main/import/dump-parse-worker.ts',
};

export const NODE_BUNDLE = {
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
};
