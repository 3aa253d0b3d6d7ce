/**
 * models.list lists a stored model whose report or training record lacks fields (damaged, or written
 * by another program) with what it has: the Models screen could not draw such a row ("Cannot read
 * properties of undefined (reading 'length')" for report and training '{}'), so one such row made the
 * whole screen fail. A well-formed row is listed as stored.
 */
import { describe, expect, it } from 'vitest';
import type { ModelsView } from '../../shared/models';
import { useTrainedModels } from './test-models';

const t = useTrainedModels('model-view', ['good', 'bare', 'odd']);

describe('models.list with damaged model rows', () => {
  it('a row whose report and training are {} is listed with nulls and empty lists; one of other shapes keeps only what fits', async () => {
    const { ws, engine } = t;
    const before = ((await engine.invoke('models.list', {})) as ModelsView).models.find((m) => m.name === 'good')!;
    ws.db.prepare(`UPDATE models SET report = '{}', training = '{}' WHERE name = 'bare'`).run();
    ws.db
      .prepare(`UPDATE models SET report = ?, training = ? WHERE name = 'odd'`)
      .run(
        JSON.stringify({ backend: 'cpu', epochs: 'three', bestEpoch: 2, history: 'none', seconds: 1.5 }),
        JSON.stringify({ trainPools: 'p', devPool: 7, seed: 9, cv: {}, earlyStopping: { heldOutQueries: 1 }, importance: [{ feature: 'x' }], config: [] }),
      );
    const models = ((await engine.invoke('models.list', {})) as ModelsView).models;
    const byName = new Map(models.map((m) => [m.name, m]));

    expect(byName.get('good')).toEqual(before);
    expect(before.report.history.length).toBeGreaterThan(0);
    expect(before.training.trainPools).toEqual(['p']);

    const bare = byName.get('bare')!;
    expect(bare.report).toEqual({ backend: '', exampleUnit: '', epochs: null, bestEpoch: null, examplesPerSecond: null, seconds: null, history: [] });
    expect(bare.training).toEqual({ trainPools: null, epochs: null, seed: null, positives: null, negatives: null, questions: null });

    const odd = byName.get('odd')!;
    expect(odd.report).toEqual({ backend: 'cpu', exampleUnit: '', epochs: null, bestEpoch: 2, examplesPerSecond: null, seconds: 1.5, history: [] });
    expect(odd.training).toEqual({ trainPools: null, epochs: null, seed: 9, positives: null, negatives: null, questions: null });
  });
});
