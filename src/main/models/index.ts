/** Public API of the research rerankers (see docs in each module). */
export * from './types';
export { createModel, loadModel, isModelId } from './registry';
export { checkModelConfig, modelSettings } from './config-check';
export { hasOrderToLearn, noOrderToLearn } from './ranksvm';
export { initBackend, backendName, availableBackends, useBackend, type BackendName, type BackendOptions } from './backend';
export { parseWord2VecText, formatWord2VecText, SkipGramRanker, SKIPGRAM_DEFAULTS, type SkipGramConfig } from './skipgram';
export { TfIdfRanker, TFIDF_DEFAULTS, type TfIdfConfig } from './tfidf';
export { LtrRanker, LTR_DEFAULTS, type LtrConfig } from './ltr';
export { FusedRanker, FUSED_DEFAULTS, type FusedConfig } from './fused';
export { DosSantosRanker, DOSSANTOS_DEFAULTS, type DosSantosConfig } from './dossantos';
export { EncoderRanker, ENCODER_DEFAULTS, type EncoderConfig } from './encoders';
export { evaluateRanker, evaluateScores } from './dev-eval';
export { trainInWorker, scoreInWorker, scorePoolInWorker, prepareLiveInWorker, type WorkerJob, type WorkerHandle, type WorkerOptions } from './worker-client';
export type { ToWorker, FromWorker } from './worker-protocol';
