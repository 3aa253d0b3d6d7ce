import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

/**
 * main: ESM (package.json "type": "module"), entry src/main/index.ts → out/main/index.js; use
 *       import.meta.dirname there, never a hand-made __dirname.
 *       The tfjs model worker is a second entry → out/main/train-worker.js, the compute worker
 *       (agreement reports, comparisons off the main thread) a third → out/main/compute-worker.js,
 *       the import's tokenizer (bm25/segment-worker.ts) a fourth → out/main/segment-worker.js, the
 *       Stack Exchange dump parser (import/dump-parse-worker.ts) a fifth → out/main/dump-parse-worker.js.
 * preload: CommonJS (sandboxed preloads cannot be ES modules) → out/preload/index.cjs. Its only
 *          import besides `electron` is src/shared/ipc-channels.ts (imports nothing), which the
 *          bundler inlines: the bundle requires only `electron` (src/preload/preload.test.ts builds
 *          it with this file and checks).
 * renderer: React, src/renderer/index.html → out/renderer (relative base so file:// works).
 * scripts/serve.mjs builds the renderer alone with the same settings (RENDERER_BUILD there).
 */
export default defineConfig({
  main: {
    build: {
      rolldownOptions: {
        // The workers (worker_threads) are their own entries: out/main/train-worker.js, out/main/compute-worker.js,
        // out/main/segment-worker.js (an import's tokenizing), out/main/dump-parse-worker.js (a dump import's parsing).
        input: {
          index: 'src/main/index.ts',
          'train-worker': 'src/main/training/train-worker.ts',
          'compute-worker': 'src/main/engine/compute-worker.ts',
          'segment-worker': 'src/main/bm25/segment-worker.ts',
          'dump-parse-worker': 'src/main/import/dump-parse-worker.ts',
        },
      },
    },
  },
  preload: {
    build: {
      rolldownOptions: {
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src/renderer',
    base: './',
    plugins: [react()],
    build: {
      outDir: 'out/renderer',
      target: 'chrome130',
      minify: true,
      sourcemap: false,
    },
  },
});
