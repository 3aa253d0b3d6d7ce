/**
 * The dev figures of a training follow the dev pool's convention, as `eval` does. A pool evaluated
 * with `skip` (AskUbuntu's) leaves out queries without a relevant candidate; training with it as
 * dev pool counted them as 0: a tfidf reported "dev MAP 34.00" (and `models list` kept it) where
 * `qpairs eval` gave the same run of the same pool 68.00.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Workspace } from '../workspace/workspace';
import { importFiles } from '../import';
import { Engine } from '../engine/engine';
import { scorePool, trainModel } from './train';

let dir: string;
let file: string;
const text = (k: number) => Array.from({ length: 20 }, (_, i) => `w${(k * 13 + i * 7) % 97}`).join(' ');

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-dev-convention-'));
  file = path.join(dir, 'w.qpairs');
  const ws = Workspace.create(file);
  const qf = path.join(dir, 'q.jsonl');
  writeFileSync(qf, Array.from({ length: 30 }, (_, k) => JSON.stringify({ id: `q${k}`, title: `t ${k % 5}`, body: text(k % 5) + ' ' + text(k) })).join('\n') + '\n');
  await importFiles(ws, 'questions-jsonl', [qf]);
  // tr: every query has relevant candidates; dv: queries q20–q22 have none.
  const labels = (queries: number[], none: number[] = []) =>
    queries.flatMap((q) => [5, 10, 1, 2].map((d, i) => JSON.stringify({ query_id: `q${q}`, candidate_id: `q${(q + d) % 30}`, label: i < 2 && !none.includes(q) ? 1 : 0 }))).join('\n') + '\n';
  writeFileSync(path.join(dir, 'tr.jsonl'), labels([0, 1, 2, 3]));
  writeFileSync(path.join(dir, 'dv.jsonl'), labels([20, 21, 22, 23, 24, 26], [20, 21, 22]));
  writeFileSync(path.join(dir, 'none.jsonl'), labels([15, 16], [15, 16]));
  await importFiles(ws, 'labels-jsonl', [path.join(dir, 'tr.jsonl')], { pool: 'tr', annotator: 'gold' });
  await importFiles(ws, 'labels-jsonl', [path.join(dir, 'dv.jsonl')], { pool: 'dv', annotator: 'gold' });
  await importFiles(ws, 'labels-jsonl', [path.join(dir, 'none.jsonl')], { pool: 'none', annotator: 'gold' });
  ws.setPoolConvention('dv', 'skip');
  ws.setPoolConvention('none', 'skip');
  ws.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('dev figures under the dev pool convention', () => {
  it('a skip dev pool: the dev MAP and MRR of training are the ones eval gives the run', async () => {
    const ws = Workspace.open(file);
    try {
      const { report } = await trainModel(ws, { model: 'tfidf', name: 'tf', trainPools: ['tr'], devPool: 'dv' }, { workerPath: null });
      await scorePool(ws, 'tf', 'dv', { workerPath: null });
      const engine = new Engine(ws, { transport: 'http' });
      try {
        const ev = (await engine.invoke('eval.pool', { pool: 'dv' })) as { convention: string; runs: Record<string, { queries: number; MAP: number | null; MRR: number | null }> };
        expect(ev.convention).toBe('skip');
        const run = ev.runs['tf']!;
        expect(run.queries).toBe(3);
        expect(report.bestDevMAP).toBeCloseTo(run.MAP!, 10);
        expect(report.bestDevMRR).toBeCloseTo(run.MRR!, 10);
      } finally {
        engine.close();
      }
    } finally {
      ws.close();
    }
  });

  it('a skip dev pool without any relevant candidate is refused, saying why', async () => {
    const ws = Workspace.open(file);
    try {
      await expect(trainModel(ws, { model: 'tfidf', name: 'tf2', trainPools: ['tr'], devPool: 'none' }, { workerPath: null })).rejects.toThrow(
        'dev pool "none" has no labeled query with a relevant candidate (its convention, skip, leaves out the others)',
      );
    } finally {
      ws.close();
    }
  });
});
