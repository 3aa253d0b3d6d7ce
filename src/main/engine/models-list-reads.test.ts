/**
 * models.list (the Models screen) reads each pool's labels once, whatever the number of models:
 * it read them, and listed the pool's runs with their score counts, once per model and pool (1.5 s
 * for two models on a workspace of 60,000-pair pools, growing with models × pools).
 */
import { describe, expect, it, vi } from 'vitest';
import type { ModelsView } from '../../shared/models';
import { modelPoolOverlaps } from './models';
import { useTrainedModels } from './test-models';

const MODELS = ['tf1', 'tf2', 'tf3'];
// A second pool with no model runs, and a third the models score too.
const t = useTrainedModels('models-list', MODELS, (ws) => {
  ws.createPool({ name: 'empty', scheme: 'binary' });
  ws.addPoolQuery('empty', 'q0', ['c1-0']);
});

describe('models.list', () => {
  it("reads each pool's queries once for all models, with the same overlaps as one model at a time", async () => {
    const { ws, engine } = t;
    const queries = vi.spyOn(ws, 'poolQueries');
    const runs = vi.spyOn(ws, 'listRuns');
    let view: ModelsView;
    try {
      view = (await engine.invoke('models.list', {})) as ModelsView;
      // Two pools (each model scored both): their queries read for the pool, not once per model.
      const reads = (pool: string): number => queries.mock.calls.filter((c) => c[0] === pool).length;
      expect(reads('p')).toBe(1);
      expect(reads('empty')).toBeGreaterThan(0);
      expect(reads('empty')).toBeLessThan(MODELS.length);
      expect(runs).not.toHaveBeenCalled();
    } finally {
      queries.mockRestore();
      runs.mockRestore();
    }
    expect(view.models.map((m) => m.name)).toEqual(MODELS);
    for (const m of view.models) {
      expect(m.overlap).toEqual(modelPoolOverlaps(ws, m.name));
      expect(m.overlap).toContainEqual({ pool: 'p', trainedOn: 4, of: 4 });
    }
  });
});
