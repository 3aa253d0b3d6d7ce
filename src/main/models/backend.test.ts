import { afterAll, describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs-core';
import { availableBackends, backendName, initBackend, useBackend } from './backend';
import { setExplicitTranspose } from './kernels';

describe('backend', () => {
  afterAll(async () => {
    await useBackend((await availableBackends())[0]);
  });

  it('picks the fastest available backend (wasm with SIMD here, no network)', async () => {
    const name = await initBackend();
    const avail = await availableBackends();
    expect(name).toBe(process.env.QPAIRS_TF_BACKEND ?? avail[0]);
    expect(backendName()).toBe(name);
    if (name === 'wasm') expect(tf.env().getBool('WASM_HAS_SIMD_SUPPORT')).toBe(true);
  });

  it('transposed matmuls give the same result with the explicit-transpose wrapper', async () => {
    await initBackend();
    const a = tf.randomNormal([5, 7], 0, 1, 'float32', 1);
    const b = tf.randomNormal([6, 7], 0, 1, 'float32', 2);
    setExplicitTranspose(false);
    const r1 = tf.matMul(a, b, false, true);
    const r3 = tf.matMul(b, a, false, true);
    setExplicitTranspose(true);
    const r2 = tf.matMul(a, b, false, true);
    const r4 = tf.matMul(b, a, false, true);
    r1.dataSync().forEach((x, i) => expect(Math.abs(x - r2.dataSync()[i])).toBeLessThan(1e-5));
    r3.dataSync().forEach((x, i) => expect(Math.abs(x - r4.dataSync()[i])).toBeLessThan(1e-5));
    tf.dispose([a, b, r1, r2, r3, r4]);
  });

  for (const be of ['wasm', 'cpu'] as const) {
    // Its speed is measured by `npm run bench:models` (the embedding-lookup gradient table).
    it(`${be}: embedding-lookup gradient (UnsortedSegmentSum) runs the one-pass kernel and is right for a large vocabulary`, async () => {
      if (!(await availableBackends()).includes(be)) return;
      expect(await useBackend(be)).toBe(true);
      // The backend's own kernel (none on wasm; cpu's loops over all rows once per segment) is replaced by kernels.ts's one pass.
      expect(tf.getKernel('UnsortedSegmentSum', be)?.kernelFunc.name).toBe('segmentSumKernel');
      const V = 50_000;
      const E = tf.variable(tf.randomNormal([V, 8], 0, 1, 'float32', 3));
      const ids = tf.tensor1d([3, 3, 49_999, 0], 'int32');
      const g = tf.grad((e: tf.Tensor) => tf.sum(tf.gather(e, ids)))(E);
      const d = g.dataSync();
      expect(d).toHaveLength(V * 8);
      expect(d[3 * 8]).toBe(2);
      expect(d[49_999 * 8 + 7]).toBe(1);
      expect(d[1 * 8]).toBe(0);
      const s = tf.unsortedSegmentSum(tf.tensor2d([1, 2, 3, 4, 5, 6], [3, 2]), tf.tensor1d([2, 0, 2], 'int32'), 4);
      expect(Array.from(s.dataSync())).toEqual([3, 4, 0, 0, 6, 8, 0, 0]);
      tf.dispose([E, ids, g, s]);
    });
  }
});
