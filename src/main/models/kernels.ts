/**
 * Kernel patches measured on this project's 2-core machine (wasm backend, Node 22).
 *
 * 1. `UnsortedSegmentSum` (the gradient of `tf.gather`, i.e. of an embedding lookup): the wasm
 *    backend has none, and the cpu backend's loops once per segment over all input rows
 *    (O(numSegments · n); minutes for a vocabulary-sized gradient). Replaced on both by one
 *    O(n · inner) pass in JS.
 * 2. wasm `BatchMatMul` / `_FusedMatMul` with `transposeA`/`transposeB` (every matmul backward)
 *    run ~10× slower than plain; the wrapper transposes explicitly first. Toggle with
 *    `setExplicitTranspose(false)` to measure the difference.
 */
import * as tf from '@tensorflow/tfjs-core';

type AnyKernelArgs = { inputs: Record<string, tf.TensorInfo>; backend: any; attrs: Record<string, any> };

let explicitTranspose = true;
export function setExplicitTranspose(on: boolean): void {
  explicitTranspose = on;
}
export function explicitTransposeEnabled(): boolean {
  return explicitTranspose;
}

const patched = new Set<string>();

function segmentSumKernel({ inputs, backend, attrs }: AnyKernelArgs): tf.TensorInfo {
  const { x, segmentIds } = inputs;
  const numSegments = attrs.numSegments as number;
  const xv = backend.readSync(x.dataId) as Float32Array | Int32Array;
  const ids = backend.readSync(segmentIds.dataId) as Int32Array;
  const n = tf.util.sizeFromShape(segmentIds.shape);
  const innerShape = x.shape.slice(segmentIds.shape.length);
  const inner = tf.util.sizeFromShape(innerShape);
  const out = x.dtype === 'int32' ? new Int32Array(numSegments * inner) : new Float32Array(numSegments * inner);
  for (let i = 0; i < n; i++) {
    const s = ids[i];
    if (s < 0 || s >= numSegments) continue;
    const o = s * inner;
    const src = i * inner;
    for (let j = 0; j < inner; j++) out[o + j] += xv[src + j];
  }
  const shape = [numSegments, ...innerShape];
  const dataId = backend.write(out, shape, x.dtype);
  return { dataId, shape, dtype: x.dtype };
}

function registerSegmentSum(backendName: string): void {
  const key = `UnsortedSegmentSum/${backendName}`;
  if (patched.has(key)) return;
  if (tf.getKernel('UnsortedSegmentSum', backendName)) tf.unregisterKernel('UnsortedSegmentSum', backendName);
  tf.registerKernel({
    kernelName: 'UnsortedSegmentSum',
    backendName,
    kernelFunc: segmentSumKernel as unknown as tf.KernelFunc,
  });
  patched.add(key);
}

function swapLast2(rank: number): number[] {
  const perm = Array.from({ length: rank }, (_, i) => i);
  perm[rank - 1] = rank - 2;
  perm[rank - 2] = rank - 1;
  return perm;
}

function wrapMatMul(kernelName: 'BatchMatMul' | '_FusedMatMul', backendName: string): void {
  const key = `${kernelName}/${backendName}`;
  if (patched.has(key)) return;
  const orig = tf.getKernel(kernelName, backendName);
  const transposeK = tf.getKernel('Transpose', backendName);
  if (!orig || !transposeK) return;
  const kernelFunc = (args: AnyKernelArgs) => {
    const { inputs, backend, attrs } = args;
    if (!explicitTranspose || (!attrs.transposeA && !attrs.transposeB)) return orig.kernelFunc(args as any);
    let a = inputs.a;
    let b = inputs.b;
    const tmp: tf.TensorInfo[] = [];
    if (attrs.transposeA) {
      a = transposeK.kernelFunc({ inputs: { x: a }, backend, attrs: { perm: swapLast2(a.shape.length) } } as any) as tf.TensorInfo;
      tmp.push(a);
    }
    if (attrs.transposeB) {
      b = transposeK.kernelFunc({ inputs: { x: b }, backend, attrs: { perm: swapLast2(b.shape.length) } } as any) as tf.TensorInfo;
      tmp.push(b);
    }
    const out = orig.kernelFunc({
      inputs: { ...inputs, a, b },
      backend,
      attrs: { ...attrs, transposeA: false, transposeB: false },
    } as any);
    for (const t of tmp) backend.disposeData(t.dataId);
    return out;
  };
  tf.unregisterKernel(kernelName, backendName);
  tf.registerKernel({ kernelName, backendName, kernelFunc: kernelFunc as unknown as tf.KernelFunc });
  patched.add(key);
}

/** Applies the patches for the active backend. Call after the backend is initialised. */
export function patchKernels(backendName: string): void {
  if (backendName === 'wasm' || backendName === 'cpu') registerSegmentSum(backendName);
  if (backendName === 'wasm') {
    wrapMatMul('BatchMatMul', 'wasm');
    wrapMatMul('_FusedMatMul', 'wasm');
  }
}
