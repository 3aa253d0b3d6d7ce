/**
 * Persistence in the workspace database: loading a stored index (or an empty, outdated one),
 * checking its format and tokenizer, saving changes as an appended segment or a rewrite, and the
 * import path's bounded operations (append a segment without loading, merge the tail of small
 * segments). Storage layout: ./segments.ts; stored settings: ./stored-settings.ts.
 */
import type { Database } from 'better-sqlite3';
import { QPairsError } from '../errors';
import { DEFAULT_ANALYZER, type AnalyzerName } from './analyzers';
import { addDocuments } from './add-documents';
import type { Bm25Document, Bm25Options, PersistResult } from './bm25-types';
import { IndexState } from './index-state';
import { flush } from './merge';
import { insertDocs, moveDocs, segmentBytes, segmentData } from './segment-encode';
import { loadSegments, loadSegmentSteps } from './segment-load';
import { runSteps } from './steps';
import { assertLittleEndian, clearStored, readMeta, readSegments, SEGMENT_FORMAT, segmentIds, writeMeta, writeSegment, type SegmentData } from './segments';
import { storedSettings, withStoredSettings } from './stored-settings';

/**
 * The index persisted in a workspace database (an empty index when there is none), with the
 * analyzer and tokenizer settings it was built with unless `opts` names them; an index of an
 * older QPairs loads empty and marked outdated (see Bm25Index.load).
 */
export function loadState(db: Database, opts: Bm25Options = {}): IndexState {
  return runSteps(loadStateSteps(db, opts));
}

/** loadState in steps (segment-load.ts loadSegmentSteps): the stored rows are read at the first. */
export function* loadStateSteps(db: Database, opts: Bm25Options = {}): Generator<void, IndexState> {
  assertLittleEndian();
  const stored = storedSettings(readMeta(db));
  const segs = stored.outdated ? [] : readSegments(db);
  const st = new IndexState(withStoredSettings(opts, stored));
  if (stored.outdated && segmentIds(db).length > 0) {
    st.outdated = true;
    return st;
  }
  if (segs.length === 0) return st;
  checkStored(st, readMeta(db));
  yield* loadSegmentSteps(st, segs);
  return st;
}

/** The analyzer of the workspace's stored index (the default when there is none). */
export function storedAnalyzer(db: Database): AnalyzerName {
  return storedSettings(readMeta(db)).analyzer ?? DEFAULT_ANALYZER;
}

/** Throws unless the persisted index was written in this format with this index's tokenizer. */
function checkStored(st: IndexState, meta: Map<string, string>): void {
  if (meta.get('format') !== SEGMENT_FORMAT)
    throw new QPairsError(`the BM25 index in this workspace has format ${meta.get('format') ?? '(none)'}, this version reads ${SEGMENT_FORMAT}; rebuild the index`, {
      record: 'bm25_meta.format',
      reason: 'format mismatch',
    });
  if (meta.get('tokenizer') !== st.tokenizer.signature)
    throw new QPairsError(`the BM25 index in this workspace was built with other tokenizer settings (${meta.get('tokenizer') ?? '(none)'}); rebuild the index`, {
      record: 'bm25_meta.tokenizer',
      reason: 'tokenizer mismatch',
    });
}

/** What bm25_meta records of an index. */
function metaValues(st: IndexState): Record<string, string> {
  return { format: SEGMENT_FORMAT, tokenizer: st.tokenizer.signature, analyzer: st.tokenizer.analyzer };
}

/** See Bm25Index.appendSegment. */
export function appendSegment(db: Database, docs: Iterable<Bm25Document>, opts: Bm25Options = {}): PersistResult {
  const st = appendState(db, opts);
  addDocuments(st, docs);
  return writeAppended(db, st);
}

/** An empty index with the settings of the index stored in `db`, to fill and hand to writeAppended. */
export function appendState(db: Database, opts: Bm25Options = {}): IndexState {
  return new IndexState(appendOptions(db, opts));
}

/** Records the settings of an index that holds no segment yet (a rebuild of an empty workspace), so later appends use them. */
export function writeSettings(db: Database, opts: Bm25Options): void {
  writeMeta(db, metaValues(new IndexState(opts)));
}

/** The options appendState builds with: `opts`, with the stored index's tokenizer settings unless given (plain data: a worker can build the same state). */
export function appendOptions(db: Database, opts: Bm25Options = {}): Bm25Options {
  assertLittleEndian();
  return withStoredSettings(opts, storedSettings(readMeta(db)));
}

/**
 * Appends what `st` (from appendState, then filled) holds to the index stored in `db` as one new
 * segment: the second half of appendSegment (an index of an older QPairs is cleared first; a
 * stored index of other tokenizer settings is an error).
 */
export function writeAppended(db: Database, st: IndexState): PersistResult {
  return writeEncoded(db, st, encodeAppended(st));
}

/** The segment of what `st` holds (null when it holds no live document): the part of writeAppended that needs no database (a worker thread runs it). */
export function encodeAppended(st: IndexState): SegmentData | null {
  if (st.nLive === 0) return null;
  flush(st);
  return segmentData(st, 0, []);
}

/**
 * Writes a segment from encodeAppended to the index stored in `db`, the rest of writeAppended;
 * `settings`: an IndexState with the settings the segment was built with (its documents unused).
 */
export function writeEncoded(db: Database, settings: IndexState, data: SegmentData | null): PersistResult {
  const stored = storedSettings(readMeta(db));
  let fresh = !db.prepare(`SELECT 1 FROM bm25_segments LIMIT 1`).get();
  if (!fresh && stored.outdated) {
    // An index of an older QPairs: start over (questions not in this segment are indexed by
    // the next sync, see queries.ts syncWithQuestions).
    clearStored(db);
    fresh = true;
  }
  if (!fresh) checkStored(settings, readMeta(db));
  if (!data) return { mode: 'unchanged', docs: 0, bytes: 0 };
  db.transaction(() => {
    if (fresh) writeMeta(db, metaValues(settings));
    const seg = writeSegment(db, data);
    insertDocs(db, seg, data.docs, data.lengths, true);
  })();
  return { mode: 'append', docs: data.docs.length, bytes: segmentBytes(data) };
}

/** See Bm25Index.mergeTail. */
export function mergeTail(db: Database, opts: Bm25Options & { minSegments?: number; smallDocs?: number } = {}): { segments: number; docs: number } | null {
  assertLittleEndian();
  const min = Math.max(2, opts.minSegments ?? 8);
  const small = opts.smallDocs ?? 4096;
  const tail = db.prepare(`SELECT seg, n_docs, n_removed FROM bm25_segments ORDER BY seg DESC LIMIT 256`).all() as Array<{
    seg: number;
    n_docs: number;
    n_removed: number;
  }>;
  let k = 0;
  while (k < tail.length && tail[k]!.n_docs <= small && tail[k]!.n_removed === 0) k++;
  if (k < min) return null;
  const from = tail[k - 1]!.seg;
  const stored = storedSettings(readMeta(db));
  if (stored.outdated) return null;
  const st = new IndexState(withStoredSettings(opts, stored));
  checkStored(st, readMeta(db));
  loadSegments(st, readSegments(db, from));
  flush(st);
  const data = segmentData(st, 0, []);
  db.transaction(() => {
    const seg = writeSegment(db, data);
    db.prepare(`DELETE FROM bm25_postings WHERE seg >= ? AND seg < ?`).run(from, seg);
    db.prepare(`DELETE FROM bm25_segments WHERE seg >= ? AND seg < ?`).run(from, seg);
    moveDocs(db, seg, data.docs, data.lengths);
  })();
  return { segments: k, docs: data.docs.length };
}

/**
 * Saves changes to the workspace database in one transaction. Normally appends one segment
 * with the documents added or re-indexed since the last persist/load (plus removals); rewrites
 * everything as a single segment when the database does not hold exactly the segments this
 * index was loaded from / last wrote (e.g. a fresh index), when there would be more than
 * `maxSegments` segments, or when over half of the stored documents are superseded.
 */
export function persist(st: IndexState, db: Database, opts: { compact?: boolean } = {}): PersistResult {
  assertLittleEndian();
  flush(st);
  const result = db.transaction((): { res: PersistResult; segs: number[] } => {
    const segs = segmentIds(db);
    const meta = readMeta(db);
    const sameBase =
      segs.length > 0 &&
      segs.length === st.knownSegs.length &&
      segs.every((s, i) => s === st.knownSegs[i]) &&
      meta.get('tokenizer') === st.tokenizer.signature &&
      meta.get('format') === SEGMENT_FORMAT;
    const hasNew = st.changesSincePersist > 0;
    if (sameBase && !hasNew && !opts.compact) return { res: { mode: 'unchanged', docs: 0, bytes: 0 }, segs };
    const append =
      sameBase &&
      !opts.compact &&
      segs.length + 1 <= st.maxSegments &&
      st.persistedSuperseded + st.removedSincePersist.size <= st.nLive;
    if (append) {
      const data = segmentData(st, st.persistedMark, [...st.removedSincePersist]);
      const seg = writeSegment(db, data);
      const del = db.prepare(`DELETE FROM bm25_docs WHERE doc = ?`);
      for (const doc of st.removedSincePersist) del.run(doc);
      insertDocs(db, seg, data.docs, data.lengths, true);
      return { res: { mode: 'append', docs: data.docs.length, bytes: segmentBytes(data) }, segs: [...segs, seg] };
    }
    db.exec(`DELETE FROM bm25_postings; DELETE FROM bm25_segments; DELETE FROM bm25_docs;`);
    db.exec(`DELETE FROM bm25_meta`);
    writeMeta(db, metaValues(st));
    const data = segmentData(st, 0, []);
    const seg = writeSegment(db, data);
    insertDocs(db, seg, data.docs, data.lengths, false);
    return { res: { mode: 'rewrite', docs: data.docs.length, bytes: segmentBytes(data) }, segs: [seg] };
  })();
  if (result.res.mode === 'rewrite') {
    st.persistedSuperseded = 0;
    st.outdated = false;
  }
  if (result.res.mode !== 'unchanged') {
    st.persistedMark = st.nOrd;
    st.removedSincePersist.clear();
    st.changesSincePersist = 0;
  }
  st.knownSegs = result.segs;
  return result.res;
}
