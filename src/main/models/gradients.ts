/**
 * Gradient definitions for the kernels the models differentiate through.
 *
 * Why: in Node, `@tensorflow/tfjs-core` resolves to its CommonJS bundle, which registers no
 * gradients (the union package `@tensorflow/tfjs` normally does, with
 * `dist/register_all_gradients`, an extension-less ESM file Node cannot import). So every
 * `tf.grads`/`variableGrads` fails with "gradient function not found" until these are
 * registered. Each is registered only if no gradient exists yet (tfjs-node brings its own).
 * The maths follows tfjs-core's own gradient configs (Apache-2.0), restricted to the cases used
 * here (matmul without batch broadcasting, gather on axis 0).
 */
import * as tf from '@tensorflow/tfjs-core';

type Saved = tf.Tensor[];
type Attrs = Record<string, any>;
type GradFn = (dy: tf.Tensor | tf.Tensor[], saved: Saved, attrs: Attrs) => Record<string, () => tf.Tensor> | Array<() => tf.Tensor>;

/** Sums `dy` over the axes that were broadcast to reach `outShape` from `inShape`. */
function unbroadcast(dy: tf.Tensor, inShape: number[]): tf.Tensor {
  const axes = tf.backend_util.getReductionAxes(inShape, dy.shape);
  let r = dy;
  if (axes.length > 0) r = tf.sum(r, axes);
  return tf.reshape(r, inShape);
}

function keepDimsShape(shape: number[], axes: number[]): number[] {
  const s = shape.slice();
  for (const a of axes) s[a] = 1;
  return s;
}

const one = (dy: tf.Tensor | tf.Tensor[]) => dy as tf.Tensor;

const defs: Array<{ name: string; inputsToSave?: string[]; outputsToSave?: boolean[]; saveAllInputs?: boolean; grad: GradFn }> = [
  {
    name: 'Add',
    inputsToSave: ['a', 'b'],
    grad: (dy, [a, b]) => ({ a: () => unbroadcast(one(dy), a.shape), b: () => unbroadcast(one(dy), b.shape) }),
  },
  {
    name: 'Sub',
    inputsToSave: ['a', 'b'],
    grad: (dy, [a, b]) => ({ a: () => unbroadcast(one(dy), a.shape), b: () => tf.neg(unbroadcast(one(dy), b.shape)) }),
  },
  {
    name: 'Multiply',
    inputsToSave: ['a', 'b'],
    grad: (dy, [a, b]) => ({
      a: () => unbroadcast(tf.mul(one(dy), tf.cast(b, 'float32')), a.shape),
      b: () => unbroadcast(tf.mul(one(dy), tf.cast(a, 'float32')), b.shape),
    }),
  },
  {
    name: 'RealDiv',
    inputsToSave: ['a', 'b'],
    grad: (dy, [a, b]) => ({
      a: () => unbroadcast(tf.div(one(dy), tf.cast(b, 'float32')), a.shape),
      b: () => unbroadcast(tf.neg(tf.div(tf.mul(one(dy), a), tf.square(b))), b.shape),
    }),
  },
  {
    name: 'AddN',
    saveAllInputs: true,
    grad: (dy, saved) => saved.map(() => () => tf.clone(one(dy))),
  },
  { name: 'Neg', grad: (dy) => ({ x: () => tf.neg(one(dy)) }) },
  { name: 'Identity', grad: (dy) => ({ x: () => tf.clone(one(dy)) }) },
  { name: 'Cast', grad: (dy) => ({ x: () => tf.clone(one(dy)) }) },
  {
    name: 'BatchMatMul',
    inputsToSave: ['a', 'b'],
    grad: (dy0, [a, b], { transposeA, transposeB }) => {
      const dy = one(dy0);
      if (a.rank !== b.rank) throw new Error('matMul gradient: batch broadcasting is not supported here');
      if (!transposeA && !transposeB) return { a: () => tf.matMul(dy, b, false, true), b: () => tf.matMul(a, dy, true, false) };
      if (!transposeA && transposeB) return { a: () => tf.matMul(dy, b, false, false), b: () => tf.matMul(dy, a, true, false) };
      if (transposeA && !transposeB) return { a: () => tf.matMul(b, dy, false, true), b: () => tf.matMul(a, dy, false, false) };
      return { a: () => tf.matMul(b, dy, true, true), b: () => tf.matMul(dy, a, true, true) };
    },
  },
  { name: 'Reshape', inputsToSave: ['x'], grad: (dy, [x]) => ({ x: () => tf.reshape(one(dy), x.shape) }) },
  { name: 'ExpandDims', inputsToSave: ['input'], grad: (dy, [x]) => ({ input: () => tf.reshape(one(dy), x.shape) }) },
  {
    name: 'Transpose',
    grad: (dy, _s, { perm }) => {
      const undo = tf.backend_util.getUndoAxesPermutation(perm);
      return { x: () => tf.transpose(one(dy), undo) };
    },
  },
  {
    name: 'Slice',
    inputsToSave: ['x'],
    grad: (dy, [x], { begin, size }) => {
      const [b, s] = tf.slice_util.parseSliceParams(x, begin, size);
      const paddings = x.shape.map((d, i) => [b[i], d - b[i] - s[i]] as [number, number]);
      return { x: () => tf.pad(one(dy), paddings) };
    },
  },
  {
    name: 'PadV2',
    inputsToSave: ['x'],
    grad: (dy, [x], { paddings }) => {
      const begin = (paddings as Array<[number, number]>).map((p) => p[0]);
      return { x: () => tf.slice(one(dy), begin, x.shape) };
    },
  },
  {
    name: 'Concat',
    saveAllInputs: true,
    grad: (dy, saved, { axis }) => {
      const ax = tf.util.parseAxisParam(axis, saved[0].shape)[0];
      const parts = tf.split(one(dy), saved.map((t) => t.shape[ax]), ax);
      return parts.map((p) => () => p);
    },
  },
  {
    name: 'Pack',
    saveAllInputs: true,
    grad: (dy, _saved, { axis }) => tf.unstack(one(dy), axis).map((t) => () => t),
  },
  {
    name: 'Unpack',
    grad: (dy, _s, { axis }) => ({ value: () => tf.stack(dy as tf.Tensor[], axis) }),
  },
  {
    name: 'SplitV',
    grad: (dy, _s, { axis }) => ({ x: () => tf.concat(dy as tf.Tensor[], axis) }),
  },
  {
    name: 'Sum',
    inputsToSave: ['x'],
    grad: (dy, [x], { axis }) => {
      const axes = tf.util.parseAxisParam(axis, x.shape);
      return { x: () => tf.mul(tf.reshape(one(dy), keepDimsShape(x.shape, axes)), tf.ones(x.shape, 'float32')) };
    },
  },
  {
    name: 'Mean',
    inputsToSave: ['x'],
    grad: (dy, [x], { axis }) => {
      const axes = tf.util.parseAxisParam(axis, x.shape);
      const n = axes.reduce((p, a) => p * x.shape[a], 1);
      return { x: () => tf.div(tf.mul(tf.reshape(one(dy), keepDimsShape(x.shape, axes)), tf.ones(x.shape, 'float32')), n) };
    },
  },
  {
    name: 'Max',
    inputsToSave: ['x'],
    outputsToSave: [true],
    grad: (dy, [x, y], { reductionIndices }) => {
      const axes = tf.util.parseAxisParam(reductionIndices, x.shape);
      const ks = keepDimsShape(x.shape, axes);
      return { x: () => tf.mul(tf.reshape(one(dy), ks), tf.cast(tf.equal(x, tf.reshape(y, ks)), 'float32')) };
    },
  },
  {
    name: 'GatherV2',
    inputsToSave: ['x', 'indices'],
    grad: (dy, [x, indices], { axis, batchDims }) => {
      const ax = tf.util.parseAxisParam(axis, x.shape)[0];
      if (ax !== 0 || (batchDims ?? 0) !== 0) throw new Error('gather gradient: only axis 0 is supported here');
      return {
        x: () => {
          const n = indices.size;
          const values = tf.reshape(one(dy), [n, ...x.shape.slice(1)]);
          return tf.unsortedSegmentSum(values, tf.reshape(indices, [n]) as tf.Tensor1D, x.shape[0]);
        },
        indices: () => tf.zerosLike(indices),
      };
    },
  },
  {
    name: 'UnsortedSegmentSum',
    inputsToSave: ['segmentIds'],
    grad: (dy, [segmentIds]) => ({
      x: () => tf.gather(one(dy), tf.cast(tf.maximum(segmentIds, tf.scalar(0, 'int32')), 'int32') as tf.Tensor1D),
      segmentIds: () => tf.zerosLike(segmentIds),
    }),
  },
  { name: 'Relu', inputsToSave: ['x'], grad: (dy, [x]) => ({ x: () => tf.mul(one(dy), tf.cast(tf.greater(x, 0), 'float32')) }) },
  {
    name: 'Sigmoid',
    outputsToSave: [true],
    grad: (dy, [y]) => ({ x: () => tf.mul(one(dy), tf.mul(y, tf.sub(1, y))) }),
  },
  { name: 'Tanh', outputsToSave: [true], grad: (dy, [y]) => ({ x: () => tf.mul(one(dy), tf.sub(1, tf.square(y))) }) },
  { name: 'Softplus', inputsToSave: ['x'], grad: (dy, [x]) => ({ x: () => tf.mul(one(dy), tf.sigmoid(x)) }) },
  { name: 'Square', inputsToSave: ['x'], grad: (dy, [x]) => ({ x: () => tf.mul(one(dy), tf.mul(x, 2)) }) },
  { name: 'Sqrt', outputsToSave: [true], grad: (dy, [y]) => ({ x: () => tf.div(one(dy), tf.mul(y, 2)) }) },
  { name: 'Exp', outputsToSave: [true], grad: (dy, [y]) => ({ x: () => tf.mul(one(dy), y) }) },
  { name: 'Log', inputsToSave: ['x'], grad: (dy, [x]) => ({ x: () => tf.div(one(dy), x) }) },
  { name: 'Abs', inputsToSave: ['x'], grad: (dy, [x]) => ({ x: () => tf.mul(one(dy), tf.sign(x)) }) },
];

let done = false;

/** Registers the gradients above where tfjs has none (idempotent). */
export function registerGradients(): void {
  if (done) return;
  for (const d of defs) {
    if (tf.getGradient(d.name)) continue;
    tf.registerGradient({
      kernelName: d.name,
      inputsToSave: d.inputsToSave,
      outputsToSave: d.outputsToSave,
      saveAllInputs: d.saveAllInputs,
      gradFunc: d.grad as unknown as tf.GradFunc,
    });
  }
  done = true;
}
