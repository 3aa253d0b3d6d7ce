import type { ParsedArgs } from '../../shared/contract';
import type { ModelsView } from '../../shared/models';
import { MODEL_IDS } from '../models/types';
import { backendName, initBackend } from '../models';
import { listModels } from '../training/store';
import { scorePool, trainModel, checkModelName, deleteModelAndRuns } from '../training/train';
import { QPairsError } from '../errors';
import type { EngineCore as Engine } from './core';

let backend: Promise<string> | null = null;
let loaded: string | null = null;
/** The tfjs backend of this process (loaded on first use: tfjs is not needed until then). */
export function modelBackend(): Promise<string> {
  backend ??= initBackend().then(() => (loaded = backendName()));
  return backend;
}

/** The backend once loaded, else null (app.info does not load tfjs just to name it). */
export function loadedModelBackend(): string | null {
  return loaded;
}

export async function modelsView(engine: Engine): Promise<ModelsView> {
  return { backend: await modelBackend(), kinds: [...MODEL_IDS], models: listModels(engine.ws) };
}

/**
 * Trains a model as a job (in the worker thread), stores it, then scores every pool with it so
 * it reranks live in Annotate and appears in Evaluate. Progress: `train.progress` events with
 * loss and dev metrics per epoch, plus the generic `job.progress`.
 */
export function trainJob(engine: Engine, a: ParsedArgs<'models.train'>): string {
  const ws = engine.ws;
  if (!MODEL_IDS.includes(a.model as never)) throw new QPairsError(`unknown model "${a.model}"`);
  checkModelName(ws, a.name);
  for (const p of a.trainPools) ws.pool(p);
  if (a.devPool) ws.pool(a.devPool);
  const jobId = engine.jobs.start('train', async (ctx) => {
    const { report, training } = await trainModel(
      ws,
      { model: a.model, name: a.name, trainPools: a.trainPools, devPool: a.devPool ?? null, epochs: a.epochs, seed: a.seed },
      {
        signal: ctx.signal,
        onProgress: (p) => {
          engine.hub.emit('train.progress', { jobId, name: a.name, progress: p });
          const whole = p.steps > 0 ? (p.epoch - 1 + p.step / p.steps) / Math.max(1, p.epochs) : 0;
          ctx.progress(Math.round(whole * 1000), 1000, p.phase ?? `epoch ${p.epoch}/${p.epochs}, loss ${p.loss.toFixed(4)}`);
        },
      },
    );
    // Once the model is stored, the pools are scored to completion (a cancel now would leave a
    // stored model with some pools unscored); cancelling stops training only.
    const scored: Array<{ pool: string; pairs: number }> = [];
    for (const p of ws.listPools()) {
      const s = await engine.writes.run(() => scorePool(ws, a.name, p.name));
      scored.push({ pool: p.name, pairs: s.pairs });
    }
    engine.hub.emit('workspace.changed', { what: 'run' });
    return { name: a.name, report, training, scored };
  });
  return jobId;
}

export function scoreJob(engine: Engine, a: ParsedArgs<'models.score'>): string {
  engine.ws.pool(a.pool);
  return engine.jobs.start('score', async (ctx) => {
    const r = await engine.writes.run(() => scorePool(engine.ws, a.name, a.pool, { signal: ctx.signal }));
    engine.hub.emit('workspace.changed', { what: 'run' });
    return r;
  });
}

/** Deletes a model and the runs it stored in the pools. */
export function deleteModelCommand(engine: Engine, a: ParsedArgs<'models.delete'>): Promise<{ deleted: boolean }> {
  return engine.writes.run(() => {
    const deleted = deleteModelAndRuns(engine.ws, a.name);
    if (deleted) engine.hub.emit('workspace.changed', { what: 'run' });
    return { deleted };
  });
}
