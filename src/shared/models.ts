/** Shared (zod-free) types of the Models screen and the model commands. */

export const MODEL_KINDS = ['tfidf', 'skipgram', 'bow-cnn', 'cnn', 'lstm', 'gru', 'rcnn', 'ltr'] as const;

export interface TrainProgressView {
  epoch: number;
  epochs: number;
  step: number;
  steps: number;
  loss: number;
  devMRR?: number;
  devMAP?: number;
  phase?: string;
}

export interface ModelInfoView {
  name: string;
  kind: string;
  created: string;
  bytes: number;
  report: {
    backend: string;
    epochs: number;
    bestEpoch: number;
    bestDevMRR?: number;
    bestDevMAP?: number;
    history: Array<{ epoch: number; loss: number; devMRR?: number; devMAP?: number; seconds: number }>;
    examplesPerSecond: number;
    exampleUnit: string;
    seconds: number;
  };
  training: { trainPools: string[]; devPool: string | null; epochs: number | null; seed: number; positives: number; negatives: number; questions: number };
}

export interface ModelsView {
  /** The tfjs backend the models run on in this process: tensorflow (tfjs-node), wasm or cpu. */
  backend: string;
  kinds: string[];
  models: ModelInfoView[];
}

export interface TrainProgressEvent {
  jobId: string;
  name: string;
  progress: TrainProgressView;
}
