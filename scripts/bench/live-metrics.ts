/**
 * `npm run bench:live`: how long the Evaluate screen waits after a keypress. On a pool of
 * 400 queries × 20 candidates with 3 runs (BM25 + two synthetic rankers) and half the pool
 * labeled, it times label.set followed by eval.pool through the engine (what the app does on
 * each label), over 300 keypresses, and prints median and p95. Goal: ≤ 50 ms.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Workspace } from '../../src/main/workspace/workspace';
import { Engine } from '../../src/main/engine/engine';
import { mulberry32 } from '../../src/main/engine/seeded';

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
