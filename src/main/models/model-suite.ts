/**
 * Shared vitest checks for every trainable model (imported by the *.test.ts files):
 * overfits a tiny labeled set, deterministic for a seed, save/load scores identically, and
 * (tfjs models) no tensor leak across score() calls or training epochs.
 */
import { expect, it } from 'vitest';
import * as tf from '@tensorflow/tfjs-core';
import { evaluateRanker } from './dev-eval';
import { createModel, loadModel } from './registry';
import { syntheticData } from './test-data';
import type { ModelId, QText, Ranker, TrainOptions, TrainReport } from './types';

export interface SuiteOptions {
  kind: ModelId;
  config: Record<string, unknown>;
  epochs: number;
  tfjs: boolean;
  /** Extra training options (e.g. runs for ltr are put in the data by `prepare`). */
  prepare?: (d: ReturnType<typeof syntheticData>) => { opts?: TrainOptions; ctx?: (q: QText) => Parameters<Ranker['score']>[2] };
  /** Whether the training loss must fall (false for models without a loss, e.g. tfidf). */
  lossFalls?: boolean;
  /** Dev MRR the trained model must reach on the training topics (default 1: positives first). */
  minMRR?: number;
}

export function modelSuite(o: SuiteOptions): void {
  const fx = syntheticData(5);
  const prep = o.prepare?.(fx) ?? {};
  const ctxOf = prep.ctx ?? (() => undefined);
  const scoreAll = (m: Ranker) => fx.dev.queries.map((q) => m.score(q.query, q.candidates, ctxOf(q.query)));
  let first: { model: Ranker; report: TrainReport; tensorsAtEpochEnd: number[] } | null = null;

  const train = async (seed: number) => {
    const model = await createModel(o.kind, o.config);
    const tensorsAtEpochEnd: number[] = [];
    const report = await model.train(fx.data, {
      ...prep.opts,
      epochs: o.epochs,
      seed,
      onProgress: (p) => {
        if (p.step === p.steps && !p.phase && o.tfjs) tensorsAtEpochEnd.push(tf.memory().numTensors);
      },
    });
    return { model, report, tensorsAtEpochEnd };
  };

  it(`${o.kind}: learns the tiny labeled set (loss falls, positives rank first)`, async () => {
    first = await train(3);
    const h = first.report.history;
    expect(h.length).toBe(o.epochs);
    if (o.lossFalls !== false) expect(h[h.length - 1].loss).toBeLessThan(h[0].loss);
    const dev = { queries: fx.dev.queries.map((q) => ({ ...q, context: ctxOf(q.query) })) };
    const { mrr } = evaluateRanker(first.model, dev);
    expect(mrr).toBeGreaterThanOrEqual(o.minMRR ?? 1);
  });

  it(`${o.kind}: deterministic for a seed`, async () => {
    const again = await train(3);
    expect(scoreAll(again.model)).toEqual(scoreAll(first!.model));
    again.model.dispose();
  });

  it(`${o.kind}: save/load gives identical scores`, async () => {
    const saved = first!.model.save();
    expect(saved.kind).toBe(o.kind);
    expect(JSON.parse(JSON.stringify(saved.config))).toEqual(saved.config);
    const loaded = await loadModel(structuredClone(saved));
    expect(scoreAll(loaded)).toEqual(scoreAll(first!.model));
    loaded.dispose();
  });

  if (o.tfjs) {
    it(`${o.kind}: tensor count does not grow across score() calls or epochs`, () => {
      const t = first!.tensorsAtEpochEnd;
      expect(t.length).toBe(o.epochs);
      // epoch 1 creates the optimiser state; afterwards the count is constant
      for (let e = 2; e < t.length; e++) expect(t[e]).toBe(t[1]);
      const q = fx.dev.queries[0];
      const before = tf.memory().numTensors;
      for (let k = 0; k < 3; k++) {
        // fresh ids each time so nothing comes from the encoding cache
        first!.model.score({ ...q.query, id: `fresh-q-${k}` }, q.candidates.map((c) => ({ ...c, id: `fresh-${k}-${c.id}` })), ctxOf(q.query));
        expect(tf.memory().numTensors).toBe(before);
      }
      first!.model.dispose();
    });
  }
}
