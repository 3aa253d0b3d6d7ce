
/**
 * Numbered schema migrations. Migration N brings a workspace from user_version N-1 to N.
 * Never edit a migration once released: add a new one. All pending migrations run in one
 * transaction (see openWorkspaceDb), so a failure leaves the file exactly as it was.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
  /**
   * Tables this migration makes when they are missing although the workspace's recorded version
   * says it has them (a migration edited after release, see migration 9). The start-up schema
   * check (schema-check.ts) does not count them as missing when this migration is still pending.
   */
  repairs?: readonly string[];
}

const CORE_V1 = `
CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;

CREATE TABLE questions (
  doc      INTEGER PRIMARY KEY,
  id       TEXT NOT NULL UNIQUE,
  source   TEXT NOT NULL,
  title    TEXT NOT NULL DEFAULT '',
  body     TEXT NOT NULL DEFAULT '',
  tags     TEXT NOT NULL DEFAULT '',
  author   TEXT,
  created  TEXT,
  category TEXT
) STRICT;

-- User-marked duplicates (Stack Exchange PostLinks type 3, AskUbuntu pair files, ...).
-- Stored as given (question_id is marked a duplicate of original_id); uniqueness is unordered.
CREATE TABLE duplicate_pairs (
  question_id TEXT NOT NULL,
  original_id TEXT NOT NULL,
  source      TEXT NOT NULL,
  lo          TEXT NOT NULL GENERATED ALWAYS AS (min(question_id, original_id)) VIRTUAL,
  hi          TEXT NOT NULL GENERATED ALWAYS AS (max(question_id, original_id)) VIRTUAL,
  PRIMARY KEY (question_id, original_id, source),
  CHECK (question_id <> original_id)
) STRICT;
CREATE INDEX duplicate_pairs_lo_hi ON duplicate_pairs(lo, hi);

-- Non-duplicate pairs given by pair files (AskUbuntu train_random.txt random ids).
CREATE TABLE negative_pairs (
  query_id     TEXT NOT NULL,
  candidate_id TEXT NOT NULL,
  source       TEXT NOT NULL,
  PRIMARY KEY (query_id, candidate_id, source)
) STRICT;

CREATE TABLE pools (
  id         INTEGER PRIMARY KEY,
  name       TEXT NOT NULL UNIQUE,
  scheme     TEXT NOT NULL DEFAULT 'binary' CHECK (scheme IN ('binary','semeval3','likert5','graded')),
  retriever  TEXT,
  depth      INTEGER,
  sampling   TEXT,
  guidelines TEXT NOT NULL DEFAULT '',
  created    TEXT NOT NULL
) STRICT;

CREATE TABLE pool_queries (
  pool_id  INTEGER NOT NULL REFERENCES pools(id) ON DELETE CASCADE,
  query_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  PRIMARY KEY (pool_id, query_id)
) STRICT, WITHOUT ROWID;

CREATE TABLE pool_candidates (
  pool_id      INTEGER NOT NULL,
  query_id     TEXT NOT NULL,
  candidate_id TEXT NOT NULL,
  position     INTEGER NOT NULL,
  PRIMARY KEY (pool_id, query_id, candidate_id),
  FOREIGN KEY (pool_id, query_id) REFERENCES pool_queries(pool_id, query_id) ON DELETE CASCADE,
  CHECK (candidate_id <> query_id)
) STRICT, WITHOUT ROWID;

CREATE TABLE annotators (
  id      INTEGER PRIMARY KEY,
  name    TEXT NOT NULL UNIQUE,
  role    TEXT NOT NULL DEFAULT 'annotator' CHECK (role IN ('annotator','judge','gold','system')),
  created TEXT NOT NULL
) STRICT;

-- Append-only label history: the current label of (pool, query, candidate, annotator) is the
-- row with the highest seq; value NULL means the label was cleared (undo back to nothing).
CREATE TABLE labels (
  seq          INTEGER PRIMARY KEY AUTOINCREMENT,
  pool_id      INTEGER NOT NULL,
  query_id     TEXT NOT NULL,
  candidate_id TEXT NOT NULL,
  annotator_id INTEGER NOT NULL REFERENCES annotators(id),
  value        TEXT,
  at           TEXT NOT NULL,
  origin       TEXT NOT NULL,
  FOREIGN KEY (pool_id, query_id, candidate_id)
    REFERENCES pool_candidates(pool_id, query_id, candidate_id) ON DELETE CASCADE
) STRICT;
CREATE INDEX labels_current ON labels(pool_id, annotator_id, query_id, candidate_id, seq);
CREATE TRIGGER labels_append_only_update BEFORE UPDATE ON labels
  BEGIN SELECT RAISE(ABORT, 'labels are append-only'); END;

CREATE TABLE runs (
  id      INTEGER PRIMARY KEY,
  pool_id INTEGER NOT NULL REFERENCES pools(id) ON DELETE CASCADE,
  name    TEXT NOT NULL,
  kind    TEXT NOT NULL,
  config  TEXT NOT NULL DEFAULT '{}',
  created TEXT NOT NULL,
  UNIQUE (pool_id, name)
) STRICT;

CREATE TABLE run_scores (
  run_id       INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  query_id     TEXT NOT NULL,
  candidate_id TEXT NOT NULL,
  score        REAL NOT NULL,
  PRIMARY KEY (run_id, query_id, candidate_id)
) STRICT, WITHOUT ROWID;

-- Audit of every import: what came in, from where, and what it did.
CREATE TABLE imports (
  id     INTEGER PRIMARY KEY,
  format TEXT NOT NULL,
  files  TEXT NOT NULL,
  at     TEXT NOT NULL,
  report TEXT NOT NULL
) STRICT;
`;

/**
 * Migration 2 — multiple annotators per pool, assignment, aggregation rule (src/main/gold/).
 * - pools.aggregation / aggregation_threshold: how the labels of a pool's annotators combine into
 *   the pool's aggregate ("@aggregate"): adjudicated (default), majority, mean (mean grade >
 *   threshold is relevant; default threshold 0, for Likert −2…+2; the gold grade is the mean
 *   rounded, see src/main/gold/rules.ts), unanimous.
 * - pool_annotators: the annotators a pool is assigned to (its primary annotators; judges are not
 *   listed here). No rows = the pool's annotators are whoever of role 'annotator' labeled in it.
 * - pool_assignment_plans: full overlap (per_query NULL) or k annotators per query with a seed.
 * - pool_assignments: for k-per-query plans, which annotators label which query.
 */
const GOLD_V2 = `
ALTER TABLE pools ADD COLUMN aggregation TEXT NOT NULL DEFAULT 'adjudicated'
  CHECK (aggregation IN ('adjudicated','majority','mean','unanimous'));
ALTER TABLE pools ADD COLUMN aggregation_threshold REAL NOT NULL DEFAULT 0;

CREATE TABLE pool_annotators (
  pool_id      INTEGER NOT NULL REFERENCES pools(id) ON DELETE CASCADE,
  annotator_id INTEGER NOT NULL REFERENCES annotators(id),
  position     INTEGER NOT NULL,
  PRIMARY KEY (pool_id, annotator_id)
) STRICT, WITHOUT ROWID;

CREATE TABLE pool_assignment_plans (
  pool_id   INTEGER PRIMARY KEY REFERENCES pools(id) ON DELETE CASCADE,
  per_query INTEGER CHECK (per_query IS NULL OR per_query >= 1),
  seed      INTEGER,
  at        TEXT NOT NULL
) STRICT;

CREATE TABLE pool_assignments (
  pool_id      INTEGER NOT NULL,
  query_id     TEXT NOT NULL,
  annotator_id INTEGER NOT NULL REFERENCES annotators(id),
  PRIMARY KEY (pool_id, query_id, annotator_id),
  FOREIGN KEY (pool_id, query_id) REFERENCES pool_queries(pool_id, query_id) ON DELETE CASCADE
) STRICT, WITHOUT ROWID;
CREATE INDEX pool_assignments_annotator ON pool_assignments(pool_id, annotator_id, query_id);
`;

/**
 * Migration 4 — answers and comments, kept as unlabeled text (idf, vocabularies, skip-gram and
 * encoder pre-training; see training/data.ts).
 * - Keyed by the answer's own id (Stack Exchange post Id, SemEval RELC_ID), as questions are by
 *   theirs: a re-import upserts exactly the same rows even when a newer dump has added, deleted
 *   or moved answers (a (question, position) key would shift every later answer of the thread).
 * - question_id: the question answered (a question of the workspace; deleting it deletes them).
 * - position: order among the question's answers, 0-based, given when first imported (thread
 *   order for SemEval, file order = post id order for Stack Exchange); kept on re-import.
 * - Not in the BM25 index. A rowid table (not WITHOUT ROWID): answers can be long, and rowid
 *   order is insertion order, which training uses to pick texts deterministically.
 */
const ANSWERS_V4 = `
CREATE TABLE answers (
  id          TEXT PRIMARY KEY,
  question_id TEXT NOT NULL REFERENCES questions(id) ON DELETE CASCADE,
  position    INTEGER NOT NULL CHECK (position >= 0),
  source      TEXT NOT NULL,
  body        TEXT NOT NULL,
  author      TEXT,
  created     TEXT
) STRICT;
CREATE INDEX answers_question ON answers(question_id, position);
`;

/**
 * Migration 5 — trust: blind is the pool's property, and owners can have tokens.
 * - pools.blind: whether the pool's annotators label blind (their own labels only; no rankers'
 *   scores, no other annotator's, judge's, gold or aggregate labels). On for every pool, old and new.
 * - pool_blind_history: every change of a pool's blind setting (the pool's creation counts as the
 *   first), so a datasheet can say which labels were given blind and since when.
 * - annotators.role gains 'owner' (a person whose serve-mode token may do what the desktop user
 *   does). SQLite cannot alter a CHECK constraint, so the table is rebuilt with its ids kept.
 */
const TRUST_V5 = `
ALTER TABLE pools ADD COLUMN blind INTEGER NOT NULL DEFAULT 1 CHECK (blind IN (0, 1));

CREATE TABLE pool_blind_history (
  pool_id INTEGER NOT NULL REFERENCES pools(id) ON DELETE CASCADE,
  blind   INTEGER NOT NULL CHECK (blind IN (0, 1)),
  at      TEXT NOT NULL,
  PRIMARY KEY (pool_id, at, blind)
) STRICT, WITHOUT ROWID;
INSERT INTO pool_blind_history(pool_id, blind, at) SELECT id, 1, created FROM pools;

CREATE TABLE annotators_v5 (
  id      INTEGER PRIMARY KEY,
  name    TEXT NOT NULL UNIQUE,
  role    TEXT NOT NULL DEFAULT 'annotator' CHECK (role IN ('annotator','judge','owner','gold','system')),
  created TEXT NOT NULL
) STRICT;
INSERT INTO annotators_v5(id, name, role, created) SELECT id, name, role, created FROM annotators;
DROP TABLE annotators;
ALTER TABLE annotators_v5 RENAME TO annotators;
`;

/**
 * Migration 6 — imports commit in chunks and stay undoable (see workspace/undo-journal.ts).
 * - import_journal: the one running import (at most one row): who runs it (token, pid, host),
 *   what, since when, whether it has committed, and sqlite_sequence as it was (JSON), so that a
 *   failed, cancelled or interrupted import can be undone to the exact previous state.
 * - import_undo: the inverse of every change the import made, filled by TEMP triggers on the
 *   import's own connection, replayed newest first (seq descending): op 'i' deletes the inserted
 *   row (rkey = its rowid, or a WHERE clause over a WITHOUT ROWID table's primary key); 'u' and
 *   'd' run `stmt` (the old values written back / the deleted row inserted again). Empty unless
 *   an import is running or was interrupted.
 * - labels_pair: an index on the labels' foreign key to pool_candidates, so that deleting a pair
 *   (undoing an import's pairs, deleting a pool) finds its labels without scanning the pool's.
 */
const IMPORT_JOURNAL_V6 = `
CREATE TABLE import_journal (
  id      INTEGER PRIMARY KEY CHECK (id = 1),
  token   TEXT NOT NULL,
  pid     INTEGER NOT NULL,
  host    TEXT NOT NULL,
  started TEXT NOT NULL,
  what    TEXT NOT NULL,
  state   TEXT NOT NULL CHECK (state IN ('running', 'committed')),
  seqs    TEXT NOT NULL
) STRICT;

CREATE TABLE import_undo (
  seq  INTEGER PRIMARY KEY,
  tbl  TEXT NOT NULL,
  op   TEXT NOT NULL CHECK (op IN ('i', 'u', 'd')),
  rkey ANY,
  stmt TEXT
) STRICT;
CREATE INDEX import_undo_inserted ON import_undo(tbl, rkey) WHERE op = 'i';

CREATE INDEX labels_pair ON labels(pool_id, query_id, candidate_id);
`;

/**
 * Migration 1, part 2 — tables of the persisted BM25 index (src/main/bm25 reads and writes them).
 *
 * The index is stored as append-only *segments*: every `persist` writes one new segment holding
 * only the documents added or re-indexed since the previous persist, plus the doc numbers removed
 * since then. Loading replays the segments in `seg` order: a document that appears again in a
 * later segment replaces its earlier version, a removal drops it. When there are too many
 * segments (or too many superseded documents) `persist` rewrites everything as one segment
 * ("compaction"), in one transaction. An import does not load the index: it appends a segment per
 * chunk of its questions (`Bm25Index.appendSegment`) and merges the small segments trailing the
 * list as they pile up (`Bm25Index.mergeTail`), so each of its steps is bounded.
 *
 * Segment encoding (all integers little-endian):
 *  - `docs`: Float64 doc numbers (`questions.doc`) of the segment's documents, n_docs of them;
 *    a document's position here is its *local number* (0-based).
 *  - `lengths`: Int32 token counts (after stop-word removal) of those documents.
 *  - `removed`: Float64 doc numbers removed from the index by this segment (tombstones).
 *  - `terms`: the segment's terms, UTF-8, joined by '\n' (tokens never contain '\n').
 *  - `dfs`: Int32 number of postings of each term in this segment.
 *  - `bm25_postings.data`: for each term from `first_term` on, in order, its postings sorted by
 *    local number, each as LEB128 varint `gap * 2 + (tf == 1 ? 1 : 0)` followed, when tf != 1,
 *    by varint `tf`; gap = local - previous local (previous = -1 at the start of each term).
 *    A segment's postings are split into chunks of about 8 MB at term boundaries.
 *
 * `bm25_docs` mirrors which documents are indexed (doc, segment, length) for SQL use, e.g.
 * `SELECT count(*) FROM bm25_docs` or finding questions not yet indexed with an anti-join.
 * `bm25_meta` holds `format`, `tokenizer` (the tokenizer settings the index was built with, a JSON
 * signature whose `v` is 2 since the Lucene-parity analyzers: an index with another `v` or format is
 * rebuilt on first use) and `analyzer` (the workspace's analyzer, kept across rebuilds).
 */
export const BM25_SCHEMA_SQL = `
CREATE TABLE bm25_meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;

CREATE TABLE bm25_segments (
  seg        INTEGER PRIMARY KEY AUTOINCREMENT,
  created    TEXT NOT NULL,
  n_docs     INTEGER NOT NULL,
  n_removed  INTEGER NOT NULL,
  n_terms    INTEGER NOT NULL,
  n_postings INTEGER NOT NULL,
  docs       BLOB NOT NULL,
  lengths    BLOB NOT NULL,
  removed    BLOB NOT NULL,
  terms      BLOB NOT NULL,
  dfs        BLOB NOT NULL
) STRICT;

CREATE TABLE bm25_postings (
  seg        INTEGER NOT NULL REFERENCES bm25_segments(seg) ON DELETE CASCADE,
  chunk      INTEGER NOT NULL,
  first_term INTEGER NOT NULL,
  n_terms    INTEGER NOT NULL,
  data       BLOB NOT NULL,
  PRIMARY KEY (seg, chunk)
) STRICT;

CREATE TABLE bm25_docs (
  doc INTEGER PRIMARY KEY,
  seg INTEGER NOT NULL,
  len INTEGER NOT NULL
) STRICT;
`;

/** Migration 3 — the models table (src/main/training/store.ts writes and reads its rows). */
const MODELS_V3 = `
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
 * src/main/training/trained-on.ts). Rows go with their model.
 */
const MODEL_TRAINED_ON_V7 = `
CREATE TABLE model_trained_on (
  model     INTEGER NOT NULL REFERENCES models(id) ON DELETE CASCADE,
  query_id  TEXT NOT NULL,
  text_hash TEXT NOT NULL,
  signature BLOB NOT NULL,
  PRIMARY KEY (model, query_id)
) STRICT;
`;

/**
 * The part of migration 8 added to it after it was first released (244b0c1 edited migration 8 in
 * place; 5112aeb and d09e19f had shipped it without these tables). Migration 9 makes them where
 * they are missing.
 */
const LIVE_TRAINING_V8 = `
CREATE TABLE live_training (
  pool_id        INTEGER PRIMARY KEY REFERENCES pools(id) ON DELETE CASCADE,
  enabled        INTEGER NOT NULL CHECK (enabled IN (0, 1)),
  every_labels   INTEGER NOT NULL CHECK (every_labels >= 1),
  idle_seconds   INTEGER NOT NULL CHECK (idle_seconds >= 0),
  models         TEXT NOT NULL,
  train_pools    TEXT NOT NULL DEFAULT '[]',
  last_label_seq INTEGER NOT NULL DEFAULT 0,
  last_error     TEXT
) STRICT;

CREATE TABLE live_curve (
  pool_id          INTEGER NOT NULL REFERENCES pools(id) ON DELETE CASCADE,
  seq              INTEGER NOT NULL CHECK (seq >= 1),
  model            TEXT NOT NULL,
  labels           INTEGER NOT NULL,
  trained_queries  INTEGER NOT NULL,
  held_out_queries INTEGER NOT NULL,
  map              REAL,
  mrr              REAL,
  seconds          REAL NOT NULL,
  at               TEXT NOT NULL,
  PRIMARY KEY (pool_id, seq)
) STRICT;
`;

/**
 * Migration 8 — labeling order (src/main/active/): how a pool's next query is chosen, and the log
 * of the draws an adaptive order made, which the selection-corrected estimates need.
 * - pools.label_order: 'pool' (the pool's order), 'random' (seeded), 'uncertainty' or
 *   'decide-rankers' (unequal probabilities; query-order.ts); pools.order_seed seeds the draws.
 * - pool_draws: the pool's draws in order (seq 1, 2, …): the query drawn, the probability it had
 *   among the `remaining` undrawn queries, and (adaptive orders) each run's predicted AP on it and
 *   the sum of the predictions over the remaining queries, made before the draw (JSON, for the
 *   model-assisted estimator). Rows go with their pool.
 * - live_training: a pool's "learn as we label" setting (src/main/engine/live-training.ts): on/off,
 *   retrain after `every_labels` new label events or `idle_seconds` after the last one (0 = never),
 *   the model kinds (JSON list) and extra training pools, and the last label event the last retrain saw.
 * - live_curve: one row per finished retrain: labels in the pool then, queries trained on, queries
 *   scored out of fold and their MAP/MRR (src/main/training/live-retrain.ts), wall time.
 */
const LABEL_ORDER_V8 = `
ALTER TABLE pools ADD COLUMN label_order TEXT NOT NULL DEFAULT 'pool'
  CHECK (label_order IN ('pool','random','uncertainty','decide-rankers'));
ALTER TABLE pools ADD COLUMN order_seed INTEGER NOT NULL DEFAULT 1;

CREATE TABLE pool_draws (
  pool_id     INTEGER NOT NULL REFERENCES pools(id) ON DELETE CASCADE,
  seq         INTEGER NOT NULL CHECK (seq >= 1),
  query_id    TEXT NOT NULL,
  probability REAL NOT NULL CHECK (probability > 0 AND probability <= 1),
  remaining   INTEGER NOT NULL CHECK (remaining >= 1),
  predictions TEXT,
  drawn_at    TEXT NOT NULL,
  PRIMARY KEY (pool_id, seq),
  UNIQUE (pool_id, query_id)
) STRICT;
` + LIVE_TRAINING_V8;

/**
 * Migration 9 — repair: the live_training and live_curve tables of migration 8 for workspaces made
 * by the commits that shipped migration 8 without them (user_version 8, no such tables; today's
 * code would fail on them). `IF NOT EXISTS` makes it a no-op for every other workspace; SQLite
 * stores the statement without that clause, so a repaired workspace's schema is text-for-text a
 * fresh one's.
 */
const REPAIR_LIVE_TRAINING_V9 = LIVE_TRAINING_V8.replace(/CREATE TABLE /g, 'CREATE TABLE IF NOT EXISTS ');

/**
 * Migration 10 — notes on labels and each pool's evaluation convention (issue 24).
 * - label_notes: one current note per (pool, query, candidate, annotator): why a pair is unsure,
 *   a judge's reason for a ruling. Replaced in place (the labels table keeps the history of
 *   values); an empty note is no row. Rows go with their pair.
 * - pools.convention: how eval treats a query without a relevant candidate unless the caller says
 *   ('zero': AP 0, the SemEval scorer; 'skip': left out, Lei et al.'s AskUbuntu evaluation).
 *   New pools: 'zero' unless their importer or owner says otherwise; pools made before this
 *   migration by the AskUbuntu pool importer (run bm25-lucene) become 'skip'.
 */
const NOTES_CONVENTION_V10 = `
CREATE TABLE label_notes (
  pool_id      INTEGER NOT NULL,
  query_id     TEXT NOT NULL,
  candidate_id TEXT NOT NULL,
  annotator_id INTEGER NOT NULL REFERENCES annotators(id),
  note         TEXT NOT NULL CHECK (length(note) > 0),
  at           TEXT NOT NULL,
  PRIMARY KEY (pool_id, query_id, candidate_id, annotator_id),
  FOREIGN KEY (pool_id, query_id, candidate_id)
    REFERENCES pool_candidates(pool_id, query_id, candidate_id) ON DELETE CASCADE
) STRICT, WITHOUT ROWID;

ALTER TABLE pools ADD COLUMN convention TEXT NOT NULL DEFAULT 'zero' CHECK (convention IN ('skip','zero'));
UPDATE pools SET convention = 'skip' WHERE id IN (SELECT pool_id FROM runs WHERE name = 'bm25-lucene');
`;

/**
 * Migration 11 — people live in the workspace; imports keep what they replace; models have owners (issue 23).
 * - annotator_tokens: serve-mode tokens. A token is `LOOKUP.SECRET`: `lookup` (public, random)
 *   finds the row, `hash` = scrypt(SECRET, salt) proves it; the secret itself is never stored.
 *   `revoked` set = refused from the next request on; `last_seen` is written at most once a minute.
 * - question_text_history: a question's text as it was before an `--update` import replaced it
 *   while it was in a pool or had labels (with what the replacement touched).
 * - models.created_by: who trained a model (an annotator's name; NULL = the owner), so a judge
 *   cannot replace a model another person made.
 */
const TEAM_V11 = `
CREATE TABLE annotator_tokens (
  id           INTEGER PRIMARY KEY,
  annotator_id INTEGER NOT NULL REFERENCES annotators(id),
  lookup       TEXT NOT NULL UNIQUE,
  salt         BLOB NOT NULL,
  hash         BLOB NOT NULL,
  created      TEXT NOT NULL,
  last_seen    TEXT,
  revoked      TEXT
) STRICT;
CREATE INDEX annotator_tokens_annotator ON annotator_tokens(annotator_id);

CREATE TABLE question_text_history (
  seq         INTEGER PRIMARY KEY AUTOINCREMENT,
  question_id TEXT NOT NULL,
  source      TEXT NOT NULL,
  title       TEXT NOT NULL,
  body        TEXT NOT NULL,
  tags        TEXT NOT NULL,
  replaced_at TEXT NOT NULL,
  touched     TEXT NOT NULL
) STRICT;
CREATE INDEX question_text_history_id ON question_text_history(question_id, seq);

ALTER TABLE models ADD COLUMN created_by TEXT;
`;

/**
 * Migration 12 — candidate-level labeling orders (src/main/active/candidate-order.ts). Migration 8's
 * CHECK on pools.label_order lists the query-level orders only, and SQLite cannot widen a CHECK
 * without rebuilding the table, so a pool labeled pair by pair (`decide-rankers-mtc`) keeps
 * label_order = 'random' — the order in which its queries are opened, which a build that does not
 * know candidate orders still serves soundly — and records its candidate order here.
 *
 * It also carries over what the QPairs of schema 10 (the only shipped version before this one with
 * migration 10) kept elsewhere or never set, so an upgraded workspace behaves as it did there:
 * - a pool's candidate order lived in meta, key `pool_label_order.<pool id>.<pool created>` =
 *   'decide-rankers-mtc', read only while the pool's label_order was 'random': moved here (by the
 *   same rule), and every such key dropped (a deleted pool's too);
 * - pools.convention was never written (its eval skipped queries without a similar candidate,
 *   whatever the column said), so an AskUbuntu pool imported then (run bm25-lucene) still held the
 *   column's default 'zero' and would now evaluate under the wrong convention: it gets 'skip', as
 *   migration 10 gave the AskUbuntu pools made before it and today's importer gives new ones.
 */
const CANDIDATE_ORDER_V12 = `
CREATE TABLE pool_candidate_orders (
  pool_id     INTEGER PRIMARY KEY REFERENCES pools(id) ON DELETE CASCADE,
  label_order TEXT NOT NULL CHECK (label_order IN ('decide-rankers-mtc'))
) STRICT;
INSERT INTO pool_candidate_orders(pool_id, label_order)
  SELECT p.id, m.value FROM pools p JOIN meta m ON m.key = 'pool_label_order.' || p.id || '.' || p.created
  WHERE p.label_order = 'random' AND m.value = 'decide-rankers-mtc';
DELETE FROM meta WHERE substr(key, 1, 17) = 'pool_label_order.';
UPDATE pools SET convention = 'skip' WHERE id IN (SELECT pool_id FROM runs WHERE name = 'bm25-lucene');
`;

/**
 * Migration 13 — live retraining remembers what its overlap check left out.
 * - live_curve.copies_left_out: per retrain (JSON, shared/live.ts LiveCopiesLeftOut), the
 *   training pools' copies of held-out queries (same id, same or near-same text) left out of their
 *   folds' training, by reason; NULL for points written before this migration. The live status
 *   reads the newest point's, so the Evaluate panel still says it after the app restarts.
 */
const LIVE_COPIES_V13 = `
ALTER TABLE live_curve ADD COLUMN copies_left_out TEXT;
`;

/**
 * Migration 14 — questions by source. The Workspace screen's statistics count the questions of each
 * source after every label (a GROUP BY that read the whole questions table, texts and all: 40-80 ms
 * at 100,000 questions, about ten times that at a million, on the thread that acknowledges labels);
 * Browse's and `pool create --source`'s checks of a source scanned it too. An index on the source
 * column answers them from the index alone; an import appends to it (one source per import).
 */
const QUESTIONS_SOURCE_V14 = `
CREATE INDEX questions_source ON questions(source);
`;

/**
 * Migration 15 — runs stored out of sight, and the pool's label version from an index.
 * - runs.staged: NULL for a run everyone reads. A model's scores of a pool (60,000 pairs: half a
 *   second of writing) are stored in chunks of a few thousand pairs, each its own transaction, so
 *   labels are acknowledged between them; meanwhile the run's row has `staged` set (JSON: the
 *   writing process's pid, host and token) and a placeholder name no reader asks for, and every
 *   reader of runs leaves such rows out. The finished run is swapped in by one short transaction
 *   (workspace/staged-runs.ts); a run it replaces is set aside the same way and its scores deleted
 *   in chunks. Rows whose process is gone (a crash, a kill) are deleted by the next writable open.
 * - labels_pool_seq: the pool's label version (its last label event, `Workspace.labelVersion`, read
 *   by the Review screen's refreshes, kept-state and live retraining) read all of the pool's labels
 *   through labels_pair (~10 ms at 120,000 label events); this index answers it directly.
 */
const STAGED_RUNS_V15 = `
ALTER TABLE runs ADD COLUMN staged TEXT;
CREATE INDEX labels_pool_seq ON labels(pool_id, seq);
`;

/**
 * Migration 16 — an annotator's own event numbers from an index. Her label events are numbered by
 * her own count (engine/own-seq.ts), counted on every label she sets: through labels_current, pool
 * by pool, that read every one of her events' index entries with their query and candidate ids
 * (6.0 ms per label at 30,000 of hers). labels_annotator_seq holds her events in order, so the
 * count reads her entries alone and her n-th event is found by its position.
 *
 * And a count of the changes that decide which runs an annotator is not shown: which stored models
 * were trained on a blind pool's labels (engine/run-visibility.ts) depends on the models' training
 * records and on the pools' names, blind flags and identities (id and creation time, which never
 * change once made) alone, and reading every model's record for every
 * annotator's result with runs in it cost more than the rest of the result. change_counts'
 * 'run_visibility' row goes up with every insert, update or delete of a model and every pool made,
 * deleted, renamed or made (not) blind, whoever writes it (this process or another), so the set is
 * worked out again only when one of those changed. An import's undo journal never restores it
 * (undo-triggers.ts): it only ever goes up.
 */
const ANNOTATOR_SEQ_V16 = `
CREATE INDEX labels_annotator_seq ON labels(annotator_id, seq, pool_id);

CREATE TABLE change_counts (
  what TEXT PRIMARY KEY,
  n    INTEGER NOT NULL
) STRICT;
INSERT INTO change_counts(what, n) VALUES ('run_visibility', 0);
CREATE TRIGGER models_insert_run_visibility AFTER INSERT ON models
  BEGIN UPDATE change_counts SET n = n + 1 WHERE what = 'run_visibility'; END;
CREATE TRIGGER models_update_run_visibility AFTER UPDATE ON models
  BEGIN UPDATE change_counts SET n = n + 1 WHERE what = 'run_visibility'; END;
CREATE TRIGGER models_delete_run_visibility AFTER DELETE ON models
  BEGIN UPDATE change_counts SET n = n + 1 WHERE what = 'run_visibility'; END;
CREATE TRIGGER pools_insert_run_visibility AFTER INSERT ON pools
  BEGIN UPDATE change_counts SET n = n + 1 WHERE what = 'run_visibility'; END;
CREATE TRIGGER pools_update_run_visibility AFTER UPDATE OF name, blind ON pools
  BEGIN UPDATE change_counts SET n = n + 1 WHERE what = 'run_visibility'; END;
CREATE TRIGGER pools_delete_run_visibility AFTER DELETE ON pools
  BEGIN UPDATE change_counts SET n = n + 1 WHERE what = 'run_visibility'; END;
`;

/**
 * Migration 17 — a failed, cancelled or unchanged import no longer takes away the undo of the
 * import before it (undo-journal.ts). The journal held one import: a new one cleared the last
 * finished import's kept journal before its first chunk, so a re-import that changed nothing, or
 * one refused halfway through a bad file, left the owner unable to undo the import before it.
 * - from_seq: the header's own journal entries are those with seq > from_seq (entries at or below
 *   it are a finished import's left over after a later import replaced it, cleared by the next one).
 * - kept: while an import runs over a kept journal, that journal's header (JSON, with its own
 *   from_seq); its entries lie between its from_seq and this import's. Put back when the running
 *   import is undone (failed, cancelled, interrupted) or changed nothing; cleared when it finishes.
 */
const IMPORT_KEPT_V17 = `
ALTER TABLE import_journal ADD COLUMN from_seq INTEGER NOT NULL DEFAULT 0;
ALTER TABLE import_journal ADD COLUMN kept TEXT;
`;

/**
 * Migration 18 — the labels a live retrain did not train on. A retrain trains on the pool's fully
 * labeled queries only (src/main/training/live-retrain.ts); it marks as covered the label events up
 * to the last one it read (live_training.last_label_seq, now that snapshot's), and lists here the
 * pairs labeled by then on queries it left out (still being labeled): they count toward the next
 * retrain once their query is labeled on (src/main/training/live-store.ts). Rows go with their pool;
 * each successful retrain replaces its pool's rows.
 */
const LIVE_UNCOVERED_V18 = `
CREATE TABLE live_uncovered (
  pool_id      INTEGER NOT NULL REFERENCES pools(id) ON DELETE CASCADE,
  query_id     TEXT NOT NULL,
  candidate_id TEXT NOT NULL,
  PRIMARY KEY (pool_id, query_id, candidate_id)
) STRICT;
`;

/**
 * The undo of the last import commits in chunks (undo-last.ts) and records how far it has got, so
 * that a cancel, a crash or a kill leaves a workspace that says it is partly undone and can finish
 * it (undo-progress.ts). An older QPairs would not know that state: it could run a new import over
 * the partly undone one's journal and leave the workspace half undone with no word. A schema of its
 * own makes those QPairs refuse such a file. A marker kept in `meta` by a build before this
 * migration (never released) moves over.
 */
const UNDO_PROGRESS_V19 = `
CREATE TABLE import_undo_progress (
  id     INTEGER PRIMARY KEY CHECK (id = 1),
  marker TEXT NOT NULL
) STRICT;
INSERT INTO import_undo_progress(id, marker) SELECT 1, CAST(value AS TEXT) FROM meta WHERE key = 'import_undo_running';
DELETE FROM meta WHERE key = 'import_undo_running';
`;

/**
 * Migration 20 — when each person became a judge of each pool. A judge's label is a ruling, but a
 * person's labels given before they judged the pool — votes as one of its annotators, then left out
 * of its assignment or made a judge — are not: without this a judge's earlier votes turned into
 * rulings on the disagreements they had voted on (state.ts). `after_seq`: the person's last label
 * event in the pool when they became its judge; their labels given here up to it are never
 * rulings (imported ones still are: imports bring back rulings already made).
 */
const JUDGE_SINCE_V20 = `
CREATE TABLE pool_judge_since (
  pool_id      INTEGER NOT NULL REFERENCES pools(id) ON DELETE CASCADE,
  annotator_id INTEGER NOT NULL REFERENCES annotators(id),
  after_seq    INTEGER NOT NULL,
  PRIMARY KEY (pool_id, annotator_id)
) STRICT, WITHOUT ROWID;
`;

/**
 * Migration 21 — every span of time each person judged each pool (src/main/gold/judge-spans.ts),
 * where migration 20 kept one mark: when they last began judging it. A judge made an annotator and
 * then a judge again had that mark moved past the rulings of her first span, which then counted as
 * votes set aside, changing gold and the datasheet with nobody acting. A span holds the person's
 * label events in the pool after `after_seq` and up to `until_seq` (NULL: still judging). Each
 * mark becomes a span from it: open when the person still judges the pool (role judge, not
 * assigned to it); else empty, ended where it began — when they stopped is not known, so their
 * labels up to now stay votes, as schema 20 read them.
 */
const JUDGE_SPANS_V21 = `
CREATE TABLE pool_judge_spans (
  pool_id      INTEGER NOT NULL REFERENCES pools(id) ON DELETE CASCADE,
  annotator_id INTEGER NOT NULL REFERENCES annotators(id),
  after_seq    INTEGER NOT NULL,
  until_seq    INTEGER CHECK (until_seq IS NULL OR until_seq >= after_seq),
  PRIMARY KEY (pool_id, annotator_id, after_seq)
) STRICT, WITHOUT ROWID;
INSERT INTO pool_judge_spans(pool_id, annotator_id, after_seq, until_seq)
  SELECT j.pool_id, j.annotator_id, j.after_seq,
         CASE WHEN a.role = 'judge' AND NOT EXISTS (SELECT 1 FROM pool_annotators pa WHERE pa.pool_id = j.pool_id AND pa.annotator_id = j.annotator_id)
              THEN NULL ELSE j.after_seq END
  FROM pool_judge_since j JOIN annotators a ON a.id = j.annotator_id;
DROP TABLE pool_judge_since;
`;

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'core schema: questions, pairs, pools, annotators, labels, runs, bm25 index', sql: CORE_V1 + BM25_SCHEMA_SQL },
  { version: 2, name: 'gold: pool annotators, assignment, aggregation rule', sql: GOLD_V2 },
  { version: 3, name: 'models: trained rerankers with their weights and reports', sql: MODELS_V3 },
  { version: 4, name: 'answers: answers and comments as unlabeled text', sql: ANSWERS_V4 },
  { version: 5, name: 'trust: blind pools with their history, owner role', sql: TRUST_V5 },
  { version: 6, name: 'import journal: chunked imports that can still be undone', sql: IMPORT_JOURNAL_V6 },
  { version: 7, name: 'model training queries: what each model was trained on, for the overlap check', sql: MODEL_TRAINED_ON_V7 },
  { version: 8, name: 'model in the loop: labeling order, its draw log, live retraining and its learning curve', sql: LABEL_ORDER_V8 },
  {
    version: 9,
    name: 'repair: live retraining tables for workspaces whose migration 8 predates them',
    sql: REPAIR_LIVE_TRAINING_V9,
    repairs: ['live_training', 'live_curve'],
  },
  { version: 10, name: 'notes on labels, and each pool\'s evaluation convention', sql: NOTES_CONVENTION_V10 },
  { version: 11, name: 'team: hashed annotator tokens, question text history, model owners', sql: TEAM_V11 },
  { version: 12, name: 'candidate-level labeling orders', sql: CANDIDATE_ORDER_V12 },
  { version: 13, name: 'live retraining: the training-pool copies each retrain left out', sql: LIVE_COPIES_V13 },
  { version: 14, name: 'questions by source: statistics and source filters without a scan of the texts', sql: QUESTIONS_SOURCE_V14 },
  { version: 15, name: 'runs stored out of sight until whole; the pool\'s label version from an index', sql: STAGED_RUNS_V15 },
  { version: 16, name: 'an annotator\'s own event numbers from an index; a count of the changes to run visibility', sql: ANNOTATOR_SEQ_V16 },
  { version: 17, name: 'the last finished import stays undoable through an import that fails or changes nothing', sql: IMPORT_KEPT_V17 },
  { version: 18, name: 'live retraining: the labels a retrain did not train on', sql: LIVE_UNCOVERED_V18 },
  { version: 19, name: 'an import\'s undo under way, recorded chunk by chunk', sql: UNDO_PROGRESS_V19 },
  { version: 20, name: 'when each person became a judge of each pool: their earlier votes are not rulings', sql: JUDGE_SINCE_V20 },
  { version: 21, name: 'every span of time each person judged each pool: rulings made in an earlier span stay rulings', sql: JUDGE_SPANS_V21 },
];

/**
 * Checks that migrations are numbered 1, 2, …, N in order, without gaps or repeats (a workspace's
 * user_version is the number of migrations applied, so a gap or a swap would skip or re-run one)
 * and returns N. Throws a plain Error: a wrong list is a bug in QPairs, not in the user's file.
 */
export function checkMigrationOrder(migrations: readonly Migration[]): number {
  if (migrations.length === 0) throw new Error('workspace migrations: the list is empty');
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) {
      throw new Error(
        `workspace migrations must run 1 … N without gaps: entry ${i + 1} ("${m.name}") is migration ${m.version}, expected ${i + 1}`,
      );
    }
  });
  return migrations.length;
}

/** The newest workspace schema: the number of the last migration (checked at start-up: 1 … N, no gaps). */
export const SCHEMA_VERSION = checkMigrationOrder(MIGRATIONS);
