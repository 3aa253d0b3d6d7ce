/**
 * Recurrent scans for the `lstm`, `gru` and `rcnn` encoders (and the GRU title decoder).
 *
 * The time-independent input projections XP = X·W + b are computed outside, as one matmul for
 * the whole sequence batch (time-major [T, B, G]). A scan then runs the recurrence:
 *
 *  lstm (G = 4H, gates i f g o):  z = XP_t + h_{t−1}U;  c_t = σ(z_f)⊙c_{t−1} + σ(z_i)⊙tanh(z_g);
 *                                 h_t = σ(z_o)⊙tanh(c_t)
 *  gru  (G = 3H, reset-after):    u = h_{t−1}U + b_h;  z = σ(XP_z + u_z);  r = σ(XP_r + u_r);
 *                                 n = tanh(XP_n + r⊙u_n);  h_t = (1 − z)⊙n + z⊙h_{t−1}
 *  rcnn (G = 3H, Lei et al. 2016, order-2 gated non-consecutive convolution):
 *       λ_t = σ(W x_t + U h_{t−1} + b)              (XP part 0 holds W x_t + b)
 *       c1_t = λ_t⊙c1_{t−1} + (1 − λ_t)⊙(W1 x_t)      (XP part 1)
 *       c2_t = λ_t⊙c2_{t−1} + (1 − λ_t)⊙(c1_{t−1} + W2 x_t)   (XP part 2)
 *       h_t = tanh(c2_t + b')
 *
 * Padding: where mask[t, b] = 0 every state is carried over unchanged, so the state at the last
 * step is the last real token's state ("last" pooling) and masked steps add no gradient.
 *
 * Two implementations with identical maths:
 *  - `scanPlain`: one tfjs op per elementwise operation per step (the reference);
 *  - `scanFused`: the whole recurrence forward and backward over Float32Arrays with its own
 *    gradient (`tf.customGrad`). Per-step h·U products use the backend's matmul (wasm SIMD /
 *    tfjs-node) or a JS loop on the cpu backend; dU = Σ_t h_{t−1}ᵀ dZ_t is one matmul after the loop.
 *  The gradient-check test (recurrent.test.ts) proves them equal.
 */
import * as tf from '@tensorflow/tfjs-core';

export type CellKind = 'lstm' | 'gru' | 'rcnn';

export const GATES: Record<CellKind, number> = { lstm: 4, gru: 3, rcnn: 3 };

export interface ScanInputs {
  /** [T, B, G·H] input projections (bias included). */
  xp: tf.Tensor;
  /** [H, 4H] (lstm), [H, 3H] (gru), [H, H] (rcnn). */
  U: tf.Tensor;
  /** gru: recurrent bias b_h [3H]; rcnn: output bias b' [H]; lstm: null. */
  bias: tf.Tensor | null;
  /** [T·B] 1 for real tokens, 0 for padding (time-major). */
  mask: Float32Array;
  /** Optional initial hidden state [B, H] (cell states start at 0). */
  h0?: tf.Tensor | null;
}

export type MatmulMode = 'auto' | 'tf' | 'js';
let matmulMode: MatmulMode = 'auto';
/** How the fused scan multiplies per step: backend matmul ('tf'), JS loops ('js'), or auto (js on cpu). */
export function setFusedMatmul(mode: MatmulMode): void {
  matmulMode = mode;
}
function useTfMatmul(): boolean {
  return matmulMode === 'tf' || (matmulMode === 'auto' && tf.getBackend() !== 'cpu');
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/** C[M×N] (+)= A[M×K] · B[K×N], row-major. */
export function jsMatmul(A: Float32Array, M: number, K: number, B: Float32Array, N: number, C: Float32Array, accumulate = false): void {
  if (!accumulate) C.fill(0, 0, M * N);
  for (let i = 0; i < M; i++) {
    const ci = i * N;
    for (let k = 0; k < K; k++) {
      const a = A[i * K + k];
      if (a === 0) continue;
      const bk = k * N;
      for (let j = 0; j < N; j++) C[ci + j] += a * B[bk + j];
    }
  }
}

/** Transpose of a row-major [R×C] matrix. */
function transposeJs(A: Float32Array, R: number, C: number): Float32Array {
  const out = new Float32Array(R * C);
  for (let r = 0; r < R; r++) for (let c = 0; c < C; c++) out[c * R + r] = A[r * C + c];
  return out;
}

/** Multiplies [B×K] row blocks by a fixed [K×N] matrix, via the backend or JS. */
class FixedRight {
  private tensor: tf.Tensor2D | null = null;
  constructor(
    private readonly data: Float32Array,
    private readonly K: number,
    private readonly N: number,
    tfm: boolean,
  ) {
    if (tfm) this.tensor = tf.tensor2d(data, [K, N]);
  }
  mul(A: Float32Array, M: number, out: Float32Array): void {
    if (this.tensor) {
      const a = tf.tensor2d(A, [M, this.K]);
      const r = tf.matMul(a, this.tensor);
      out.set(r.dataSync() as Float32Array);
      a.dispose();
      r.dispose();
    } else {
      jsMatmul(A, M, this.K, this.data, this.N, out);
    }
  }
  dispose(): void {
    this.tensor?.dispose();
  }
}

/** [K×N] = Aᵀ·B with A [M×K], B [M×N] given; returns a tensor. */
function atb(A: Float32Array, M: number, K: number, B: Float32Array, N: number, tfm: boolean): tf.Tensor2D {
  const At = transposeJs(A, M, K);
  if (tfm) {
    return tf.tidy(() => tf.matMul(tf.tensor2d(At, [K, M]), tf.tensor2d(B, [M, N])));
  }
  const out = new Float32Array(K * N);
  jsMatmul(At, K, M, B, N, out);
  return tf.tensor2d(out, [K, N]);
}

// ---------------------------------------------------------------------------------------------
// Reference implementation: tfjs ops per step.

export function scanPlain(kind: CellKind, inp: ScanInputs): tf.Tensor3D {
  return tf.tidy(() => {
    const [T, B] = inp.xp.shape as number[];
    const H = inp.U.shape[0];
    const xs = tf.unstack(inp.xp);
    const ms = tf.unstack(tf.tensor3d(inp.mask, [T, B, 1]));
    let h: tf.Tensor = inp.h0 ?? tf.zeros([B, H]);
    let c: tf.Tensor = tf.zeros([B, H]);
    let c1: tf.Tensor = tf.zeros([B, H]);
    let c2: tf.Tensor = tf.zeros([B, H]);
    const outs: tf.Tensor[] = [];
    for (let t = 0; t < T; t++) {
      const m = ms[t];
      if (kind === 'lstm') {
        const z = tf.add(xs[t], tf.matMul(h, inp.U));
        const [zi, zf, zg, zo] = tf.split(z, 4, 1);
        const cn = tf.add(tf.mul(tf.sigmoid(zf), c), tf.mul(tf.sigmoid(zi), tf.tanh(zg)));
        const hn = tf.mul(tf.sigmoid(zo), tf.tanh(cn));
        c = tf.add(c, tf.mul(m, tf.sub(cn, c)));
        h = tf.add(h, tf.mul(m, tf.sub(hn, h)));
      } else if (kind === 'gru') {
        const u = tf.add(tf.matMul(h, inp.U), inp.bias!);
        const [uz, ur, un] = tf.split(u, 3, 1);
        const [xz, xr, xn] = tf.split(xs[t], 3, 1);
        const z = tf.sigmoid(tf.add(xz, uz));
        const r = tf.sigmoid(tf.add(xr, ur));
        const n = tf.tanh(tf.add(xn, tf.mul(r, un)));
        const hn = tf.add(n, tf.mul(z, tf.sub(h, n)));
        h = tf.add(h, tf.mul(m, tf.sub(hn, h)));
      } else {
        const [xl, a1, a2] = tf.split(xs[t], 3, 1);
        const lam = tf.sigmoid(tf.add(xl, tf.matMul(h, inp.U)));
        const c1n = tf.add(a1, tf.mul(lam, tf.sub(c1, a1)));
        const in2 = tf.add(c1, a2);
        const c2n = tf.add(in2, tf.mul(lam, tf.sub(c2, in2)));
        const hn = tf.tanh(tf.add(c2n, inp.bias!));
        c1 = tf.add(c1, tf.mul(m, tf.sub(c1n, c1)));
        c2 = tf.add(c2, tf.mul(m, tf.sub(c2n, c2)));
        h = tf.add(h, tf.mul(m, tf.sub(hn, h)));
      }
      outs.push(h);
    }
    return tf.stack(outs) as tf.Tensor3D;
  });
}

// ---------------------------------------------------------------------------------------------
// Fused implementation.

interface ForwardState {
  out: Float32Array; // [T,B,H]
  hPrev: Float32Array; // [T,B,H] h_{t-1}
  a: Float32Array; // lstm: gates i f g o [T,B,4H]; gru: z r n un [T,B,4H]; rcnn: lam [T,B,H]
  s1: Float32Array; // lstm: c_{t-1}; rcnn: c1_{t-1}
  s2: Float32Array; // lstm: tanh(c_t); rcnn: c2_{t-1}
  s3: Float32Array; // rcnn: tanh output
}

function forwardJs(
  kind: CellKind,
  T: number,
  B: number,
  H: number,
  xp: Float32Array,
  Udata: Float32Array,
  bias: Float32Array | null,
  mask: Float32Array,
  h0: Float32Array | null,
  keep: boolean,
  tfm: boolean,
): ForwardState {
  const G = GATES[kind] * H;
  const NU = kind === 'rcnn' ? H : G; // columns of U
  const right = new FixedRight(Udata, H, NU, tfm);
  const h = h0 ? h0.slice() : new Float32Array(B * H);
  const c = new Float32Array(B * H);
  const c2 = new Float32Array(B * H);
  const hu = new Float32Array(B * NU);
  const out = new Float32Array(T * B * H);
  const A = kind === 'rcnn' ? H : 4 * H;
  const st: ForwardState = {
    out,
    hPrev: keep ? new Float32Array(T * B * H) : new Float32Array(0),
    a: keep ? new Float32Array(T * B * A) : new Float32Array(0),
    s1: keep && kind !== 'gru' ? new Float32Array(T * B * H) : new Float32Array(0),
    s2: keep && kind !== 'gru' ? new Float32Array(T * B * H) : new Float32Array(0),
    s3: keep && kind === 'rcnn' ? new Float32Array(T * B * H) : new Float32Array(0),
  };
  try {
    for (let t = 0; t < T; t++) {
      if (keep) st.hPrev.set(h, t * B * H);
      right.mul(h, B, hu);
      for (let b = 0; b < B; b++) {
        const m = mask[t * B + b];
        const xo = (t * B + b) * G;
        const ho = b * H;
        const uo = b * NU;
        const so = (t * B + b) * H;
        const ao = (t * B + b) * A;
        if (m === 0) {
          if (keep) {
            // keep a/s arrays zero; carry states
          }
          continue;
        }
        if (kind === 'lstm') {
          for (let j = 0; j < H; j++) {
            const i = sigmoid(xp[xo + j] + hu[uo + j]);
            const f = sigmoid(xp[xo + H + j] + hu[uo + H + j]);
            const g = Math.tanh(xp[xo + 2 * H + j] + hu[uo + 2 * H + j]);
            const o = sigmoid(xp[xo + 3 * H + j] + hu[uo + 3 * H + j]);
            const cp = c[ho + j];
            const cn = f * cp + i * g;
            const tc = Math.tanh(cn);
            c[ho + j] = cn;
            h[ho + j] = o * tc;
            if (keep) {
              st.a[ao + j] = i;
              st.a[ao + H + j] = f;
              st.a[ao + 2 * H + j] = g;
              st.a[ao + 3 * H + j] = o;
              st.s1[so + j] = cp;
              st.s2[so + j] = tc;
            }
          }
        } else if (kind === 'gru') {
          for (let j = 0; j < H; j++) {
            const uz = hu[uo + j] + bias![j];
            const ur = hu[uo + H + j] + bias![H + j];
            const un = hu[uo + 2 * H + j] + bias![2 * H + j];
            const z = sigmoid(xp[xo + j] + uz);
            const r = sigmoid(xp[xo + H + j] + ur);
            const n = Math.tanh(xp[xo + 2 * H + j] + r * un);
            const hp = h[ho + j];
            h[ho + j] = n + z * (hp - n);
            if (keep) {
              st.a[ao + j] = z;
              st.a[ao + H + j] = r;
              st.a[ao + 2 * H + j] = n;
              st.a[ao + 3 * H + j] = un;
            }
          }
        } else {
          for (let j = 0; j < H; j++) {
            const lam = sigmoid(xp[xo + j] + hu[uo + j]);
            const a1 = xp[xo + H + j];
            const a2 = xp[xo + 2 * H + j];
            const c1p = c[ho + j];
            const c2p = c2[ho + j];
            const c1n = a1 + lam * (c1p - a1);
            const in2 = c1p + a2;
            const c2n = in2 + lam * (c2p - in2);
            const hn = Math.tanh(c2n + bias![j]);
            c[ho + j] = c1n;
            c2[ho + j] = c2n;
            h[ho + j] = hn;
            if (keep) {
              st.a[ao + j] = lam;
              st.s1[so + j] = c1p;
              st.s2[so + j] = c2p;
              st.s3[so + j] = hn;
            }
          }
        }
      }
      out.set(h, t * B * H);
    }
  } finally {
    right.dispose();
  }
  return st;
}

function backwardJs(
  kind: CellKind,
  T: number,
  B: number,
  H: number,
  xp: Float32Array,
  Udata: Float32Array,
  mask: Float32Array,
  st: ForwardState,
  dy: Float32Array,
  tfm: boolean,
): { dxp: Float32Array; dU: tf.Tensor2D; dBias: Float32Array | null; dh0: Float32Array } {
  const G = GATES[kind] * H;
  const NU = kind === 'rcnn' ? H : G;
  const A = kind === 'rcnn' ? H : 4 * H;
  const UT = transposeJs(Udata, H, NU); // [NU, H]
  const right = new FixedRight(UT, NU, H, tfm);
  const dxp = new Float32Array(T * B * G);
  const dHU = kind === 'gru' ? new Float32Array(T * B * NU) : dxp; // rows of dZ that multiply U
  const dZt = new Float32Array(B * NU);
  const dh = new Float32Array(B * H);
  const dc = new Float32Array(B * H);
  const dc2 = new Float32Array(B * H);
  const dhPrev = new Float32Array(B * H);
  const dBias = kind === 'lstm' ? null : new Float32Array(kind === 'gru' ? 3 * H : H);
  try {
    for (let t = T - 1; t >= 0; t--) {
      for (let i = 0; i < B * H; i++) dh[i] += dy[t * B * H + i];
      dZt.fill(0);
      for (let b = 0; b < B; b++) {
        if (mask[t * B + b] === 0) continue;
        const xo = (t * B + b) * G;
        const ho = b * H;
        const so = (t * B + b) * H;
        const ao = (t * B + b) * A;
        const zo = b * NU;
        if (kind === 'lstm') {
          for (let j = 0; j < H; j++) {
            const i = st.a[ao + j];
            const f = st.a[ao + H + j];
            const g = st.a[ao + 2 * H + j];
            const o = st.a[ao + 3 * H + j];
            const tc = st.s2[so + j];
            const dhj = dh[ho + j];
            const dO = dhj * tc;
            const dcn = dc[ho + j] + dhj * o * (1 - tc * tc);
            dc[ho + j] = dcn * f;
            const dzi = dcn * g * i * (1 - i);
            const dzf = dcn * st.s1[so + j] * f * (1 - f);
            const dzg = dcn * i * (1 - g * g);
            const dzo = dO * o * (1 - o);
            dxp[xo + j] = dzi;
            dxp[xo + H + j] = dzf;
            dxp[xo + 2 * H + j] = dzg;
            dxp[xo + 3 * H + j] = dzo;
            dZt[zo + j] = dzi;
            dZt[zo + H + j] = dzf;
            dZt[zo + 2 * H + j] = dzg;
            dZt[zo + 3 * H + j] = dzo;
            dh[ho + j] = 0;
          }
        } else if (kind === 'gru') {
          const hp = st.hPrev;
          for (let j = 0; j < H; j++) {
            const z = st.a[ao + j];
            const r = st.a[ao + H + j];
            const n = st.a[ao + 2 * H + j];
            const un = st.a[ao + 3 * H + j];
            const dhj = dh[ho + j];
            const dn = dhj * (1 - z);
            const dz = dhj * (hp[so + j] - n);
            const dan = dn * (1 - n * n);
            const dr = dan * un;
            const daz = dz * z * (1 - z);
            const dar = dr * r * (1 - r);
            dxp[xo + j] = daz;
            dxp[xo + H + j] = dar;
            dxp[xo + 2 * H + j] = dan;
            const hu = (t * B + b) * NU;
            dHU[hu + j] = daz;
            dHU[hu + H + j] = dar;
            dHU[hu + 2 * H + j] = dan * r;
            dZt[zo + j] = daz;
            dZt[zo + H + j] = dar;
            dZt[zo + 2 * H + j] = dan * r;
            dBias![j] += daz;
            dBias![H + j] += dar;
            dBias![2 * H + j] += dan * r;
            dh[ho + j] = dhj * z;
          }
        } else {
          for (let j = 0; j < H; j++) {
            const lam = st.a[ao + j];
            const c1p = st.s1[so + j];
            const c2p = st.s2[so + j];
            const hn = st.s3[so + j];
            const a1 = xp[xo + H + j];
            const a2 = xp[xo + 2 * H + j];
            const dpre = dh[ho + j] * (1 - hn * hn);
            dBias![j] += dpre;
            const dc2n = dc2[ho + j] + dpre;
            const dc1n = dc[ho + j];
            const dlam = dc2n * (c2p - c1p - a2) + dc1n * (c1p - a1);
            const dzl = dlam * lam * (1 - lam);
            dxp[xo + j] = dzl;
            dxp[xo + H + j] = dc1n * (1 - lam);
            dxp[xo + 2 * H + j] = dc2n * (1 - lam);
            dZt[zo + j] = dzl;
            dc2[ho + j] = dc2n * lam;
            dc[ho + j] = dc1n * lam + dc2n * (1 - lam);
            dh[ho + j] = 0;
          }
        }
      }
      // dh_{t-1} += dZ_t · Uᵀ (rows with mask 0 have dZ = 0 and keep their carried dh)
      right.mul(dZt, B, dhPrev);
      for (let i = 0; i < B * H; i++) dh[i] += dhPrev[i];
    }
    // rcnn: dHU for U is only the λ part of dxp (first H columns of each row)
    let dU: tf.Tensor2D;
    if (kind === 'rcnn') {
      const dl = new Float32Array(T * B * H);
      for (let r = 0; r < T * B; r++) dl.set(dxp.subarray(r * G, r * G + H), r * H);
      dU = atb(st.hPrev, T * B, H, dl, H, tfm);
    } else {
      dU = atb(st.hPrev, T * B, H, dHU, NU, tfm);
    }
    return { dxp, dU, dBias, dh0: dh };
  } finally {
    right.dispose();
  }
}

/** Fused scan with its own gradient (see module doc). Returns [T, B, H]. */
export function scanFused(kind: CellKind, inp: ScanInputs): tf.Tensor3D {
  const [T, B] = inp.xp.shape as number[];
  const H = inp.U.shape[0];
  const tfm = useTfMatmul();
  const inputs: tf.Tensor[] = [inp.xp, inp.U];
  const hasBias = inp.bias != null;
  const hasH0 = inp.h0 != null;
  if (hasBias) inputs.push(inp.bias!);
  if (hasH0) inputs.push(inp.h0!);
  const f = tf.customGrad((...args: unknown[]) => {
    const xpT = args[0] as tf.Tensor;
    const UT = args[1] as tf.Tensor;
    const biasT = hasBias ? (args[2] as tf.Tensor) : null;
    const h0T = hasH0 ? (args[hasBias ? 3 : 2] as tf.Tensor) : null;
    const xp = xpT.dataSync() as Float32Array;
    const Ud = UT.dataSync() as Float32Array;
    const bias = biasT ? (biasT.dataSync() as Float32Array) : null;
    const h0 = h0T ? (h0T.dataSync() as Float32Array) : null;
    const st = forwardJs(kind, T, B, H, xp, Ud, bias, inp.mask, h0, true, tfm);
    const value = tf.tensor3d(st.out, [T, B, H]);
    return {
      value,
      gradFunc: (dy: tf.Tensor | tf.Tensor[]) => {
        const dyd = (Array.isArray(dy) ? dy[0] : dy).dataSync() as Float32Array;
        const g = backwardJs(kind, T, B, H, xp, Ud, inp.mask, st, dyd, tfm);
        const grads: tf.Tensor[] = [tf.tensor(g.dxp, xpT.shape), g.dU];
        if (hasBias) grads.push(tf.tensor1d(g.dBias!));
        if (hasH0) grads.push(tf.tensor2d(g.dh0, [B, H]));
        return grads;
      },
    };
  });
  return f(...inputs) as tf.Tensor3D;
}

/** Forward only (no gradient bookkeeping); the same numbers as scanFused. */
export function scanInference(kind: CellKind, inp: ScanInputs): tf.Tensor3D {
  const [T, B] = inp.xp.shape as number[];
  const H = inp.U.shape[0];
  const st = forwardJs(
    kind,
    T,
    B,
    H,
    inp.xp.dataSync() as Float32Array,
    inp.U.dataSync() as Float32Array,
    inp.bias ? (inp.bias.dataSync() as Float32Array) : null,
    inp.mask,
    inp.h0 ? (inp.h0.dataSync() as Float32Array) : null,
    false,
    useTfMatmul(),
  );
  return tf.tensor3d(st.out, [T, B, H]);
}

export type ScanImpl = 'fused' | 'plain';
export function scan(kind: CellKind, inp: ScanInputs, impl: ScanImpl = 'fused'): tf.Tensor3D {
  return impl === 'plain' ? scanPlain(kind, inp) : scanFused(kind, inp);
}
