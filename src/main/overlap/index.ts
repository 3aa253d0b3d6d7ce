/**
 * The overlap check: which questions are the same question (same id, same normalised text,
 * near-duplicate text) — between training and evaluated data, and within training data for
 * grouped cross-validation. Pure functions, no workspace.
 */
export { normaliseQuestionText, shingleHashes, exactJaccard, textKey, SHINGLE_WORDS } from './text';
export { minhashSignature, estimatedJaccard, MINHASH_SIZE } from './minhash';
export { NEAR_DUPLICATE_JACCARD, type OverlapItem, fingerprint, RECENT_TEXTS, type Fingerprint, bandRows, forEachBandCollision } from './fingerprint';
export { nearDuplicateClusters, clusterCount } from './clusters';
export { findOverlap, type OverlapMatch, type OverlapReason } from './find-overlap';
export { groupedFolds } from './folds';
