/** Creating and loading rankers by model id. */
import { QPairsError } from '../errors';
import { initBackend } from './backend';
import { DaeRanker } from './dae';
import { DosSantosRanker } from './dossantos';
import { EncoderRanker } from './encoders';
import { FusedRanker } from './fused';
import { HnilRanker } from './hnil';
import { LtrRanker } from './ltr';
import { MnetFisherRanker } from './mnet-fisher';
import { SkipGramRanker } from './skipgram';
import { TfIdfRanker } from './tfidf';
import { MODEL_IDS, type ModelId, type Ranker, type SavedModel } from './types';

export function isModelId(x: string): x is ModelId {
  return (MODEL_IDS as readonly string[]).includes(x);
}

/** A new, untrained ranker. `config` overrides the model's defaults (unknown keys are kept but unused). */
export async function createModel(kind: ModelId | string, config: Record<string, unknown> = {}): Promise<Ranker> {
  switch (kind) {
    case 'tfidf':
      return new TfIdfRanker(config);
    case 'skipgram':
      return new SkipGramRanker(config);
    case 'ltr':
      return new LtrRanker(config);
    case 'fused':
      return new FusedRanker(config);
    case 'mnet-fisher':
      return new MnetFisherRanker(config);
    case 'dae':
      return new DaeRanker(config);
    case 'hnil':
      await initBackend();
      return new HnilRanker(config);
    case 'bow-cnn':
    case 'cnn':
      await initBackend();
      return new DosSantosRanker(kind, config);
    case 'lstm':
    case 'gru':
    case 'rcnn':
      await initBackend();
      return new EncoderRanker(kind, config);
    default:
      throw new QPairsError(`unknown model "${kind}" (known: ${MODEL_IDS.join(', ')})`, { reason: 'unknown model' });
  }
}

/** Rebuilds a trained ranker from `ranker.save()` output; it scores identically. */
export async function loadModel(saved: SavedModel): Promise<Ranker> {
  if (!saved || saved.format !== 1) throw new QPairsError('saved model has an unknown format', { reason: 'bad format' });
  switch (saved.kind) {
    case 'tfidf':
      return TfIdfRanker.load(saved);
    case 'skipgram':
      return SkipGramRanker.load(saved);
    case 'ltr':
      return LtrRanker.load(saved);
    case 'fused':
      return FusedRanker.load(saved);
    case 'mnet-fisher':
      return MnetFisherRanker.load(saved);
    case 'dae':
      return DaeRanker.load(saved);
    case 'hnil':
      return HnilRanker.load(saved);
    case 'bow-cnn':
    case 'cnn':
      return DosSantosRanker.load(saved);
    case 'lstm':
    case 'gru':
    case 'rcnn':
      return EncoderRanker.load(saved);
    default:
      throw new QPairsError(`saved model has unknown kind "${String((saved as SavedModel).kind)}"`, { reason: 'unknown model' });
  }
}
