import type { EventPayloads, ParsedArgs, PoolEvaluation } from '../../shared/contract';
import { queuedTrainingNote, trainingStep, type ModelInfoView, type ModelsView } from '../../shared/models';
import { reportView, trainingView } from './model-view';
import { MODEL_IDS } from '../models/types';
import { backendName, initBackend, modelSettings } from '../models';
import { listModels, requireModel } from '../training/store';
import { scoreEveryPool, scorePool, trainModel, deleteModelReporting, fusingModelsByRun, prepareTraining, type TrainSpec } from '../training/train';
import { runModelOverlap } from '../training/trained-on';
import { runSelectedOn } from '../training/selected-on';
import { describeDevOverlap } from '../training/dev-overlap';
import { QPairsError } from '../errors';
import type { Workspace } from '../workspace/workspace';
import { evalLabelSource, poolLabels } from '../gold/pool-labels';
import type { EngineCore as Engine } from './core';
import { ContractError } from '../../shared/contract';
import type { Caller } from './access';
import type { TrainingQueue } from './training-queue';
import { modelsTrainedOnBlindLabels } from './run-visibility';

/**
 * Issue 23: model names are owned. Below owner, a caller may train a name only when no model has
 * it or it is their own model, and no pool has a run of that name that is not a model's (a
 * retriever's or an imported run). The refusal names no one.
 */
export function checkModelName(ws: Workspace, name: string, caller: Caller | undefined): void {
  if (!caller || caller.role === 'owner') return;
  const row = ws.stmt(`SELECT created_by FROM models WHERE name = ?`).get(name) as { created_by: string | null } | undefined;
  if (row && row.created_by !== caller.annotator) {
    throw new ContractError(`a model named "${name}" already exists and is not yours: choose another name (only the owner may replace it)`, 'forbidden');
  }
  const run = ws.stmt(`SELECT 1 FROM runs WHERE name = ? AND kind <> 'model' AND staged IS NULL LIMIT 1`).get(name);
  if (run) throw new ContractError(`a pool already has a run named "${name}" that is not a model's: choose another name`, 'forbidden');
}

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

/**
 * eval.pool's result with, for every run scored by a stored model, how many of the evaluated
 * queries (those the metrics count) the model was trained on (RunMetrics.overlap), and whether it
 * was chosen on them (RunMetrics.selectedOn: its dev pool, or its CV's out-of-fold queries). A new object:
 * the given one (maybe cached) is not changed.
 */
export function withModelOverlap(ws: Workspace, ev: PoolEvaluation, countedQueryIds?: () => string[]): PoolEvaluation {
  const modelRuns = ws.runKinds(ev.pool).filter((r) => r.kind === 'model' && ev.runs[r.name]);
  if (modelRuns.length === 0) return ev;
  const evaluated = countedQueryIds ? countedQueryIds() : poolLabels(ws, ev.pool, ev.annotator, { partial: ev.partial }).queries.map((q) => q.queryId);
  const runs = { ...ev.runs };
  for (const r of modelRuns) {
    const selectedOn = runSelectedOn(ws, ev.pool, r.name, evaluated);
    runs[r.name] = { ...runs[r.name]!, overlap: runModelOverlap(ws, ev.pool, r.name, evaluated) ?? null, ...(selectedOn ? { selectedOn } : {}) };
  }
  return { ...ev, runs };
}

/**
 * The pools with the models that have a run there (one query), each pool's evaluated queries read
 * once and shared by its models: modelPoolOverlaps listed every pool's runs (counting their scores)
 * and read its labels again for each model, so the Models screen took 1.5 s with two models on a
 * workspace of 60,000-pair pools, and grew with models × pools.
 */
export interface PoolModelRuns {
  pool: string;
  models: ReadonlySet<string>;
  evaluated?: string[];
}

export function poolModelRuns(ws: Workspace): PoolModelRuns[] {
  const rows = ws.stmt(`SELECT p.name AS pool, r.name AS run FROM pools p LEFT JOIN runs r ON r.pool_id = p.id AND r.kind = 'model' AND r.staged IS NULL ORDER BY p.id, r.id`).all() as Array<{
    pool: string;
    run: string | null;
  }>;
  const byPool = new Map<string, Set<string>>();
  for (const r of rows) {
    const models = byPool.get(r.pool) ?? new Set<string>();
    if (r.run !== null) models.add(r.run);
    byPool.set(r.pool, models);
  }
  return [...byPool].map(([pool, models]) => ({ pool, models }));
}

/**
 * For each pool a model scored (its run there): how many of the pool's evaluated queries (fully
 * labeled by the pool's default label source) the model was trained on. `pools` (poolModelRuns)
 * shared across models reads each pool's labels once for them all.
 */
export function modelPoolOverlaps(ws: Workspace, model: string, pools: PoolModelRuns[] = poolModelRuns(ws)): NonNullable<ModelInfoView['overlap']> {
  const out: NonNullable<ModelInfoView['overlap']> = [];
  for (const p of pools) {
    if (!p.models.has(model)) continue;
    p.evaluated ??= poolLabels(ws, p.pool, evalLabelSource(ws, p.pool, undefined)).queries.map((q) => q.queryId);
    const o = runModelOverlap(ws, p.pool, model, p.evaluated);
    const selectedOn = runSelectedOn(ws, p.pool, model, p.evaluated);
    if (o) out.push({ pool: p.pool, trainedOn: o.trainedOn, of: o.of, ...(selectedOn ? { selectedOn } : {}) });
  }
  return out;
}

export async function modelsView(engine: Engine): Promise<ModelsView> {
  // The fusing models that take each model's run as a feature: the delete confirmation names them.
  const byRun = fusingModelsByRun(engine.ws);
  const pools = poolModelRuns(engine.ws);
  const models = listModels(engine.ws).map((m) => {
    const featureOf = byRun.get(m.name) ?? [];
    // A row lacking fields is listed with what it has (model-view.ts), not left for the screen to fail on.
    return { ...m, report: reportView(m.report), training: trainingView(m.training), overlap: modelPoolOverlaps(engine.ws, m.name, pools), ...(featureOf.length ? { featureOf } : {}) };
  });
  const settings = Object.fromEntries(MODEL_IDS.map((kind) => [kind, modelSettings(kind)]));
  return { backend: await modelBackend(), kinds: [...MODEL_IDS], settings, models };
}

/**
 * Trains a model as a job (in the worker thread), stores it, then scores every pool with it so
 * it reranks live in Annotate and appears in Evaluate. Progress: `train.progress` events with
 * loss and dev metrics per epoch, plus the generic `job.progress`.
 */
export function trainJob(engine: Engine & { readonly trainings?: TrainingQueue }, a: ParsedArgs<'models.train'>, caller?: Caller): string {
  const ws = engine.ws;
  checkModelName(ws, a.name, caller);
  if (!MODEL_IDS.includes(a.model as never)) throw new QPairsError(`unknown model "${a.model}"`);
  const spec: TrainSpec = {
    model: a.model,
    name: a.name,
    trainPools: a.trainPools,
    devPool: a.devPool ?? null,
    epochs: a.epochs,
    seed: a.seed,
    keepOverlap: a.keepOverlap,
    keepOverlapControl: 'app',
    ...(a.cv ? { cv: { folds: a.cv, repeats: a.repeats } } : {}),
    ...(a.config ? { config: a.config } : {}),
  };
  // Bad input (unknown pools, a pool without labels, a dev pool that is all the training data,
  // more CV folds than distinct questions) is refused here, before a job starts.
  const prepared = prepareTraining(ws, spec);
  const jobId = engine.jobs.start('train', async (ctx) => {
    // Issue 23: trainings queue (training-queue.ts); a queued job says so in its progress.
    const queue = engine.trainings;
    const release = queue
      ? await queue.acquire(ctx.signal, (ahead) => ctx.progress(0, 1000, queuedTrainingNote(ahead, queue.max)))
      : () => {};
    try {
      // Checked again now that it runs: another person may have taken the name while this one waited.
      checkModelName(ws, a.name, caller);
      // Say what the overlap check did before the first epoch (the job's result carries it too).
      if (prepared.overlap) ctx.progress(0, 1000, describeDevOverlap(prepared.overlap, 'app'));
      // The request's checks are handed over: the job checks again only if something was committed since.
      const { report, training } = await trainModel(
        ws,
        spec,
        {
          signal: ctx.signal,
          onProgress: (p) => {
            engine.hub.emit('train.progress', { jobId, name: a.name, progress: p });
            const whole = p.steps > 0 ? (p.epoch - 1 + p.step / p.steps) / Math.max(1, p.epochs) : 0;
            ctx.progress(Math.round(whole * 1000), 1000, p.phase ?? `${trainingStep(p)}, loss ${p.loss.toFixed(4)}`);
          },
        },
        prepared,
      );
      // The model is its trainer's (issue 23: NULL = the owner's).
      await engine.writes.run(() => ws.stmt(`UPDATE models SET created_by = ? WHERE name = ?`).run(caller && caller.role !== 'owner' ? caller.annotator : null, a.name));
      // Once the model is stored, the pools are scored to completion (a cancel now would leave a
      // stored model with some pools unscored); cancelling stops training only. The phase says so, and
      // the Models screen hides Cancel from here on (it showed it, and the job then ended "done").
      const onPool = (pool: string, i: number, n: number): void =>
        ctx.progress(i, n, `training done: the model is stored; scoring pool ${pool} (${i + 1} of ${n}) with it, to the end`, 'scoring');
      // The first pool's is not throttled away: said with done = total.
      ctx.progress(1, 1, 'training done: the model is stored; scoring the pools with it, to the end', 'scoring');
      const scored = (await scoreEveryPool(ws, a.name, (f) => engine.writes.run(f), undefined, onPool)).map((p) => ({ pool: p.pool, pairs: p.pairs, ...(p.missingRuns.length ? { missingRuns: p.missingRuns } : {}) }));
      engine.hub.emit('workspace.changed', { what: 'run', model: a.name });
      return { name: a.name, report, training, scored };
    } finally {
      release();
    }
  });
  return jobId;
}

export function scoreJob(engine: Engine, a: ParsedArgs<'models.score'>): string {
  // Refused before a job starts, as an unknown pool is (the CLI's `score` says so at once too).
  requireModel(engine.ws, a.name);
  engine.ws.pool(a.pool);
  return engine.jobs.start('score', async (ctx) => {
    const r = await scorePool(engine.ws, a.name, a.pool, { signal: ctx.signal, write: (f) => engine.writes.run(f) });
    engine.hub.emit('workspace.changed', { what: 'run', pool: a.pool, runs: [a.name] });
    return r;
  });
}

/** Deletes a model and the runs it stored in the pools. */
export async function deleteModelCommand(engine: Engine, a: ParsedArgs<'models.delete'>): Promise<{ deleted: boolean; featureOf: string[]; note: string | null }> {
  // The model and its runs leave in one short write; their scores are deleted in chunks after it,
  // each through the write gate, so labels are acknowledged meanwhile (one write held them all up).
  // workspace.changed is announced by the write that takes them out of readers' sight, not after the
  // last chunk (screens showed a model gone from the workspace for the whole delete); the chunks after
  // it change nothing a reader sees, so it is announced once.
  const ws = engine.ws;
  let announced = false;
  // Whether annotators are kept from it, read while its training record is there (access.ts canSee).
  const change: EventPayloads['workspace.changed'] = { what: 'run', model: a.name, ...(modelsTrainedOnBlindLabels(ws).has(a.name) ? { blindLabels: true as const } : {}) };
  const r = await deleteModelReporting(ws, a.name, async (f) => {
    let gone = false;
    const out = await engine.writes.run(() => {
      const before = modelVisible(ws, a.name);
      const v = f();
      gone = before && !modelVisible(ws, a.name);
      return v;
    });
    if (gone && !announced) {
      announced = true;
      engine.hub.emit('workspace.changed', change);
    }
    return out;
  });
  // Something a reader sees changed, yet no write was seen taking it away: announce it at the end.
  if (r.deleted && !announced) engine.hub.emit('workspace.changed', change);
  return r;
}

/** Whether readers see model `name`: the stored model, or a pool's run of it. */
function modelVisible(ws: Workspace, name: string): boolean {
  return listModels(ws).some((m) => m.name === name) || ws.listPools().some((p) => ws.runKinds(p.name).some((r) => r.name === name && r.kind === 'model'));
}
