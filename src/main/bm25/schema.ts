/**
 * Tables of the persisted BM25 index (included by the workspace in migration 1).
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
