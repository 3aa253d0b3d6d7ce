/**
 * A pool's "learn as we label" setting whose stored lists are not lists of names (a row damaged, or
 * written by another program): each reads as an empty list and is reported as unreadable. Before, the
 * value was passed on as parsed (`{}` as the models) or the parse threw, and Evaluate's Live panel
 * stopped with "….models.map is not a function".
 */
import { describe, expect, it } from 'vitest';
import { Workspace } from '../workspace/workspace';
import { readLiveSetting, writeLiveSetting } from './live-store';
import { livePoolEachTest } from './live-test-pool';

let ws: Workspace;
livePoolEachTest('qpairs-live-damaged-', (fresh) => (ws = fresh));

const store = (models: string, trainPools: string): void => {
  ws.db.prepare(`INSERT OR REPLACE INTO live_training(pool_id, enabled, every_labels, idle_seconds, models, train_pools) VALUES (?, 1, 20, 30, ?, ?)`).run(ws.poolId('p'), models, trainPools);
};

describe('reading a damaged live setting', () => {
  for (const bad of ['{}', '5', 'null', '"bm25"', '[1, 2]', '["tfidf", 3]', 'not json']) {
    it(`models ${bad}: an empty list, reported unreadable; the rest as stored`, () => {
      store(bad, '["q"]');
      expect(readLiveSetting(ws, 'p')).toMatchObject({ enabled: true, everyLabels: 20, idleSeconds: 30, models: [], trainPools: ['q'], unreadable: ['models'] });
    });
  }

  it('models that are strings but not learn-as-we-label models: an empty list, reported unreadable, the unknown names said', () => {
    store('["fused", "bert", "bm25"]', '["q"]');
    expect(readLiveSetting(ws, 'p')).toMatchObject({ models: [], trainPools: ['q'], unreadable: ['models'], unknownModels: ['bert', 'bm25'] });
    store('["tfidf", "dae"]', '["q"]');
    expect(readLiveSetting(ws, 'p')).toMatchObject({ models: ['tfidf', 'dae'], unreadable: [], unknownModels: [] });
  });

  it('train_pools damaged too: both empty, both reported', () => {
    store('{}', '{"a": 1}');
    expect(readLiveSetting(ws, 'p')).toMatchObject({ models: [], trainPools: [], unreadable: ['models', 'train_pools'] });
  });

  it('a setting read whole reports nothing; saving it again mends a damaged one', () => {
    store('{}', '[]');
    writeLiveSetting(ws, 'p', { enabled: true, everyLabels: 20, idleSeconds: 30, models: ['tfidf'], trainPools: [] });
    expect(readLiveSetting(ws, 'p')).toMatchObject({ models: ['tfidf'], trainPools: [], unreadable: [] });
  });
});
