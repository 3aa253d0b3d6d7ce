import { describe, expect, it } from 'vitest';
import { FusedRanker } from './fused';
import { loadModel } from './registry';
import { modelSuite } from './model-suite';
import { goodAndNoiseRuns, syntheticData, withTopicRun } from './test-data';
import type { QText } from './types';

const SMALL = { ppmiDim: 8, ppmiMinCount: 1, ppmiWindow: 3, importanceRepeats: 2 };

const CATEGORIES = ['net', 'cars', 'visa'];

/** syntheticData(5) with its questions spread over CATEGORIES, in turn. */
function categorizedData(): ReturnType<typeof syntheticData> {
  const fx = syntheticData(5);
  let k = 0;
  const qs = fx.data.questions as Map<string, QText>;
  for (const [id, q] of qs) qs.set(id, { ...q, category: CATEGORIES[k++ % CATEGORIES.length] });
  return fx;
}

describe('fused (RankSVM)', () => {
  modelSuite({ kind: 'fused', config: { ...SMALL, learner: 'ranksvm', C: 0.1 }, epochs: 20, tfjs: false, prepare: withTopicRun });
});

describe('fused (LambdaMART)', () => {
  modelSuite({ kind: 'fused', config: { ...SMALL, learner: 'lambdamart', minLeaf: 2, learningRate: 0.3 }, epochs: 15, tfjs: false, prepare: withTopicRun });
});

describe('fused', () => {
  it('keeps feature importance in the saved model: the informative run matters, the noise run does not', async () => {
    const { data, good, noise } = goodAndNoiseRuns();
    const questions = data.questions;
    const m = new FusedRanker({ ...SMALL, importanceRepeats: 3 });
    await m.train(data, { epochs: 30 });
    const names = m.featureNames();
    expect(names).toContain('ppmi:cos');
    expect(names).toContain('meta:category');
    const saved = m.save();
    const imp = saved.meta!.importance as Array<{ feature: string; importance: number }>;
    expect(imp.map((x) => x.feature)).toEqual(names);
    const of = (f: string) => imp.find((x) => x.feature === f)!.importance;
    expect(Math.max(of('run:good:rr'), of('run:good:minmax'))).toBeGreaterThan(0.05);
    expect(Math.max(of('run:good:rr'), of('run:good:minmax'))).toBeGreaterThan(5 * Math.max(0, of('run:noise:rr'), of('run:noise:minmax')));
    const q = questions.get('q0')!;
    const cands = [...Array(6).keys()].map((c) => questions.get(`q0c${c}`)!);
    const ctx = { runs: { good: good.get('q0')!, noise: noise.get('q0')! } };
    const loaded = await loadModel(structuredClone(saved));
    expect(loaded.score(q, cands, ctx)).toEqual(m.score(q, cands, ctx));
    expect((loaded as FusedRanker).featureImportance()).toEqual(m.featureImportance());
  });

  it('the issue-26 text features (stemmed vectors, character n-grams, alignment, category similarity) survive save and load', async () => {
    const fx = categorizedData();
    const m = new FusedRanker({ ...SMALL, runs: [], ppmiAlign: true, categorySim: true, stemTfidf: true });
    await m.train(fx.data, { epochs: 3 });
    const names = m.featureNames();
    expect(names).toEqual(expect.arrayContaining(['char:cos', 'char:title', 'char:body', 'ppmi:align', 'meta:category-sim', 'tfidf:stem:cos']));
    const loaded = await loadModel(structuredClone(m.save()));
    for (const dq of fx.dev.queries.slice(0, 3)) expect(loaded.score(dq.query, dq.candidates)).toEqual(m.score(dq.query, dq.candidates));
    // a model without the options has none of those features
    const plain = new FusedRanker({ ...SMALL, runs: [], charGrams: false, categorySim: false, ppmiWords: { stopWords: 'basic', stem: false }, ppmiWeighting: 'uniform' });
    await plain.train(fx.data, { epochs: 2 });
    expect(plain.featureNames().filter((n) => n.startsWith('char:') || n === 'ppmi:align' || n === 'meta:category-sim')).toEqual([]);
  });

  it('the topic features (category classifier, topic similarity) and the LSA cosine survive save and load; a model saved before them loads and scores as before', async () => {
    const fx = categorizedData();
    const m = new FusedRanker({ ...SMALL, runs: [], lsa: true, lsaDim: 4 });
    await m.train(fx.data, { epochs: 3 });
    expect(m.featureNames()).toEqual(expect.arrayContaining(['meta:category-prob', 'meta:topic-sim', 'lsa:cos']));
    const saved = m.save();
    const loaded = await loadModel(structuredClone(saved));
    expect((loaded as FusedRanker).featureNames()).toEqual(m.featureNames());
    for (const dq of fx.dev.queries.slice(0, 3)) expect(loaded.score(dq.query, dq.candidates)).toEqual(m.score(dq.query, dq.candidates));
    // the topic features move with the candidate's category
    const q = fx.dev.queries[0].query;
    const c = fx.dev.queries[0].candidates[0];
    const at = m.featureNames().indexOf('meta:category-prob');
    const byCat = CATEGORIES.map((cat) => m.features(q, [{ ...c, category: cat }])[0][at]);
    expect(new Set(byCat).size).toBeGreaterThan(1);

    // as saved before issue 26's topic features: no categoryModel/topicSim in meta, no categoryW, no lsa; the
    // config then lacks the new keys (defaults apply) but the featurizer follows the saved meta
    const old = new FusedRanker({ ...SMALL, runs: [], categoryClassifier: false, topicSim: false });
    await old.train(fx.data, { epochs: 3 });
    const s0 = structuredClone(old.save());
    const meta = s0.meta as Record<string, unknown>;
    delete meta.categoryModel;
    delete meta.topicSim;
    const config = s0.config as Record<string, unknown>;
    for (const key of ['categoryClassifier', 'categoryL2', 'topicSim', 'lsa', 'lsaDim']) delete config[key];
    expect(Object.keys(s0.weights)).not.toContain('categoryW');
    const back = (await loadModel(s0)) as FusedRanker;
    expect(back.featureNames()).toEqual(old.featureNames());
    expect(back.featureNames()).not.toContain('meta:category-prob');
    for (const dq of fx.dev.queries.slice(0, 3)) expect(back.score(dq.query, dq.candidates)).toEqual(old.score(dq.query, dq.candidates));
  });

  it('tokenVectorsOfFused: each raw token gets its stem\'s unit PPMI-SVD vector; stop words get none', async () => {
    const { tokenVectorsOfFused } = await import('./fused');
    const texts = Array.from({ length: 20 }, (_, i) => (i % 2 ? 'routers routing the router visa' : 'visas router visa permits the permit'));
    const v = tokenVectorsOfFused(texts, { ppmiDim: 3, ppmiMinCount: 1 });
    expect(v.dim).toBe(3);
    expect(v.words).not.toContain('the');
    const row = (w: string) => Array.from(v.data.subarray(v.words.indexOf(w) * 3, v.words.indexOf(w) * 3 + 3));
    expect(row('routers')).toEqual(row('router')); // same stem
    expect(row('visas')).toEqual(row('visa'));
    expect(row('visa')).not.toEqual(row('router'));
    expect(Math.hypot(...row('permits'))).toBeCloseTo(1, 5);
  });

  it('same category and same asker features read the optional QText fields', async () => {
    const fx = syntheticData(3);
    const m = new FusedRanker({ ...SMALL, runs: [] });
    await m.train(fx.data, { epochs: 2 });
    const names = m.featureNames();
    const q: QText = { id: 'mq', title: 'wifi router', body: 'signal', category: 'net', user: 'u1' };
    const cands: QText[] = [
      { id: 'mc1', title: 'wifi', body: 'router', category: 'net', user: 'u1' },
      { id: 'mc2', title: 'wifi', body: 'router', category: 'cars', user: 'u2' },
    ];
    const raw = m.features(q, cands); // standardised: same order as the raw values
    const cat = names.indexOf('meta:category');
    const asker = names.indexOf('meta:asker');
    expect(raw[0][cat]).toBeGreaterThan(raw[1][cat]);
    expect(raw[0][asker]).toBeGreaterThan(raw[1][asker]);
  });

  it('rejects training data without labels, and scoring before training', async () => {
    const fx = syntheticData(1);
    const m = new FusedRanker(SMALL);
    await expect(m.train({ ...fx.data, positives: [], negatives: [] })).rejects.toThrow(/no labeled pairs/);
    expect(() => m.score(fx.dev.queries[0].query, fx.dev.queries[0].candidates)).toThrow(/not trained/);
  });
});
