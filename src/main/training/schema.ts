/** The models table (workspace migration 3; see store.ts for how rows are written and read). */
export const MODELS_V3 = `
CREATE TABLE models (
  id       INTEGER PRIMARY KEY,
  name     TEXT NOT NULL UNIQUE,
  kind     TEXT NOT NULL,
  saved    BLOB NOT NULL,
  report   TEXT NOT NULL,
  training TEXT NOT NULL,
  created  TEXT NOT NULL
) STRICT;
`;

/**
 * What each model was trained on (migration 7): one row per training query — its id, a hash of
 * its normalised text (two 32-bit FNV-1a hashes and the length, hex) and the MinHash signature of
 * its word 3-shingles (128 little-endian uint32; empty for an empty text) — so evaluations can
 * tell which evaluated queries a model saw, even after the question's text changed (see
 * trained-on.ts). Rows go with their model.
 */
export const MODEL_TRAINED_ON_V7 = `
CREATE TABLE model_trained_on (
  model     INTEGER NOT NULL REFERENCES models(id) ON DELETE CASCADE,
  query_id  TEXT NOT NULL,
  text_hash TEXT NOT NULL,
  signature BLOB NOT NULL,
  PRIMARY KEY (model, query_id)
) STRICT;
`;
