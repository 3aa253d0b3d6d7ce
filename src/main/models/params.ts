/** Named tfjs variables with snapshot/restore and conversion to/from saved weights. */
import * as tf from '@tensorflow/tfjs-core';
import type { SavedTensor } from './types';

export class Params {
  private readonly vars = new Map<string, tf.Variable>();
  private readonly frozen = new Set<string>();

  add(name: string, shape: number[], data: Float32Array, trainable = true): tf.Variable {
    if (this.vars.has(name)) throw new Error(`duplicate parameter ${name}`);
    const v = tf.tidy(() => tf.variable(tf.tensor(data, shape, 'float32'), trainable, undefined, 'float32'));
    this.vars.set(name, v);
    if (!trainable) this.frozen.add(name);
    return v;
  }

  get(name: string): tf.Variable {
    const v = this.vars.get(name);
    if (!v) throw new Error(`unknown parameter ${name}`);
    return v;
  }

  has(name: string): boolean {
    return this.vars.has(name);
  }

  /** Trainable variables (stable order). */
  trainable(): tf.Variable[] {
    return [...this.vars.entries()].filter(([n]) => !this.frozen.has(n)).map(([, v]) => v);
  }

  names(): string[] {
    return [...this.vars.keys()];
  }

  snapshot(): Map<string, Float32Array> {
    const s = new Map<string, Float32Array>();
    for (const [n, v] of this.vars) s.set(n, (v.dataSync() as Float32Array).slice());
    return s;
  }

  restore(s: Map<string, Float32Array>): void {
    for (const [n, v] of this.vars) {
      const d = s.get(n);
      if (d) tf.tidy(() => v.assign(tf.tensor(d, v.shape, 'float32')));
    }
  }

  toSaved(): Record<string, SavedTensor> {
    const out: Record<string, SavedTensor> = {};
    for (const [n, v] of this.vars) out[n] = { shape: [...v.shape], data: (v.dataSync() as Float32Array).slice() };
    return out;
  }

  dispose(): void {
    for (const v of this.vars.values()) v.dispose();
    this.vars.clear();
    this.frozen.clear();
  }
}

/** Clips gradients to a global L2 norm (returns new tensors; disposes nothing). */
export function clipByGlobalNorm(grads: tf.NamedTensorMap, maxNorm: number): tf.NamedTensorMap {
  return tf.tidy(() => {
    const names = Object.keys(grads);
    const sq = names.map((n) => tf.sum(tf.square(grads[n])));
    const norm = Math.sqrt((tf.addN(sq).dataSync() as Float32Array)[0]);
    const scale = norm > maxNorm && Number.isFinite(norm) ? maxNorm / norm : 1;
    const out: tf.NamedTensorMap = {};
    for (const n of names) out[n] = scale === 1 ? tf.clone(grads[n]) : tf.mul(grads[n], scale);
    return out;
  });
}

/**
 * One optimiser step: loss = f(), gradients w.r.t. the trainable variables, clipping, update.
 * Returns the loss value. Everything created here is disposed.
 */
export function optimizerStep(
  optimizer: tf.Optimizer,
  params: Params,
  f: () => tf.Scalar,
  clipNorm = 5,
): number {
  const vars = params.trainable();
  const { value, grads } = tf.variableGrads(f, vars);
  const clipped = clipByGlobalNorm(grads, clipNorm);
  optimizer.applyGradients(clipped);
  const loss = (value.dataSync() as Float32Array)[0];
  value.dispose();
  tf.dispose(Object.values(grads));
  tf.dispose(Object.values(clipped));
  return loss;
}
