/**
 * Messages between the UI/engine thread and `train-worker.ts` (a worker_threads Worker).
 *
 *   parent → worker  { type: 'start', kind, config?, data, dev?, opts? }     train a model
 *                    { type: 'score', saved, items: [{ query, candidates, ctx? }] }  batch scoring
 *                    { type: 'cancel' }                                       abort the running job
 *   worker → parent  { type: 'progress', progress }                          during training
 *                    { type: 'done', saved, report }                          training finished
 *                    { type: 'scored', scores }                               scores per item
 *                    { type: 'error', name, message }                         failed / cancelled
 *
 * Everything is structured-cloned (Maps, Sets and Float32Arrays survive; weight buffers are
 * transferred). A cancelled job ends with { type: 'error', name: 'CancelledError' }.
 */
import type { DevSet, ModelId, QText, SavedModel, ScoreContext, TrainProgress, TrainReport, TrainingData, WordVectors } from './types';

export interface StartMessage {
  type: 'start';
  kind: ModelId;
  config?: Record<string, unknown>;
  data: TrainingData;
  dev?: DevSet;
  opts?: { epochs?: number; seed?: number; embeddings?: WordVectors };
}
export interface ScoreMessage {
  type: 'score';
  saved: SavedModel;
  items: Array<{ query: QText; candidates: QText[]; ctx?: ScoreContext }>;
}
export interface CancelMessage {
  type: 'cancel';
}
export type ToWorker = StartMessage | ScoreMessage | CancelMessage;

export type FromWorker =
  | { type: 'progress'; progress: TrainProgress }
  | { type: 'done'; saved: SavedModel; report: TrainReport }
  | { type: 'scored'; scores: number[][] }
  | { type: 'error'; name: string; message: string };
