/**
 * `npm run bench:live`: how long the Evaluate screen waits after a keypress. On a pool of
 * 400 queries × 20 candidates with 3 runs (BM25 + two synthetic rankers) and half the pool
 * labeled, it times label.set followed by eval.pool through the engine (what the app does on
 * each label), over 300 keypresses, and prints median and p95. Goal: ≤ 50 ms.
 *
 * Then "label ack during a 200K-question import": an engine on a workspace with a pool imports
 * 200,000 generated questions (questions-jsonl, started through the engine as the app does:
 * `import.start` with a path) while a simulated annotator sends label.set every 20 ms without
 * waiting for the previous ack (latency counted from when each label was due, so a busy event
 * loop counts too); it prints the ack latency (p50/p99/max), errors, labels acked
 * and lost, and the import's duration — with the import as one transaction holding the write
 * gate (the former behaviour, `importTuning.oneTransaction`) and committed in chunks, side by
 * side — and the same import alone in both ways (the chunking and undo-journal overhead).
 * Then "label ack while undoing that import": the corpus imported, then undone through the engine
 * (`import.undo`, the app's Undo last import) while the annotator labels as above — in one transaction
 * holding the write gate (the former behaviour) and in chunks — its ack latency, labels lost and the
 * undo's duration (`--skip-undo` skips it).
 * `-- --questions N` changes the corpus size, `-- --skip-eval` skips the first part.
 *
 * Then "retrain running": keypress latency on SemEval-2016 dev with nothing running vs while a live
 * retrain of `fused` runs in the worker thread (`--skip-retrain` skips it; reads the SemEval dev file from datasets/).
 *
 * In between, "incremental vs full recompute" (issue 14): a pool of `--queries N` (default
 * 4000) × 20 candidates with `--runs R` (default 10) runs, every query labeled, then the same
 * random label changes timed two ways, per label: (1) the metrics layer — IncrementalEvaluator
 * updating the changed query for each run and reading every run's means, vs evaluateRun over all
 * counted queries for each run (rank + evaluate everything: what eval.pool did per label); (2)
 * the engine — label.set + eval.pool from the live cache (live-metrics.ts), vs label.set +
 * evaluatePool (the full recompute, the CLI's path). It checks both ways agree (means within
 * 1e-12; eval.pool results identical), prints the medians and ratios, and with `--json FILE`
 * writes `{"queries", "runs", "incrementalMedianMs", "fullMedianMs", "engine": {…}}` (the top
 * level being (1)). `--skip-incremental` and `--skip-import` skip those parts.
 */
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Workspace } from '../../src/main/workspace/workspace';
import { Engine } from '../../src/main/engine/engine';
import { importTuning } from '../../src/main/engine/work';
import { mulberry32 } from '../../src/main/engine/seeded';
import { parseArgs, type JobDone, type LabelAck, type PoolEvaluation } from '../../src/shared/contract';
import { evaluatePool } from '../../src/main/engine/evaluate';
import { evaluateRun, IncrementalEvaluator, type EvalOptions, type EvalQuery } from '../../src/main/metrics';
import { datasetPath } from './datasets-dir';
import { checkCounts, checkOptions, exitOnUsageError } from './bench-options';

exitOnUsageError('bench:live', () => {
  checkOptions(['queries', 'runs', 'questions', 'json', 'semeval-dev'], ['skip-eval', 'skip-incremental', 'skip-import', 'skip-retrain', 'skip-undo']);
  checkCounts(['queries', 'runs', 'questions']);
});

const argNum = (name: string, def: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? def : Number(process.argv[i + 1]);
};
const argStr = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? undefined : process.argv[i + 1];
};
const skipEval = process.argv.includes('--skip-eval');
const skipIncremental = process.argv.includes('--skip-incremental');
const skipImport = process.argv.includes('--skip-import');
const skipUndo = process.argv.includes('--skip-undo');

async function evalBench(): Promise<void> {
  const Q = 400;
  const C = 20;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-live-'));
  const ws = Workspace.create(path.join(dir, 'live.qpairs'));
  const rnd = mulberry32(42);
  ws.transaction(() => {
    ws.createPool({ name: 'p', depth: C });
    const runs = ['bm25', 'model-a', 'model-b'].map((n) => ws.ensureRun('p', n, 'bench'));
    for (let q = 0; q < Q; q++) {
      const cands = Array.from({ length: C }, (_, i) => `c${q}_${i}`);
      ws.addPoolQuery('p', `q${q}`, cands);
      for (const r of runs) for (const c of cands) ws.setRunScore(r, `q${q}`, c, rnd());
      if (q < Q / 2) for (const c of cands) ws.addLabel({ pool: 'p', queryId: `q${q}`, candidateId: c, annotator: 'gold', value: rnd() < 0.2 ? '1' : '0', origin: 'bench' });
    }
  });
  const engine = new Engine(ws, { transport: 'http' });

  const times: number[] = [];
  const evalOnly: number[] = [];
  for (let i = 0; i < 300; i++) {
    const q = Q / 2 + Math.floor(i / C);
    const c = `c${q}_${i % C}`;
    const t0 = performance.now();
    await engine.invoke('label.set', { pool: 'p', queryId: `q${q}`, candidateId: c, annotator: 'gold', value: rnd() < 0.2 ? '1' : '0' });
    const t1 = performance.now();
    await engine.invoke('eval.pool', { pool: 'p', annotator: 'gold', convention: 'skip' });
    const t2 = performance.now();
    times.push(t2 - t0);
    evalOnly.push(t2 - t1);
  }
  const q = (xs: number[], p: number): number => {
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.min(s.length - 1, Math.floor(p * s.length))]!;
  };
  console.log(`pool ${Q} queries × ${C} candidates, 3 runs, ${Q / 2}–${Q / 2 + 15} labeled queries; 300 keypresses`);
  console.log(`label.set + eval.pool: median ${q(times, 0.5).toFixed(1)} ms, p95 ${q(times, 0.95).toFixed(1)} ms (goal ≤ 50 ms)`);
  console.log(`eval.pool alone:       median ${q(evalOnly, 0.5).toFixed(1)} ms, p95 ${q(evalOnly, 0.95).toFixed(1)} ms`);
  engine.close();
  rmSync(dir, { recursive: true, force: true });
}

// ------------------------------------------------------------------ incremental vs full recompute

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function incrementalBench(): Promise<void> {
  const Q = argNum('queries', 4000);
  const R = argNum('runs', 10);
  const C = 20;
  const jsonFile = argStr('json');
  if (!(Number.isInteger(Q) && Q > 0 && Number.isInteger(R) && R > 0)) throw new Error('--queries and --runs must be positive integers');
  const rnd = mulberry32(14);
  console.log(`\nincremental vs full recompute: ${Q} queries × ${C} candidates × ${R} runs, every query labeled (20% similar)`);

  // (1) the metrics layer
  const queries = Array.from({ length: Q }, (_, q) => ({ queryId: `q${q}`, candidates: Array.from({ length: C }, (_, i) => `c${q}_${i}`) }));
  const runs = Array.from({ length: R }, () => new Map(queries.map((q) => [q.queryId, new Map(q.candidates.map((c) => [c, Math.round(rnd() * 1000) / 10]))])));
  const grades = queries.map((q) => new Map(q.candidates.map((c) => [c, rnd() < 0.2 ? 1 : 0] as [string, number | undefined])));
  const options: EvalOptions = { convention: 'skip', ties: 'pool-order', threshold: 1, ks: [1, 5] };
  let t = performance.now();
  const inc = new IncrementalEvaluator(queries, runs, options);
  queries.forEach((q, i) => inc.setQuery(q.queryId, new Map(grades[i]!), i));
  console.log(`  evaluator built and filled in ${(performance.now() - t).toFixed(0)} ms`);
  // The labeling order: a relabeled query moves to the end (its key grows).
  const order: number[] = queries.map((_, i) => i);
  let key = Q;
  /** One label change: a random candidate of a random query flips, clears ("?" = unjudged) or is set again. */
  const change = (): number => {
    const qi = Math.floor(rnd() * Q);
    const g = grades[qi]!;
    const c = queries[qi]!.candidates[Math.floor(rnd() * C)]!;
    const u = rnd();
    g.set(c, u < 0.1 ? undefined : u < 0.3 ? 1 : 0);
    order.splice(order.indexOf(qi), 1);
    order.push(qi);
    return qi;
  };
  const sink: number[] = []; // the results read, so no timed work is dead code
  const incMs: number[] = [];
  const fullMs: number[] = [];
  let maxDiff = 0;
  const STEPS_INC = 300;
  const STEPS_FULL = 25;
  for (let s = 0; s < STEPS_INC + STEPS_FULL; s++) {
    const qi = change();
    t = performance.now();
    inc.setQuery(queries[qi]!.queryId, new Map(grades[qi]!), key++);
    let acc = 0;
    for (let j = 0; j < R; j++) acc += inc.means(j).MAP;
    const dt = performance.now() - t;
    sink.push(acc);
    if (s < STEPS_INC) {
      incMs.push(dt);
      continue;
    }
    // The full recompute of the same state: every run over every counted query, in labeling order.
    t = performance.now();
    const counted: EvalQuery[] = order.map((i) => ({ queryId: queries[i]!.queryId, candidates: queries[i]!.candidates, grades: grades[i]! }));
    const full = runs.map((run) => evaluateRun(counted, run, options));
    fullMs.push(performance.now() - t);
    full.forEach((f, j) => {
      const m = inc.means(j) as unknown as Record<string, number>;
      for (const name of f.metricNames) maxDiff = Math.max(maxDiff, Math.abs(m[name]! - (f as unknown as Record<string, number>)[name]!));
    });
  }
  if (maxDiff > 1e-12) throw new Error(`incremental and full means differ by ${maxDiff}`);
  const incrementalMedianMs = median(incMs);
  const fullMedianMs = median(fullMs);
  console.log(`  metrics per label: incremental median ${incrementalMedianMs.toFixed(3)} ms (${STEPS_INC} labels), full recompute median ${fullMedianMs.toFixed(1)} ms (${STEPS_FULL} labels): ${(fullMedianMs / incrementalMedianMs).toFixed(0)}× faster (goal ≥ 10×); means agree within ${maxDiff.toExponential(1)}`);

  // (2) the engine: label.set + eval.pool, from the live cache vs the full recompute
  const dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-live-inc-'));
  const ws = Workspace.create(path.join(dir, 'live.qpairs'));
  t = performance.now();
  ws.transaction(() => {
    const pool = ws.createPool({ name: 'p', depth: C, scheme: 'binary', blind: false });
    const ids = runs.map((_, j) => ws.ensureRun('p', `run${j}`, 'bench'));
    const annotator = ws.ensureAnnotator('ann');
    // Plain inserts (what setRunScore and addLabel write, without their per-row checks): a fresh pool.
    const score = ws.db.prepare(`INSERT INTO run_scores(run_id, query_id, candidate_id, score) VALUES (?, ?, ?, ?)`);
    const labelRow = ws.db.prepare(`INSERT INTO labels(pool_id, query_id, candidate_id, annotator_id, value, at, origin) VALUES (?, ?, ?, ?, ?, ?, 'bench')`);
    const at = new Date().toISOString();
    queries.forEach((q, i) => {
      ws.addPoolQuery('p', q.queryId, q.candidates);
      runs.forEach((run, j) => {
        for (const [c, v] of run.get(q.queryId)!) score.run(ids[j], q.queryId, c, v);
      });
      for (const [c, g] of grades[i]!) labelRow.run(pool.id, q.queryId, c, annotator, g === undefined ? '?' : String(g), at);
    });
    ws.touchRuns();
  });
  console.log(`  workspace written in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  const engine = new Engine(ws, { transport: 'http' });
  const evalArgs = { pool: 'p', annotator: 'ann', convention: 'skip' } as const;
  // Each label changes the pair's value (a label equal to the current one writes nothing).
  const current = new Map<string, string>();
  queries.forEach((q, i) => {
    for (const [c, g] of grades[i]!) current.set(c, g === undefined ? '?' : String(g));
  });
  const label = async (): Promise<void> => {
    const qi = Math.floor(rnd() * Q);
    const c = queries[qi]!.candidates[Math.floor(rnd() * C)]!;
    const others = ['1', '0', '?'].filter((v) => v !== current.get(c));
    const value = others[Math.floor(rnd() * others.length)]!;
    current.set(c, value);
    const ack = (await engine.invoke('label.set', { pool: 'p', queryId: queries[qi]!.queryId, candidateId: c, annotator: 'ann', value })) as LabelAck;
    if (ack.seq === null) throw new Error('a label that changes nothing');
  };
  await engine.invoke('eval.pool', evalArgs); // fills the cache
  const engInc: number[] = [];
  const engFull: number[] = [];
  const evalInc: number[] = [];
  const evalFull: number[] = [];
  const ENGINE_INC = 100;
  const ENGINE_FULL = 15;
  let same = true;
  for (let s = 0; s < ENGINE_INC + ENGINE_FULL; s++) {
    t = performance.now();
    await label();
    const t1 = performance.now();
    if (s < ENGINE_INC) {
      const ev = (await engine.invoke('eval.pool', evalArgs)) as PoolEvaluation;
      const t2 = performance.now();
      engInc.push(t2 - t);
      evalInc.push(t2 - t1);
      sink.push(ev.labeledQueries);
    } else {
      // eval.pool's handler before the live cache
      const ev = evaluatePool(ws, parseArgs('eval.pool', evalArgs));
      const t2 = performance.now();
      engFull.push(t2 - t);
      evalFull.push(t2 - t1);
      const live = (await engine.invoke('eval.pool', evalArgs)) as PoolEvaluation;
      same &&= JSON.stringify(live) === JSON.stringify(ev);
    }
  }
  const stats = { ...engine.liveEvaluations.stats };
  engine.close();
  rmSync(dir, { recursive: true, force: true });
  if (!same) throw new Error('eval.pool from the live cache differs from the full recompute');
  const engine2 = {
    incrementalMedianMs: median(engInc),
    fullMedianMs: median(engFull),
    evalPoolIncrementalMedianMs: median(evalInc),
    evalPoolFullMedianMs: median(evalFull),
  };
  console.log(
    `  label.set + eval.pool: live cache median ${engine2.incrementalMedianMs.toFixed(1)} ms (${ENGINE_INC} labels), full recompute median ${engine2.fullMedianMs.toFixed(1)} ms (${ENGINE_FULL} labels): ${(engine2.fullMedianMs / engine2.incrementalMedianMs).toFixed(1)}× faster`,
  );
  console.log(
    `  eval.pool alone:       live cache median ${engine2.evalPoolIncrementalMedianMs.toFixed(1)} ms, full recompute median ${engine2.evalPoolFullMedianMs.toFixed(1)} ms: ${(engine2.evalPoolFullMedianMs / engine2.evalPoolIncrementalMedianMs).toFixed(1)}× faster; identical results (cache: ${stats.updates} updates, ${stats.rebuilds} rebuilds)`,
  );
  console.log('  (eval.pool also returns the learning curve, a point per labeled query and run: the live cache rebuilds it from the relabeled query\'s old place on)');
  const out = { queries: Q, runs: R, incrementalMedianMs, fullMedianMs, engine: engine2 };
  console.log(JSON.stringify(out));
  if (jsonFile) writeFileSync(jsonFile, JSON.stringify(out, null, 2) + '\n');
}

// ------------------------------------------------------------------ label ack during a big import

const N_QUESTIONS = argNum('questions', 200_000);
const LABEL_EVERY_MS = 20;

/**
 * Questions shaped like the shared data (as scripts/bench/bm25.ts generates them, without needing
 * the data): Zipf-distributed words over a vocabulary growing with the corpus, titles of 4–14
 * words, bodies of 20–120, about 500 characters a question.
 */
async function writeCorpus(file: string, n: number): Promise<void> {
  const rnd = mulberry32(20160301);
  const V = 400_000;
  const lnV = Math.log(V + 1);
  const word = (): string => {
    let r = Math.floor(Math.exp(rnd() * lnV)) - 1;
    let s = '';
    do {
      s += String.fromCharCode(97 + (r % 26));
      r = Math.floor(r / 26);
    } while (r > 0 || s.length < 2);
    return s;
  };
  const words = (k: number): string => Array.from({ length: k }, word).join(' ');
  const out = createWriteStream(file);
  for (let i = 0; i < n; i++) {
    const line = JSON.stringify({ id: `b${i}`, title: words(4 + Math.floor(rnd() * 11)), body: words(20 + Math.floor(rnd() * 101)), tags: ['bench'] }) + '\n';
    if (!out.write(line)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((r) => out.end(r));
}

interface ImportRun {
  importSeconds: number;
  sent: number;
  acked: number;
  errors: number;
  lost: number;
  latencies: number[];
}

/** A new workspace `name` in dir with pool p (50 queries of 20 candidates) and its 1,000 pairs, which startLabeling labels in turn. */
function labelingWorkspace(dir: string, name: string): { ws: Workspace; pairs: Array<{ q: string; c: string }> } {
  const ws = Workspace.create(path.join(dir, `${name}.qpairs`));
  const pairs: Array<{ q: string; c: string }> = [];
  ws.transaction(() => {
    ws.createPool({ name: 'p', depth: 20 });
    for (let q = 0; q < 50; q++) {
      const cands = Array.from({ length: 20 }, (_, i) => `c${q}_${i}`);
      ws.addPoolQuery('p', `q${q}`, cands);
      for (const c of cands) pairs.push({ q: `q${q}`, c });
    }
  });
  return { ws, pairs };
}

/**
 * An annotator labeling pool p's pairs every LABEL_EVERY_MS without waiting for acks
 * until `stop()`, which waits for the labels in flight and checks every acknowledged label is stored.
 */
function startLabeling(engine: Engine, ws: Workspace, pairs: Array<{ q: string; c: string }>, run: ImportRun): { stop(): Promise<void> } {
  const acks: Array<{ seq: number; value: string; q: string; c: string }> = [];
  const inflight = new Set<Promise<void>>();
  // Label k is due at start + k × 20 ms, whether or not earlier ones were acknowledged; its
  // latency counts from when it was due, so time the event loop spent busy elsewhere (before
  // the request could even be read) counts too, as it would for a keypress sent over HTTP.
  const start = performance.now();
  const send = (): void => {
    while (start + run.sent * LABEL_EVERY_MS <= performance.now()) {
      const k = run.sent++;
      const due = start + k * LABEL_EVERY_MS;
      const { q, c } = pairs[k % pairs.length]!;
      const value = Math.floor(k / pairs.length) % 2 === 0 ? '1' : '0'; // each visit flips the pair: every label is a new event
      const p = (engine.invoke('label.set', { pool: 'p', queryId: q, candidateId: c, annotator: 'ann', value }) as Promise<LabelAck>)
        .then((ack) => {
          run.latencies.push(performance.now() - due);
          run.acked++;
          if (ack.seq) acks.push({ seq: ack.seq, value, q, c });
        })
        .catch(() => void run.errors++)
        .finally(() => inflight.delete(p));
      inflight.add(p);
    }
  };
  const timer = setInterval(send, 1);
  return {
    async stop() {
      clearInterval(timer);
      send(); // the labels that fell due while the event loop was busy until the end
      await Promise.all([...inflight]);
      const stored = ws.db.prepare(`SELECT l.value, l.query_id AS q, l.candidate_id AS c FROM labels l WHERE l.seq = ?`);
      for (const a of acks) {
        const r = stored.get(a.seq) as { value: string; q: string; c: string } | undefined;
        if (!r || r.value !== a.value || r.q !== a.q || r.c !== a.c) run.lost++;
      }
    },
  };
}

/**
 * The corpus imported (chunked, no one labeling), then undone through the engine (`import.undo`, as
 * the app's Undo last import) while an annotator labels: in one transaction holding the write gate
 * (the former behaviour, `importTuning.oneTransaction`) or in chunks.
 */
async function undoRun(dir: string, corpus: string, name: string, oneTransaction: boolean): Promise<ImportRun> {
  importTuning.oneTransaction = false;
  const { ws, pairs } = labelingWorkspace(dir, name);
  const engine = new Engine(ws, { transport: 'http' });
  const jobDone = (kind: string): Promise<JobDone> => new Promise((r) => engine.on('job.done', (d) => d.kind === kind && r(d)));
  const imported = jobDone('import');
  await engine.invoke('import.start', { format: 'questions-jsonl', sources: [{ path: corpus }] });
  const i = await imported;
  if (!i.ok) throw new Error(`import failed: ${i.error}`);
  importTuning.oneTransaction = oneTransaction;
  const run: ImportRun = { importSeconds: 0, sent: 0, acked: 0, errors: 0, lost: 0, latencies: [] };
  const undone = jobDone('undo');
  const t0 = performance.now();
  await engine.invoke('import.undo', {});
  const labeling = startLabeling(engine, ws, pairs, run);
  const d = await undone;
  run.importSeconds = (performance.now() - t0) / 1000;
  await labeling.stop();
  importTuning.oneTransaction = false;
  if (!d.ok) throw new Error(`undo failed: ${d.error}`);
  const n = ws.questionCount();
  if (n !== 0) throw new Error(`expected no questions after the undo, found ${n}`);
  engine.close();
  for (const s of ['', '-wal', '-shm']) rmSync(path.join(dir, `${name}.qpairs${s}`), { force: true });
  return run;
}

/** One import of the corpus through the engine, with or without an annotator labeling meanwhile. */
async function importRun(dir: string, corpus: string, name: string, oneTransaction: boolean, labeling: boolean): Promise<ImportRun> {
  importTuning.oneTransaction = oneTransaction;
  const { ws, pairs } = labelingWorkspace(dir, name);
  const engine = new Engine(ws, { transport: 'http' });
  const t0 = performance.now();
  let done!: (d: JobDone) => void;
  const finished = new Promise<JobDone>((r) => (done = r));
  engine.on('job.done', (d) => {
    if (d.kind === 'import') done(d);
  });
  await engine.invoke('import.start', { format: 'questions-jsonl', sources: [{ path: corpus }] });
  const run: ImportRun = { importSeconds: 0, sent: 0, acked: 0, errors: 0, lost: 0, latencies: [] };
  const labeler = labeling ? startLabeling(engine, ws, pairs, run) : null;
  const d = await finished;
  run.importSeconds = (performance.now() - t0) / 1000;
  await labeler?.stop();
  if (!d.ok) throw new Error(`import failed: ${d.error}`);
  const n = ws.questionCount();
  if (n !== N_QUESTIONS) throw new Error(`expected ${N_QUESTIONS} questions, found ${n}`);
  engine.close();
  for (const s of ['', '-wal', '-shm']) rmSync(path.join(dir, `${name}.qpairs${s}`), { force: true });
  return run;
}

async function importBench(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-live-import-'));
  try {
    const corpus = path.join(dir, 'questions.jsonl');
    let t = performance.now();
    await writeCorpus(corpus, N_QUESTIONS);
    const k = N_QUESTIONS.toLocaleString('en-US');
    console.log(`\nlabel ack during a ${N_QUESTIONS >= 1000 ? `${Math.round(N_QUESTIONS / 1000)}K` : k}-question import (${k} generated questions, questions-jsonl, corpus written in ${((performance.now() - t) / 1000).toFixed(1)} s); an annotator sends label.set every ${LABEL_EVERY_MS} ms`);
    const modes = [
      { name: 'one transaction (before)', one: true },
      { name: 'chunked (after)', one: false },
    ];
    const withLabels: ImportRun[] = [];
    const alone: ImportRun[] = [];
    for (const m of modes) withLabels.push(await importRun(dir, corpus, `labels-${m.one}`, m.one, true));
    for (const m of modes) alone.push(await importRun(dir, corpus, `alone-${m.one}`, m.one, false));
    importTuning.oneTransaction = false;
    const pct = (xs: number[], p: number): string => {
      if (xs.length === 0) return '-';
      const s = [...xs].sort((a, b) => a - b);
      return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)]!.toFixed(1);
    };
    const rows: string[][] = [
      ['', ...modes.map((m) => m.name)],
      ['label ack p50, ms', ...withLabels.map((r) => pct(r.latencies, 0.5))],
      ['label ack p99, ms', ...withLabels.map((r) => pct(r.latencies, 0.99))],
      ['label ack max, ms', ...withLabels.map((r) => pct(r.latencies, 1))],
      ['labels sent / acked', ...withLabels.map((r) => `${r.sent} / ${r.acked}`)],
      ['errors (refused)', ...withLabels.map((r) => String(r.errors))],
      ['acknowledged labels lost', ...withLabels.map((r) => String(r.lost))],
      ['import duration while labeling, s', ...withLabels.map((r) => r.importSeconds.toFixed(2))],
      ['import alone, s', ...alone.map((r) => r.importSeconds.toFixed(2))],
    ];
    const w = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
    for (const [i, r] of rows.entries()) {
      console.log(`| ${r.map((x, c) => (c === 0 ? x.padEnd(w[c]!) : x.padStart(w[c]!))).join(' | ')} |`);
      if (i === 0) console.log(`|${w.map((x) => '-'.repeat(x + 2)).join('|')}|`);
    }
    t = alone[1]!.importSeconds / alone[0]!.importSeconds;
    console.log(`chunked import alone takes ${t.toFixed(2)}× the one-transaction import (chunk commits, undo journal, segmented BM25 indexing)`);
    if (skipUndo) return;
    // Then "label ack during the undo": the same corpus imported, then undone (import.undo) while labeling.
    const undos: ImportRun[] = [];
    for (const m of modes) undos.push(await undoRun(dir, corpus, `undo-${m.one}`, m.one));
    console.log(`\nlabel ack while undoing that import (import.undo through the engine; an annotator sends label.set every ${LABEL_EVERY_MS} ms)`);
    const undoRows: string[][] = [
      ['', ...modes.map((m) => m.name)],
      ['label ack p50, ms', ...undos.map((r) => pct(r.latencies, 0.5))],
      ['label ack p99, ms', ...undos.map((r) => pct(r.latencies, 0.99))],
      ['label ack max, ms', ...undos.map((r) => pct(r.latencies, 1))],
      ['labels sent / acked', ...undos.map((r) => `${r.sent} / ${r.acked}`)],
      ['errors (refused)', ...undos.map((r) => String(r.errors))],
      ['acknowledged labels lost', ...undos.map((r) => String(r.lost))],
      ['undo duration while labeling, s', ...undos.map((r) => r.importSeconds.toFixed(2))],
    ];
    const uw = undoRows[0]!.map((_, c) => Math.max(...undoRows.map((r) => r[c]!.length)));
    for (const [i, r] of undoRows.entries()) {
      console.log(`| ${r.map((x, c) => (c === 0 ? x.padEnd(uw[c]!) : x.padStart(uw[c]!))).join(' | ')} |`);
      if (i === 0) console.log(`|${uw.map((x) => '-'.repeat(x + 2)).join('|')}|`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ------------------------------------------------------------------ keypresses while a live retrain runs

const skipRetrain = process.argv.includes('--skip-retrain');

/**
 * "Retrain running" (issue 10): SemEval-2016 dev (50 × 10, gold labels) imported, live retraining of
 * `fused` on; a simulated annotator relabels pairs (label.set + eval.pool, one keypress after the
 * other) first with nothing running, then while a retrain runs in the worker thread — side by side.
 */
async function retrainBench(): Promise<void> {
  const { runImport } = await import('../../src/main/engine/work');
  const file = argStr('semeval-dev') ?? datasetPath('semeval2016-task3/SemEval2016-Task3-CQA-QL-dev.xml');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-live-retrain-'));
  try {
    const ws = Workspace.create(path.join(dir, 'dev.qpairs'));
    await runImport(ws, 'semeval', [file], { pool: 'dev' });
    const engine = new Engine(ws, { transport: 'http' });
    const gold = ws.currentLabels('dev', 'gold');
    let k = 0;
    const keypress = async (): Promise<number> => {
      const l = gold[k++ % gold.length]!;
      const t0 = performance.now();
      await engine.invoke('label.set', { pool: 'dev', queryId: l.queryId, candidateId: l.candidateId, annotator: 'ann', value: l.value });
      await engine.invoke('eval.pool', { pool: 'dev', annotator: 'gold', convention: 'zero' });
      return performance.now() - t0;
    };
    const idle: number[] = [];
    for (let i = 0; i < 200; i++) idle.push(await keypress());
    await engine.invoke('live.set', { pool: 'dev', enabled: true, everyLabels: 10_000, idleSeconds: 0 });
    const done = new Promise<JobDone>((resolve) => engine.on('job.done', (d) => d.kind === 'live' && resolve(d)));
    let finished = false;
    void done.then(() => (finished = true));
    const t = performance.now();
    await engine.invoke('live.retrain', { pool: 'dev' });
    const busy: number[] = [];
    while (!finished) {
      busy.push(await keypress());
      await new Promise((r) => setTimeout(r, 20)); // a fast annotator: a keypress every ~20 ms
    }
    const d = await done;
    const retrainSeconds = (performance.now() - t) / 1000;
    const q = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
    console.log(`\nkeypress → label saved + metrics updated, SemEval-2016 dev (50 × 10), live retraining of fused on`);
    console.log(`| while | keypresses | median ms | p95 ms | max ms |\n|---|---|---|---|---|`);
    console.log(`| nothing runs | ${idle.length} | ${q(idle, 0.5).toFixed(1)} | ${q(idle, 0.95).toFixed(1)} | ${Math.max(...idle).toFixed(1)} |`);
    console.log(`| retrain running | ${busy.length} | ${q(busy, 0.5).toFixed(1)} | ${q(busy, 0.95).toFixed(1)} | ${Math.max(...busy).toFixed(1)} |`);
    console.log(`retrain ${d.ok ? 'finished' : `failed (${d.error})`} in ${retrainSeconds.toFixed(1)} s (worker thread); p95 ratio busy/idle ${(q(busy, 0.95) / q(idle, 0.95)).toFixed(2)}`);
    await engine.jobs.idle();
    engine.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (!skipEval) await evalBench();
if (!skipRetrain) await retrainBench();
if (!skipIncremental) await incrementalBench();
if (!skipImport) await importBench();
