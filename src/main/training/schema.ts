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
