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
 * `-- --questions N` changes the corpus size, `-- --skip-eval` skips the first part.
 */
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Workspace } from '../../src/main/workspace/workspace';
import { Engine } from '../../src/main/engine/engine';
import { importTuning } from '../../src/main/engine/work';
import { mulberry32 } from '../../src/main/engine/seeded';
import type { JobDone, LabelAck } from '../../src/shared/contract';

const argNum = (name: string, def: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? def : Number(process.argv[i + 1]);
};
const skipEval = process.argv.includes('--skip-eval');

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

/** One import of the corpus through the engine, with or without an annotator labeling meanwhile. */
async function importRun(dir: string, corpus: string, name: string, oneTransaction: boolean, labeling: boolean): Promise<ImportRun> {
  importTuning.oneTransaction = oneTransaction;
  const ws = Workspace.create(path.join(dir, `${name}.qpairs`));
  const PQ = 50;
  const pairs: Array<{ q: string; c: string }> = [];
  ws.transaction(() => {
    ws.createPool({ name: 'p', depth: 20 });
    for (let q = 0; q < PQ; q++) {
      const cands = Array.from({ length: 20 }, (_, i) => `c${q}_${i}`);
      ws.addPoolQuery('p', `q${q}`, cands);
      for (const c of cands) pairs.push({ q: `q${q}`, c });
    }
  });
  const engine = new Engine(ws, { transport: 'http' });
  const t0 = performance.now();
  let done!: (d: JobDone) => void;
  const finished = new Promise<JobDone>((r) => (done = r));
  engine.on('job.done', (d) => {
    if (d.kind === 'import') done(d);
  });
  await engine.invoke('import.start', { format: 'questions-jsonl', sources: [{ path: corpus }] });
  const run: ImportRun = { importSeconds: 0, sent: 0, acked: 0, errors: 0, lost: 0, latencies: [] };
  const acks: Array<{ seq: number; value: string; q: string; c: string }> = [];
  const inflight = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | null = null;
  let send = (): void => {};
  if (labeling) {
    // Label k is due at start + k × 20 ms, whether or not earlier ones were acknowledged; its
    // latency counts from when it was due, so time the event loop spent busy elsewhere (before
    // the request could even be read) counts too, as it would for a keypress sent over HTTP.
    const start = performance.now();
    send = (): void => {
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
    timer = setInterval(send, 1);
  }
  const d = await finished;
  run.importSeconds = (performance.now() - t0) / 1000;
  if (timer) {
    clearInterval(timer);
    if (labeling) send(); // the labels that fell due while the event loop was busy until the end
  }
  await Promise.all([...inflight]);
  if (!d.ok) throw new Error(`import failed: ${d.error}`);
  const stored = ws.db.prepare(`SELECT l.value, l.query_id AS q, l.candidate_id AS c FROM labels l WHERE l.seq = ?`);
  for (const a of acks) {
    const r = stored.get(a.seq) as { value: string; q: string; c: string } | undefined;
    if (!r || r.value !== a.value || r.q !== a.q || r.c !== a.c) run.lost++;
  }
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
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (!skipEval) await evalBench();
await importBench();
