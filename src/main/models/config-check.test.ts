/**
 * `qpairs train --config` was never checked: {"epoch": 3} (for "epochs"), {"minDf": "abc"}, [1, 2],
 * null or 5 all trained with the defaults (or a misread value) and reported success.
 */
import { describe, expect, it } from 'vitest';
import { checkModelConfig } from './config-check';

describe('checkModelConfig', () => {
  it("accepts each model's own settings, with values of their types", () => {
    expect(checkModelConfig('tfidf', { minDf: 1, sublinearTf: false })).toEqual({ minDf: 1, sublinearTf: false });
    expect(() => checkModelConfig('fused', { learner: 'lambdamart', runs: ['bm25'], ppmiWords: { stopWords: 'basic', stem: false }, C: 0.01 })).not.toThrow();
    expect(() => checkModelConfig('ltr', { runs: null, embedding: false, epochs: 20 })).not.toThrow();
    expect(() => checkModelConfig('gru', { startVectors: 'fused', fusedVectors: { ppmiDim: 50 }, pooling: 'last', epochs: 1 })).not.toThrow();
    expect(() => checkModelConfig('hnil', { labeledPairs: false, hidden: 16, graphDim: 8 })).not.toThrow();
    expect(() => checkModelConfig('mnet-fisher', { categoryWeight: 0, components: 0 })).not.toThrow();
    expect(() => checkModelConfig('dae', { hidden: 20, seed: -3 })).not.toThrow();
    expect(() => checkModelConfig('bow-cnn', {})).not.toThrow();
  });

  it('refuses a key the model does not have, naming its settings', () => {
    expect(() => checkModelConfig('lstm', { epoch: 3 })).toThrow(/model lstm has no setting "epoch" \(its settings: hidden, pooling, .*epochs/);
    // mnet-fisher's setting is no dae setting
    expect(() => checkModelConfig('dae', { categoryWeight: 0 })).toThrow(/model dae has no setting "categoryWeight"/);
    expect(() => checkModelConfig('gru', { fusedVectors: { ppmiDims: 50 } })).toThrow(/"fusedVectors" has no setting "ppmiDims"/);
  });

  it('refuses a value of the wrong type or out of range', () => {
    expect(() => checkModelConfig('tfidf', { minDf: 'abc' })).toThrow('model tfidf: "minDf" must be a number, not "abc" (default 2)');
    expect(() => checkModelConfig('tfidf', { minDf: -3 })).toThrow('"minDf" must be 0 or more, not -3');
    expect(() => checkModelConfig('tfidf', { sublinearTf: 'no' })).toThrow('"sublinearTf" must be true or false, not "no"');
    expect(() => checkModelConfig('fused', { learner: 'svm' })).toThrow('"learner" must be one of "ranksvm", "lambdamart", not "svm"');
    expect(() => checkModelConfig('ltr', { runs: 'bm25' })).toThrow('"runs" must be null (every run) or a list of run names, not "bm25"');
    expect(() => checkModelConfig('fused', { ppmiWords: { stopWords: 'all' } })).toThrow(/"ppmiWords": "stopWords" must be one of "basic", "extended"/);
    expect(() => checkModelConfig('gru', { epochs: null })).toThrow('"epochs" must be a number, not null');
  });

  it('refuses counts and sizes below 1 or not whole, shares of 1 or more, and empty n-gram ranges (they hung, crashed or trained a constant scorer)', () => {
    expect(() => checkModelConfig('lstm', { batchSize: 0 })).toThrow('model lstm: "batchSize" must be a whole number, 1 or more, not 0 (default 16)');
    expect(() => checkModelConfig('lstm', { hidden: 0 })).toThrow('"hidden" must be a whole number, 1 or more, not 0');
    expect(() => checkModelConfig('cnn', { filters: 2.5 })).toThrow('"filters" must be a whole number, 1 or more, not 2.5');
    expect(() => checkModelConfig('skipgram', { dim: 0 })).toThrow('"dim" must be a whole number, 1 or more, not 0');
    expect(() => checkModelConfig('skipgram', { epochs: 0 })).toThrow('"epochs" must be a whole number, 1 or more, not 0');
    expect(() => checkModelConfig('gru', { fusedVectors: { ppmiDim: 0 } })).toThrow('"fusedVectors": "ppmiDim" must be a whole number, 1 or more, not 0');
    expect(() => checkModelConfig('lstm', { dropout: 1.5 })).toThrow('"dropout" must be at least 0 and below 1, not 1.5');
    expect(() => checkModelConfig('dae', { noise: 1 })).toThrow('"noise" must be at least 0 and below 1, not 1');
    expect(() => checkModelConfig('tfidf', { minN: 3, maxN: 1 })).toThrow('model tfidf: "minN" (3) must not exceed "maxN" (1)');
    expect(() => checkModelConfig('tfidf', { minN: 4 })).toThrow('"minN" (4) must not exceed "maxN" (3)');
    expect(() => checkModelConfig('fused', { charMaxN: 1 })).toThrow('"charMinN" (2) must not exceed "charMaxN" (1)');
    // Zeros that mean something stay allowed.
    expect(() => checkModelConfig('bow-cnn', { embeddingEpochs: 0, negPool: 0, minCount: 0 })).not.toThrow();
    expect(() => checkModelConfig('mnet-fisher', { components: 0 })).not.toThrow();
    expect(() => checkModelConfig('lstm', { dropout: 0 })).not.toThrow();
    expect(() => checkModelConfig('tfidf', { minN: 2, maxN: 2 })).not.toThrow();
  });

  it('names a setting of the model itself in its example', () => {
    expect(() => checkModelConfig('tfidf', [1])).toThrow('the tfidf configuration must be a JSON object of its settings, e.g. {"minN": 1}, not a list');
    expect(() => checkModelConfig('lstm', null)).toThrow('e.g. {"hidden": 100}, not null');
  });

  it('refuses anything but a JSON object', () => {
    for (const c of [[1, 2], null, 5, 'x']) expect(() => checkModelConfig('tfidf', c)).toThrow(/the tfidf configuration must be a JSON object of its settings/);
  });
});
