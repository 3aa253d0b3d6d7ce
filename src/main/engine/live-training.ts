/**
 * "Learn as we label": per pool, once `everyLabels` pairs were labeled since the last retrain (a pair
 * relabeled counts once) —
 * or `idleSeconds` after the last label when fewer did — the pool's live models retrain (a job of
 * kind 'live', in the worker thread; src/main/training/live-retrain.ts), then their runs
 * (`live-<model>`) are stored in chunks out of sight, then swapped in with the learning curve's points
 * in one short write, and the clients are told.
 *
 * A retrain takes a slot of the engine's training queue (serve mode's `--max-trainings`) like any
 * training: while others hold every slot it waits, shown as queued (`queuedBehind`, its progress).
 *
 * Labeling never waits for a retrain: labels go through the write gate as always; a retrain holds
 * the gate only to store its results. Labels that arrive during a retrain count towards the next
 * one. Cancelling the job, or stopping the app mid-retrain, writes nothing; the labels are already
 * durable, and the next start (or label) retrains from them.
 */
import type { LiveStatus } from '../../shared/live';
import { LIVE_MODELS, liveRunName } from '../../shared/live';
import { queuedTrainingNote, trainingStep } from '../../shared/models';
import { CancelledError, QPairsError, throwIfAborted } from '../errors';
import type { ModelId } from '../models/types';
import { retrainLive, type LiveRetrain } from '../training/live-retrain';
import { appendCurvePoint, labelEventsSince, labelsNotTrainedOn, lastCopiesLeftOut, markRetrained, readCurve, readLiveSetting, storeLiveRuns } from '../training/live-store';
import type { EngineCore } from './core';
import type { TrainingQueue } from './training-queue';

export class LiveTrainer {
  private readonly running = new Map<string, string>(); // pool → job id
  /** pool → trainings ahead of its retrain while it waits for a training slot. */
  private readonly queued = new Map<string, number>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private closed = false;
  private readonly off: () => void;

  constructor(private readonly engine: EngineCore & { readonly trainings: TrainingQueue }) {
    this.off = engine.hub.on('label.changed', (rec) => this.consider(rec.pool));
    // Pools left with labels since their last retrain (e.g. the app stopped mid-retrain) catch up.
    setImmediate(() => {
      if (this.closed || !engine.ws.db.open || engine.ws.db.readonly) return;
      for (const p of engine.ws.listPools()) this.consider(p.name);
    });
  }

  status(pool: string): LiveStatus {
    const ws = this.engine.ws;
    const s = readLiveSetting(ws, pool);
    return {
      pool,
      enabled: s.enabled,
      everyLabels: s.everyLabels,
      idleSeconds: s.idleSeconds,
      models: s.models,
      trainPools: s.trainPools,
      unreadable: s.unreadable,
      unknownModels: s.unknownModels,
      running: this.running.has(pool),
      jobId: this.running.get(pool) ?? null,
      queuedBehind: this.queued.get(pool) ?? null,
      labelsSinceLast: labelsNotTrainedOn(ws, pool, s.lastLabelSeq).pairs,
      lastError: s.lastError,
      trainingCopiesLeftOut: lastCopiesLeftOut(ws, pool),
      curve: readCurve(ws, pool),
    };
  }

  /** Starts a retrain when enough labels arrived, else (re)arms the idle timer. */
  consider(pool: string): void {
    const ws = this.engine.ws;
    // Closed (or the workspace closed under a test's feet): nothing to schedule.
    if (this.closed || !ws.db.open) return;
    if (ws.findPoolId(pool) === null) return; // e.g. a pool an undone import took away
    const s = readLiveSetting(ws, pool);
    this.clearTimer(pool);
    // A setting that names no model (a damaged one reads so) has nothing to train: the labels stay counted for later.
    if (!s.enabled || s.models.length === 0 || this.running.has(pool)) return;
    const since = labelsNotTrainedOn(ws, pool, s.lastLabelSeq);
    // No label since the last retrain read: it would train on the same labels again.
    if (since.fresh === 0) return;
    if (since.pairs >= s.everyLabels) this.start(pool);
    else if (s.idleSeconds > 0) this.timers.set(pool, setTimeout(() => (this.timers.delete(pool), this.start(pool)), s.idleSeconds * 1000).unref());
  }

  /** Starts a retrain now (the Evaluate screen's "retrain now", or a trigger); returns its job id. */
  start(pool: string): string | null {
    if (this.closed || !this.engine.ws.db.open || this.running.has(pool)) return this.running.get(pool) ?? null;
    const ws = this.engine.ws;
    let s = readLiveSetting(ws, pool);
    if (s.models.length === 0) {
      const why = s.unknownModels.length > 0 ? `its stored setting names ${s.unknownModels.map((m) => `"${m}"`).join(', ')}, not a learn-as-we-label model (${LIVE_MODELS.join(', ')})` : 'its stored setting could not be read';
      throw new QPairsError(`pool "${pool}"'s learn-as-we-label setting names no model (${why}): choose the models again in the Live panel`);
    }
    let upTo = labelEventsSince(ws, pool, 0);
    const jobId = this.engine.jobs.start('live', async (ctx) => {
      const points = [];
      // Every model trains before anything is written: a retrain cancelled (or failed) at its
      // second model leaves the first model's run and curve point unwritten too.
      const results: Array<{ model: string; runName: string; r: Awaited<ReturnType<typeof retrainLive>> }> = [];
      let release = (): void => {};
      try {
        // A retrain is a training: it takes a slot of the training queue (serve's --max-trainings)
        // like any other, and says so while it waits (training-queue.ts).
        const queue = this.engine.trainings;
        release = await queue.acquire(ctx.signal, (ahead) => {
          this.queued.set(pool, ahead);
          ctx.progress(0, 1, queuedTrainingNote(ahead, queue.max));
        });
        this.queued.delete(pool);
        // What it trains on is read now that it runs: labels and settings that changed while it waited count.
        s = readLiveSetting(ws, pool);
        upTo = labelEventsSince(ws, pool, 0);
        // Its setting came to name no model meanwhile (a damaged row reads so): nothing trains, and no label is marked as trained on.
        if (s.models.length === 0) return { pool, labels: 0, points: [] };
        for (const [i, model] of s.models.entries()) {
          const runName = liveRunName(model);
          const r = await retrainLive(ws, pool, { model: model as ModelId, trainPools: s.trainPools, runName }, {
            signal: ctx.signal,
            onProgress: (p) => ctx.progress(i * 100 + Math.round(100 * (p.steps ? p.step / p.steps : 0)), s.models.length * 100, `${model}: ${trainingStep(p)}`),
          });
          results.push({ model, runName, r });
        }
        throwIfAborted(ctx.signal);
        // The runs are stored in chunks out of sight, each through the write gate (labels are
        // acknowledged between them: one write of 60,000 pairs held them all up), then swapped in
        // with the curve points and the retrain's mark in one short transaction.
        await storeLiveRuns(ws, pool, results.map(({ model, runName, r }) => ({ runName, model, scores: r.scores, labelPools: r.labelPools })), {
          write: (f) => this.engine.writes.run(f),
          signal: ctx.signal,
          beforeSwap: () => {
            for (const { model, r } of results)
              appendCurvePoint(ws, pool, { model, labels: r.labeledPairs, trainedQueries: r.trainedQueries, heldOutQueries: r.heldOutQueries, MAP: r.MAP, MRR: r.MRR, seconds: r.seconds }, r.trainingCopiesLeftOut);
            markRetrained(ws, pool, ...coveredBy(results.map(({ r }) => r), upTo.lastSeq));
          },
        });
        for (const { model, r } of results)
          points.push({ model, MAP: r.MAP, heldOutQueries: r.heldOutQueries, unscoredQueries: r.unscoredQueries.length, inSampleRunsLeftOut: r.inSampleRunsLeftOut, trainingCopiesLeftOut: r.trainingCopiesLeftOut });
        this.engine.hub.emit('workspace.changed', { what: 'run', pool, runs: results.map((x) => x.runName) });
        return { pool, labels: results[0]?.r.labeledPairs ?? 0, points };
      } catch (e) {
        // A failed or cancelled retrain waits for the next `everyLabels` labels (no retry on every label);
        // one stopped by closing the app is not recorded, so the next start catches up.
        if (!this.closed) {
          const why = e instanceof CancelledError ? 'cancelled; the next retrain starts after the next labels' : (e as Error).message;
          await this.engine.writes.run(() => markRetrained(ws, pool, upTo.lastSeq, why));
        }
        throw e;
      } finally {
        release();
        this.queued.delete(pool);
        this.running.delete(pool);
        // Labels that arrived meanwhile may call for the next retrain.
        setImmediate(() => this.consider(pool));
      }
    }, { system: true, pool });
    this.running.set(pool, jobId);
    return jobId;
  }

  private clearTimer(pool: string): void {
    const t = this.timers.get(pool);
    if (t) clearTimeout(t);
    this.timers.delete(pool);
  }

  close(): void {
    this.closed = true;
    this.off();
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    for (const jobId of this.running.values()) this.engine.jobs.cancel(jobId);
  }
}

/**
 * What a finished retrain covers: the label events up to the last one every model read (each
 * model's preparation read its own snapshot, all taken after the retrain began at `startSeq`) on
 * the queries every model trained on. The pairs some model left out count toward the next retrain.
 */
export function coveredBy(models: ReadonlyArray<Pick<LiveRetrain, 'labelSeq' | 'uncovered'>>, startSeq: number): [number, null, Array<[string, string]>] {
  if (models.length === 0) return [startSeq, null, []];
  const seen = new Map<string, [string, string]>();
  for (const m of models) for (const [q, c] of m.uncovered) seen.set(`${q}\u0000${c}`, [q, c]);
  return [Math.min(...models.map((m) => m.labelSeq)), null, [...seen.values()]];
}
