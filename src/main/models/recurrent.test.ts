import { beforeAll, describe, expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs-core';
import { initBackend } from './backend';
import { type CellKind, GATES, scanFused, scanInference, scanPlain, setFusedMatmul, type ScanInputs } from './recurrent';
import { Rng } from './rng';

const KINDS: CellKind[] = ['lstm', 'gru', 'rcnn'];

function inputs(kind: CellKind, T: number, B: number, H: number, seed: number, lens: number[], withH0: boolean) {
  const rng = new Rng(seed);
  const G = GATES[kind] * H;
  const NU = kind === 'rcnn' ? H : G;
  const r = (n: number, s = 0.5) => Float32Array.from({ length: n }, () => rng.normal() * s);
  const mask = new Float32Array(T * B);
  for (let t = 0; t < T; t++) for (let b = 0; b < B; b++) mask[t * B + b] = t < lens[b] ? 1 : 0;
  return {
    xp: tf.tensor3d(r(T * B * G), [T, B, G]),
    U: tf.tensor2d(r(H * NU), [H, NU]),
    bias: kind === 'lstm' ? null : tf.tensor1d(r(kind === 'gru' ? 3 * H : H)),
    h0: withH0 ? tf.tensor2d(r(B * H), [B, H]) : null,
    mask,
    R: tf.tensor3d(r(T * B * H, 1), [T, B, H]),
  };
}

function lossAndGrads(impl: 'fused' | 'plain', kind: CellKind, inp: ReturnType<typeof inputs>) {
  const xs: tf.Tensor[] = [inp.xp, inp.U];
  if (inp.bias) xs.push(inp.bias);
  if (inp.h0) xs.push(inp.h0);
  const f = (...a: tf.Tensor[]) => {
    const si: ScanInputs = { xp: a[0], U: a[1], bias: inp.bias ? a[2] : null, h0: inp.h0 ? a[inp.bias ? 3 : 2] : null, mask: inp.mask };
    const out = impl === 'fused' ? scanFused(kind, si) : scanPlain(kind, si);
    return tf.sum(tf.mul(out, inp.R));
  };
  const { value, grads } = tf.valueAndGrads(f)(xs);
  const res = { loss: value.dataSync()[0], grads: grads.map((g) => g.dataSync() as Float32Array) };
  tf.dispose([value, ...grads]);
  return res;
}

function maxDiff(a: Float32Array, b: Float32Array): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

describe('recurrent scans', () => {
  beforeAll(async () => {
    await initBackend();
  });

  for (const mode of ['tf', 'js'] as const) {
    for (const kind of KINDS) {
      it(`${kind}: fused gradient equals the plain tfjs gradient (matmul ${mode})`, () => {
        setFusedMatmul(mode);
        const inp = inputs(kind, 6, 4, 5, 7, [6, 4, 1, 0], true);
        const a = lossAndGrads('fused', kind, inp);
        const b = lossAndGrads('plain', kind, inp);
        expect(Math.abs(a.loss - b.loss)).toBeLessThan(1e-4);
        expect(a.grads.length).toBe(b.grads.length);
        a.grads.forEach((g, i) => expect(maxDiff(g, b.grads[i])).toBeLessThan(1e-4));
        // padded rows get no gradient
        const dxp = a.grads[0];
        const G = GATES[kind] * 5;
        for (let t = 0; t < 6; t++) for (let g = 0; g < G; g++) expect(dxp[(t * 4 + 3) * G + g]).toBe(0);
        setFusedMatmul('auto');
        tf.dispose([inp.xp, inp.U, inp.R, ...(inp.bias ? [inp.bias] : []), ...(inp.h0 ? [inp.h0] : [])]);
      });
    }
  }

  for (const kind of KINDS) {
    it(`${kind}: fused gradient matches finite differences`, () => {
      const inp = inputs(kind, 4, 2, 3, 11, [4, 2], kind === 'gru');
      const a = lossAndGrads('fused', kind, inp);
      const xs: tf.Tensor[] = [inp.xp, inp.U];
      if (inp.bias) xs.push(inp.bias);
      if (inp.h0) xs.push(inp.h0);
      const eps = 1e-2;
      const lossAt = (which: number, idx: number, delta: number) => {
        const data = (xs[which].dataSync() as Float32Array).slice();
        data[idx] += delta;
        const moved = xs.map((x, i) => (i === which ? tf.tensor(data, x.shape) : x));
        const si: ScanInputs = {
          xp: moved[0],
          U: moved[1],
          bias: inp.bias ? moved[2] : null,
          h0: inp.h0 ? moved[inp.bias ? 3 : 2] : null,
          mask: inp.mask,
        };
        const out = scanFused(kind, si);
        const l = tf.sum(tf.mul(out, inp.R)).dataSync()[0];
        out.dispose();
        moved[which].dispose();
        return l;
      };
      for (let which = 0; which < xs.length; which++) {
        const n = xs[which].size;
        for (const idx of [0, Math.floor(n / 2), n - 1]) {
          const num = (lossAt(which, idx, eps) - lossAt(which, idx, -eps)) / (2 * eps);
          expect(Math.abs(num - a.grads[which][idx])).toBeLessThan(3e-3 + 3e-3 * Math.abs(num));
        }
      }
    });

    it(`${kind}: inference forward equals the fused forward`, () => {
      const inp = inputs(kind, 5, 3, 4, 3, [5, 2, 3], false);
      const si: ScanInputs = { xp: inp.xp, U: inp.U, bias: inp.bias, mask: inp.mask };
      const a = scanFused(kind, si);
      const b = scanInference(kind, si);
      const c = scanPlain(kind, si);
      expect(maxDiff(a.dataSync() as Float32Array, b.dataSync() as Float32Array)).toBe(0);
      expect(maxDiff(a.dataSync() as Float32Array, c.dataSync() as Float32Array)).toBeLessThan(1e-5);
      tf.dispose([a, b, c]);
    });
  }
});
