/** The epoch loop shared by all models: progress, cancellation, dev evaluation, best-epoch keeping. */
import { CancelledError } from '../errors';
import type { EpochRecord, ModelId, TrainOptions, TrainReport } from './types';

export interface EpochPlan {
  steps: number;
  /** Runs one step synchronously; returns its loss and the number of examples it used. */
  runStep(step: number): { loss: number; examples: number };
}

export interface LoopArgs<S> {
  kind: ModelId;
  backend: string;
  epochs: number;
  opts: TrainOptions;
  exampleUnit: string;
  planEpoch(epoch: number): EpochPlan;
  /** Dev metrics of the current weights (only called when opts.dev is given). */
  evalDev?(): { mrr: number; map: number };
  /** Copy of the current weights, and putting a copy back. */
  snapshot(): S;
  restore(s: S): void;
  /** Called after every epoch's steps (e.g. to clear encoding caches). */
  afterEpoch?(): void;
  notes?: string[];
}

export const nextTick = (): Promise<void> => new Promise((r) => setImmediate(r));

export function checkAbort(signal?: AbortSignal): void {
  if (signal?.aborted) throw new CancelledError('training cancelled');
}

export async function runEpochs<S>(a: LoopArgs<S>): Promise<TrainReport> {
  const { opts } = a;
  const history: EpochRecord[] = [];
  let best: { epoch: number; mrr: number; map: number; snap: S } | null = null;
  let examples = 0;
  let trainMs = 0;
  const t0 = performance.now();
  for (let epoch = 1; epoch <= a.epochs; epoch++) {
    const te = performance.now();
    const plan = a.planEpoch(epoch);
    let lossSum = 0;
    let lossN = 0;
    for (let step = 0; step < plan.steps; step++) {
      checkAbort(opts.signal);
      const ts = performance.now();
      const r = plan.runStep(step);
      trainMs += performance.now() - ts;
      examples += r.examples;
      if (Number.isFinite(r.loss)) {
        lossSum += r.loss;
        lossN++;
      }
      const last = step === plan.steps - 1;
      if (!last) opts.onProgress?.({ epoch, epochs: a.epochs, step: step + 1, steps: plan.steps, loss: lossN ? lossSum / lossN : 0 });
      await nextTick();
    }
    a.afterEpoch?.();
    const loss = lossN ? lossSum / lossN : 0;
    const rec: EpochRecord = { epoch, loss, seconds: (performance.now() - te) / 1000 };
    if (opts.dev && a.evalDev) {
      const { mrr, map } = a.evalDev();
      rec.devMRR = mrr;
      rec.devMAP = map;
      if (!best || mrr > best.mrr || (mrr === best.mrr && map > best.map)) best = { epoch, mrr, map, snap: a.snapshot() };
    }
    history.push(rec);
    opts.onProgress?.({
      epoch,
      epochs: a.epochs,
      step: plan.steps,
      steps: plan.steps,
      loss,
      devMRR: rec.devMRR,
      devMAP: rec.devMAP,
    });
    await nextTick();
  }
  let bestEpoch = a.epochs;
  if (best && best.epoch !== a.epochs) {
    a.restore(best.snap);
    a.afterEpoch?.();
  }
  if (best) bestEpoch = best.epoch;
  return {
    kind: a.kind,
    backend: a.backend,
    epochs: a.epochs,
    bestEpoch,
    bestDevMRR: best?.mrr,
    bestDevMAP: best?.map,
    history,
    examplesPerSecond: trainMs > 0 ? (examples * 1000) / trainMs : 0,
    exampleUnit: a.exampleUnit,
    seconds: (performance.now() - t0) / 1000,
    notes: a.notes,
  };
}
