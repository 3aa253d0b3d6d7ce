/**
 * Messages between the UI/engine thread and `train-worker.ts` (a worker_threads Worker).
 *
 *   parent → worker  { type: 'start', kind, config?, data, dev?, opts? }     train a model
 *                    { type: 'score', saved, items: [{ query, candidates, ctx? }] }  batch scoring
 *   worker → parent  { type: 'progress', progress }                          during training
 *                    { type: 'done', saved, report }                          training finished
 *                    { type: 'scored', scores }                               scores per item
 *                    { type: 'error', name, message }                         failed
 *
 * Everything is structured-cloned (Maps, Sets and Float32Arrays survive; weight buffers are
 * transferred). A job is cancelled by terminating its worker (worker-client.ts): a worker busy in
 * a long synchronous step reads no message until the step ends.
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
export type ToWorker = StartMessage | ScoreMessage;

export type FromWorker =
  | { type: 'progress'; progress: TrainProgress }
  | { type: 'done'; saved: SavedModel; report: TrainReport }
  | { type: 'scored'; scores: number[][] }
  | { type: 'error'; name: string; message: string };
