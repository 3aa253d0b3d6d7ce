/**
 * Speed benchmark of the research rerankers (`npm run bench:models`):
 * for every model and every tfjs backend present (tfjs-node, wasm, cpu), training throughput
 * and the time to rerank 20 candidates (cold = nothing cached, warm = encodings cached).
 * Plus the embedding-lookup gradient over a large vocabulary per backend, and ablations on wasm:
 * explicit transposes in matmul backward, fused vs plain recurrences.
 *
 *   node_modules/.bin/esbuild scripts/bench/models.ts --bundle --platform=node --format=esm \
 *     --packages=external --outfile=out/bench/models.mjs && node_modules/.bin/node out/bench/models.mjs
 *   flags: --backends wasm,cpu  --models lstm,gru  --reps 30  --no-ablation
 *
 * Data: synthetic questions with a Zipf vocabulary and SemEval-like lengths (title ≈ 8 words,
 * body ≈ 45 words), each with a category, an asker and 0–3 answerers (hnil's network). Neural models
 * train on 96 positive pairs (6 batches) per measurement; the
 * skip-gram vectors are trained once and passed in, so each row measures the model itself.
 */
import * as tf from '@tensorflow/tfjs-core';
import { availableBackends, createModel, SkipGramRanker, type BackendName, type QText, type Ranker, type TrainingData } from '../../src/main/models';
import { useBackend } from '../../src/main/models/backend';
import { setExplicitTranspose } from '../../src/main/models/kernels';
import { Rng } from '../../src/main/models/rng';
import { checkCounts, checkOptions, exitOnUsageError } from './bench-options';

exitOnUsageError('bench:models', () => {
  checkOptions(['reps', 'models', 'backends'], ['no-ablation']);
  checkCounts(['reps']);
});
const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const REPS = Number(flag('reps') ?? 30);
const MODELS = (flag('models') ?? 'tfidf,skipgram,ltr,fused,mnet-fisher,dae,bow-cnn,cnn,lstm,gru,rcnn,hnil').split(',');
/** Models in plain JS (no tfjs): measured once, backend-independent. */
const PURE_JS = ['tfidf', 'skipgram', 'ltr', 'fused', 'mnet-fisher', 'dae'];

function synthetic(seed: number, nq = 1200) {
  const rng = new Rng(seed);
  const V = 8000;
  // Zipf(1) sampler over V words
  const cum = new Float64Array(V);
  let z = 0;
  for (let i = 0; i < V; i++) cum[i] = z += 1 / (i + 1);
  const word = () => {
    const u = rng.next() * z;
    let lo = 0;
    let hi = V - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid] < u) lo = mid + 1;
      else hi = mid;
    }
    return `w${lo}`;
  };
  const text = (n: number) => Array.from({ length: n }, word).join(' ');
  const questions = new Map<string, QText>();
  // askers (Zipf-ish over nq/4 users), 12 categories and 0–3 answerers per question: hnil's network
  const user = () => `u${Math.floor((nq / 4) * rng.next() ** 2)}`;
  const answerers = new Map<string, string[]>();
  for (let i = 0; i < nq; i++) {
    questions.set(`q${i}`, { id: `q${i}`, title: text(5 + rng.int(8)), body: text(25 + rng.int(60)), category: `c${rng.int(12)}`, user: user() });
    answerers.set(`q${i}`, Array.from({ length: rng.int(4) }, user));
  }
  const ids = [...questions.keys()];
  const positives: Array<[string, string]> = [];
  const negatives: Array<[string, string]> = [];
  for (let i = 0; i < 300; i++) positives.push([ids[rng.int(ids.length)], ids[rng.int(ids.length)]]);
  for (let i = 0; i < 300; i++) negatives.push([positives[i][0], ids[rng.int(ids.length)]]);
  const runs = { engine: new Map<string, Map<string, number>>() };
  for (const [q, c] of [...positives, ...negatives]) {
    let m = runs.engine.get(q);
    if (!m) runs.engine.set(q, (m = new Map()));
    m.set(c, -rng.int(10));
  }
  const data: TrainingData = { questions, positives, negatives, randomPool: ids, extraTexts: Array.from({ length: 2000 }, () => text(30)), runs, answerers };
  return { data, ids, rng };
}

function quantile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
}

interface Row {
  model: string;
  backend: string;
  trainRate: string;
  coldMed: number;
  coldP95: number;
  warmMed: number;
}

async function measure(kind: string, backend: string, fx: ReturnType<typeof synthetic>, emb: ReturnType<SkipGramRanker['vectors']>, extra: Record<string, unknown> = {}): Promise<Row> {
  const neural = ['bow-cnn', 'cnn', 'lstm', 'gru', 'rcnn', 'hnil'].includes(kind);
  const data: TrainingData = neural ? { ...fx.data, positives: fx.data.positives.slice(0, 96) } : fx.data;
  const model: Ranker = await createModel(kind, extra);
  const rep = await model.train(data, { epochs: 1, seed: 1, embeddings: emb });
  const rng = new Rng(99);
  const pick = () => fx.data.questions.get(fx.ids[rng.int(fx.ids.length)])!;
  const ctxFor = (cands: QText[]) => ({ runs: { engine: new Map(cands.map((c, i) => [c.id, -i])) } });
  const cold: number[] = [];
  const warm: number[] = [];
  for (let r = 0; r < REPS + 3; r++) {
    // fresh ids: nothing cached
    const q = { ...pick(), id: `bench-q-${backend}-${r}` };
    const cands = Array.from({ length: 20 }, (_, i) => ({ ...pick(), id: `bench-${backend}-${r}-${i}` }));
    let t = performance.now();
    model.score(q, cands, ctxFor(cands));
    const c = performance.now() - t;
    t = performance.now();
    model.score(q, cands, ctxFor(cands));
    const w = performance.now() - t;
    if (r >= 3) {
      cold.push(c);
      warm.push(w);
    }
  }
  model.dispose();
  return {
    model: kind + (extra.impl ? `(${extra.impl})` : ''),
    backend,
    trainRate: `${rep.examplesPerSecond.toFixed(rep.examplesPerSecond < 100 ? 1 : 0)} ${rep.exampleUnit}/s`,
    coldMed: quantile(cold, 0.5),
    coldP95: quantile(cold, 0.95),
    warmMed: quantile(warm, 0.5),
  };
}

function table(rows: Row[]): string {
  const head = ['model', 'backend', 'training', 'rerank 20 cold median ms', 'cold p95 ms', 'warm median ms'];
  const body = rows.map((r) => [r.model, r.backend, r.trainRate, r.coldMed.toFixed(1), r.coldP95.toFixed(1), r.warmMed.toFixed(2)]);
  const w = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) => '| ' + cells.map((c, i) => c.padEnd(w[i])).join(' | ') + ' |';
  return [line(head), '|' + w.map((x) => '-'.repeat(x + 2)).join('|') + '|', ...body.map(line)].join('\n');
}

/**
 * The gradient of an embedding lookup (gather; its backward is UnsortedSegmentSum) over a
 * 50,000-word × 8 table for 4 ids, as a model's embedding layer takes it each step (median of 5, ms).
 */
function embeddingGradMs(): number {
  const V = 50_000;
  const E = tf.variable(tf.randomNormal([V, 8], 0, 1, 'float32', 3));
  const ids = tf.tensor1d([3, 3, 49_999, 0], 'int32');
  const times: number[] = [];
  for (let r = 0; r < 5; r++) {
    const t0 = performance.now();
    const g = tf.grad((e: tf.Tensor) => tf.sum(tf.gather(e, ids)))(E);
    g.dataSync();
    times.push(performance.now() - t0);
    g.dispose();
  }
  tf.dispose([E, ids]);
  return quantile(times, 0.5);
}

/** One training step of a gated recurrent encoder at the platform-facts size (batch 32 × 40 tokens, emb 200, hidden 400). */
async function recurrentStepMs(kind: 'rcnn' | 'lstm', impl: 'fused' | 'plain'): Promise<number> {
  const { scan } = await import('../../src/main/models/recurrent');
  const { GATES } = await import('../../src/main/models/recurrent');
  const T = 40;
  const B = 32;
  const D = 200;
  const H = 400;
  const G = GATES[kind] * H;
  const NU = kind === 'rcnn' ? H : G;
  const x = tf.randomNormal([T * B, D], 0, 1, 'float32', 1);
  const W = tf.variable(tf.randomNormal([D, G], 0, 0.05, 'float32', 2));
  const U = tf.variable(tf.randomNormal([H, NU], 0, 0.05, 'float32', 3));
  const bias = kind === 'rcnn' ? tf.variable(tf.zeros([H])) : null;
  const mask = new Float32Array(T * B).fill(1);
  const opt = tf.train.adam(1e-3);
  const step = () => {
    const vars = [W, U, ...(bias ? [bias] : [])];
    const { value, grads } = tf.variableGrads(() => {
      const xp = tf.reshape(tf.matMul(x, W), [T, B, G]);
      const hs = scan(kind, { xp, U, bias, mask }, impl);
      return tf.mean(tf.square(tf.mean(hs, 0))) as tf.Scalar;
    }, vars);
    opt.applyGradients(grads as unknown as Record<string, tf.Variable>);
    value.dataSync();
    tf.dispose([value, ...Object.values(grads)]);
  };
  step();
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    step();
    times.push(performance.now() - t);
  }
  tf.dispose([x, W, U, ...(bias ? [bias] : [])]);
  opt.dispose();
  return quantile(times, 0.5);
}

async function main() {
  const avail = await availableBackends();
  const wanted = (flag('backends')?.split(',') as BackendName[] | undefined) ?? avail;
  const backends = wanted.filter((b) => avail.includes(b));
  const fx = synthetic(1);
  const sg = new SkipGramRanker({ epochs: 1 });
  await sg.train(fx.data);
  const emb = sg.vectors();
  const rows: Row[] = [];
  for (const be of backends) {
    await useBackend(be);
    for (const kind of MODELS) {
      if (be !== backends[0] && PURE_JS.includes(kind)) continue; // pure JS, backend-independent
      const row = await measure(kind, PURE_JS.includes(kind) ? 'js' : be, fx, emb);
      rows.push(row);
      console.error(`${row.model} ${row.backend}: ${row.trainRate}, rerank cold ${row.coldMed.toFixed(1)} ms`);
    }
  }
  console.log('\n## Training throughput and reranking 20 candidates\n');
  console.log(table(rows));

  console.log('\n## Embedding-lookup gradient (UnsortedSegmentSum), 50,000 × 8 table, 4 ids (median of 5, ms)\n');
  const grads: string[] = [];
  for (const be of backends) {
    await useBackend(be);
    grads.push(`| ${be} | ${embeddingGradMs().toFixed(1)} |`);
  }
  console.log('| backend | ms |\n|---|---|\n' + grads.join('\n'));

  if (!args.includes('--no-ablation') && avail.includes('wasm')) {
    await useBackend('wasm');
    const abl: Row[] = [];
    for (const kind of ['lstm', 'gru', 'rcnn'].filter((k) => MODELS.includes(k))) abl.push(await measure(kind, 'wasm', fx, emb, { impl: 'plain' }));
    for (const kind of ['bow-cnn', 'lstm'].filter((k) => MODELS.includes(k))) {
      setExplicitTranspose(false);
      const r = await measure(kind, 'wasm', fx, emb);
      setExplicitTranspose(true);
      abl.push({ ...r, model: `${kind} (tfjs transposed matmul)` });
    }
    console.log('\n## Ablations (wasm): plain tfjs recurrences, transposed matmuls in backward\n');
    console.log(table(abl));
    console.log('\n## One training step, batch 32 × 40 tokens, emb 200, hidden 400 (median of 3, ms)\n');
    const lines: string[] = [];
    for (const be of backends) {
      await useBackend(be);
      for (const kind of ['rcnn', 'lstm'] as const) {
        const fused = await recurrentStepMs(kind, 'fused');
        const plain = be === 'cpu' ? NaN : await recurrentStepMs(kind, 'plain');
        let noT = NaN;
        if (be === 'wasm') {
          setExplicitTranspose(false);
          noT = await recurrentStepMs(kind, 'plain');
          setExplicitTranspose(true);
        }
        lines.push(
          `| ${kind} | ${be} | ${fused.toFixed(0)} | ${Number.isNaN(plain) ? '—' : plain.toFixed(0)} | ${Number.isNaN(noT) ? '—' : noT.toFixed(0)} |`,
        );
      }
    }
    console.log('| cell | backend | fused | plain tfjs ops | plain, transposed matmuls |\n|---|---|---|---|---|\n' + lines.join('\n'));
  }
}

await main();
