import { describe, expect, it } from 'vitest';
import { LtrRanker } from './ltr';
import { modelSuite } from './model-suite';
import { goodAndNoiseRuns, withTopicRun } from './test-data';

describe('ltr', () => {
  modelSuite({
    kind: 'ltr',
    config: { embeddingEpochs: 2, epochs: 60 },
    epochs: 60,
    tfjs: false,
    prepare: withTopicRun,
  });

  it('fuses runs: the informative run gets the largest weight, missing runs are tolerated', async () => {
    const { data } = goodAndNoiseRuns();
    const questions = data.questions;
    const m = new LtrRanker({ lexical: false, overlap: false, embedding: false, epochs: 200 });
    await m.train(data);
    const w = m.weights();
    expect(w['run:good:minmax'] + w['run:good:rr']).toBeGreaterThan(Math.abs(w['run:noise:minmax']) + Math.abs(w['run:noise:rr']));
    const q = questions.get('q0')!;
    const cands = ['q0c0', 'q0c3'].map((id) => questions.get(id)!);
    expect(m.score(q, cands).every(Number.isFinite)).toBe(true); // no runs given at all
    expect(m.score(q, [])).toEqual([]);
  });

  it('rejects pairs whose texts are missing', async () => {
    const m = new LtrRanker({ embedding: false });
    await expect(m.train({ questions: new Map(), positives: [['a', 'b']], randomPool: [] })).rejects.toThrow(/missing/);
  });
});
