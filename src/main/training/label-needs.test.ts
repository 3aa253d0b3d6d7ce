/**
 * Which trainings need which labels. Two journeys that went wrong:
 * - dae and mnet-fisher read no label (the README calls them unsupervised), yet on a workspace
 *   without labels (plain JSONL questions) or with a pool labeled all non-relevant they were
 *   refused: "the workspace has no user-marked duplicate pairs to train on".
 * - ltr and fused trained on a pool labeled all relevant (or on marked duplicates alone) learned
 *   nothing — every weight 0, every score 0 — and were stored and reported as trained, with a
 *   held-out MRR of 100.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Workspace } from '../workspace/workspace';
import { importFiles } from '../import';
import { findModel } from './store';
import { trainModel } from './train';
import { retrainLive } from './live-retrain';

let dir: string;
let file: string;
const topic = (t: number, n: number, salt: number) => Array.from({ length: n }, (_, i) => `t${t}w${(i * 7 + salt) % 15}`).join(' ');

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-label-needs-'));
  file = path.join(dir, 'w.qpairs');
  const ws = Workspace.create(file);
  const qs = Array.from({ length: 40 }, (_, i) => ({ id: `q${i}`, title: topic(i % 4, 5, i), body: topic(i % 4, 30, i * 3) }));
  const qf = path.join(dir, 'q.jsonl');
  writeFileSync(qf, qs.map((q) => JSON.stringify(q)).join('\n') + '\n');
  await importFiles(ws, 'questions-jsonl', [qf]);
  const labels = (rel: (q: number, c: number) => number) =>
    Array.from({ length: 6 }, (_, q) => [4, 8, 9, 13].map((d) => ({ query_id: `q${q}`, candidate_id: `q${q + d + 6}`, label: rel(q, q + d + 6) }))).flat();
  for (const [pool, rel] of [
    ['allrel', () => 1],
    ['norel', () => 0],
  ] as const) {
    const f = path.join(dir, `${pool}.jsonl`);
    writeFileSync(f, labels(rel).map((l) => JSON.stringify(l)).join('\n') + '\n');
    await importFiles(ws, 'labels-jsonl', [f], { pool, annotator: 'gold' });
  }
  ws.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('models that read no label train without labels', () => {
  it('dae trains on a workspace with no labels at all, and on a pool labeled all non-relevant', async () => {
    const ws = Workspace.open(file);
    try {
      const config = { hidden: 8, vocabSize: 200, epochs: 1 };
      const a = await trainModel(ws, { model: 'dae', name: 'dae-plain', config }, { workerPath: null });
      expect(a.training.positives).toBe(0);
      expect(findModel(ws, 'dae-plain')).not.toBeNull();
      await trainModel(ws, { model: 'dae', name: 'dae-norel', trainPools: ['norel'], config }, { workerPath: null });
      expect(findModel(ws, 'dae-norel')).not.toBeNull();
    } finally {
      ws.close();
    }
  });

  it('mnet-fisher trains on a workspace with no labels', async () => {
    const ws = Workspace.open(file);
    try {
      await trainModel(ws, { model: 'mnet-fisher', name: 'mf-plain', config: { categoryWeight: 0, components: 2, dim: 8, epochs: 1 } }, { workerPath: null });
      expect(findModel(ws, 'mf-plain')).not.toBeNull();
    } finally {
      ws.close();
    }
  });

  it('a supervised model is still refused without relevant pairs', async () => {
    const ws = Workspace.open(file);
    try {
      await expect(trainModel(ws, { model: 'gru', name: 'gru-plain', config: { epochs: 1 } }, { workerPath: null })).rejects.toThrow(/no user-marked duplicate pairs to train on/);
      await expect(trainModel(ws, { model: 'hnil', name: 'hnil-norel', trainPools: ['norel'] }, { workerPath: null })).rejects.toThrow(/no similar labeled pair/);
    } finally {
      ws.close();
    }
  });
});

describe('ltr and fused need queries with both relevant and non-relevant candidates', () => {
  for (const model of ['ltr', 'fused'] as const) {
    it(`${model} on a pool labeled all relevant is refused and stores nothing (before: all scores 0, "held-out MRR 100")`, async () => {
      const ws = Workspace.open(file);
      try {
        await expect(trainModel(ws, { model, name: `${model}-allrel`, trainPools: ['allrel'], config: model === 'ltr' ? { embedding: false } : {} }, { workerPath: null })).rejects.toThrow(
          `${model}: none of the 6 labeled training queries have both a similar and a not-similar candidate (24 similar, 0 not-similar pairs)`,
        );
        expect(findModel(ws, `${model}-allrel`)).toBeNull();
      } finally {
        ws.close();
      }
    });
  }
});

describe('live retraining (fused) on labels without contrast', () => {
  it('skips a fold whose training part has no query with both kinds of candidate, and refuses a pool with none', async () => {
    const ws = Workspace.open(file);
    try {
      // Pool onemix: only q0 has both a relevant and a non-relevant candidate; the fold holding q0
      // out has nothing to learn (before: it trained a model scoring everything 0; with fused now
      // refusing such data, the whole retrain would fail).
      const f = path.join(dir, 'onemix.jsonl');
      const rows = Array.from({ length: 6 }, (_, q) => [4, 8, 9, 13].map((d, i) => ({ query_id: `q${q}`, candidate_id: `q${q + d + 6}`, label: q === 0 && i >= 2 ? 0 : 1 }))).flat();
      writeFileSync(f, rows.map((l) => JSON.stringify(l)).join('\n') + '\n');
      await importFiles(ws, 'labels-jsonl', [f], { pool: 'onemix', annotator: 'gold' });
      const config = { ppmi: false, importanceRepeats: 0 };
      const r = await retrainLive(ws, 'onemix', { model: 'fused', config, trainPools: [], runName: 'live-fused' }, { workerPath: null });
      expect(r.trainedQueries).toBe(6);
      expect(r.heldOutQueries).toBeLessThan(6);
      // The fold holding q0 out had nothing to learn from: its queries stay unscored (a model trained on
      // them would score them in-sample), the others are scored by their folds' models.
      expect(r.unscoredQueries).toContain('q0');
      expect(r.scores.size).toBe(6 - r.unscoredQueries.length);
      await expect(retrainLive(ws, 'allrel', { model: 'fused', config, trainPools: [], runName: 'live-fused' }, { workerPath: null })).rejects.toThrow(
        'fused: none of the 6 labeled training queries have both a similar and a not-similar candidate',
      );
    } finally {
      ws.close();
    }
  });
});
