/**
 * What `qpairs train` writes where no bar is drawn (a log, a pipe): a line per preparing step begun
 * and per epoch ended. A preparing step that counts steps before the first epoch (hnil's "DeepWalk
 * over the question network", epoch 0) was taken for an epoch: nothing when it began, and
 * "DeepWalk over the question network: epoch 0/1: loss 0.0000" when it ended.
 */
import { preparingStep, type TrainProgressView } from '../../shared/models';

/** The preparing step a report belongs to: one with nothing counted yet, or one counting steps before epoch 1. */
export function preparingPhase(p: TrainProgressView): string | null {
  return preparingStep(p) ?? (p.phase !== undefined && p.epoch === 0 ? p.phase : null);
}

/** The line to write for report `p` (null: none), `lastPreparing` being the step of the report before. */
export function trainLogLine(p: TrainProgressView, lastPreparing: string | null): string | null {
  const preparing = preparingPhase(p);
  if (preparing !== null) return preparing !== lastPreparing ? `${preparing}…` : null;
  if (p.steps === 0 || p.step !== p.steps) return null;
  const devFigures = p.devMRR !== undefined ? `, dev MRR ${(100 * p.devMRR).toFixed(2)}, MAP ${(100 * (p.devMAP ?? 0)).toFixed(2)}` : '';
  // A cross-validation fold's phase already ends in its epoch ("… fold 1/5: epoch 2/3"): said once.
  const epoch = `epoch ${p.epoch}/${p.epochs}`;
  const where = !p.phase ? epoch : p.phase.endsWith(epoch) ? p.phase : `${p.phase}: ${epoch}`;
  return `${where}: loss ${p.loss.toFixed(4)}${devFigures}`;
}
