import type { CommandResults, ImportFormat, ParsedArgs } from '../../shared/contract';
import type { LabelScheme } from '../../shared/labels';
import type { PoolInfo } from '../../shared/types';
import { FORM_IMPORT_CONTROLS } from '../../shared/import-controls';
import path from 'node:path';
import { Bm25Index, questionDocuments, syncedInSlices, syncWithQuestions, topKForQueries, type AnalyzerName, type Bm25Document, type Bm25Hit } from '../bm25';
import { CancelledError, QPairsError, throwIfAborted, yieldThenThrowIfAborted } from '../errors';
import { importFiles, refuseUnusedOptions, type ImportOptions, type ImportReport } from '../import';
import { StreamingIndexer } from './streaming-indexer';
import { runUndoable, type WriteTurns } from '../workspace/undo-journal';
import { undoFinishingMessage } from '../workspace/undo-progress';
import { Workspace } from '../workspace/workspace';
import { readPoolOrder, writePoolOrder } from '../active/draw-log';
import { writeNewPool } from './pool-write';
import type { QueryOrder } from '../../shared/label-order';
import type { EngineCore as Engine } from './core';
import type { JobContext, JobKind, JobStartOptions } from './jobs';
import { importSubject } from './import-subject';
import type { GateTurns } from './write-gate';
import { listModels } from '../training/store';
import { scoreJob } from './models';
import { mulberry32 } from './seeded';
import { poolsChanged, poolStamps, type PoolStamps } from './pool-stamps';

export type Progress = (done: number, total: number, note?: string) => void;

// ------------------------------------------------------------------ the BM25 index of a workspace

const indexes = new WeakMap<Workspace, Bm25Index>();

/** Workspaces whose index is dropped when another connection commits (see Workspace.noticeExternalChanges). */
const watched = new WeakSet<Workspace>();

/**
 * The workspace's BM25 index, loaded once per open workspace and kept in step with the
 * questions table (questions added by other means are indexed on first use). Dropped, so the next
 * use reloads it, when the workspace notices another connection's commits (Engine.invoke asks).
 */
export function indexOf(ws: Workspace, onProgress?: Progress): Bm25Index {
  watchExternalChanges(ws);
  let idx = indexes.get(ws);
  if (!idx || preloadedUnsynced.has(ws)) {
    idx ??= Bm25Index.load(ws.db);
    preloadedUnsynced.delete(ws);
    const sync = syncWithQuestions(idx, ws.db, { onProgress: (d, t) => onProgress?.(d, t, 'indexing') });
    void sync;
    indexes.set(ws, idx);
  }
  return idx;
}

function watchExternalChanges(ws: Workspace): void {
  if (watched.has(ws)) return;
  watched.add(ws);
  ws.onExternalChange(() => dropIndex(ws));
}

/** Indexes preloadIndex loaded that are not in step with the questions (syncing is a write: indexOf does it, under the write gate). */
const preloadedUnsynced = new WeakSet<Workspace>();
const preloads = new WeakMap<Workspace, Promise<void>>();

/** What is stored of the index and of the questions it indexes, to tell whether a commit changed them while preloadIndex read them. */
function storedIndexVersion(ws: Workspace): string {
  const segments = ws.db.prepare(`SELECT count(*), max(seg), sum(n_docs), sum(n_removed), sum(n_postings) FROM bm25_segments`).raw().get();
  const questions = ws.db.prepare(`SELECT count(*), max(doc) FROM questions`).raw().get();
  return JSON.stringify([segments, questions]);
}

/**
 * Loads the workspace's index in the background, in slices on this thread (Bm25Index.loadInSlices),
 * unless it is loaded: loading it in one go when a search or a query view first needed it held
 * every request, labels included, for 3-8 s at 1M questions, after each server start, import and
 * undo. A search or pool creation asked meanwhile waits for it (indexReady). Reads only; an index a
 * commit changed while it was read is not kept (the next use loads it), nor one loaded meanwhile.
 */
export function preloadIndex(ws: Workspace, signal?: AbortSignal, sliceMs?: number): Promise<void> {
  // One under way read what was stored when it began: once it is over, again (a no-op if it kept what is stored now).
  const running = preloads.get(ws);
  if (running) return running.then(() => preloadIndex(ws, signal, sliceMs));
  if (indexes.has(ws)) return Promise.resolve();
  const slices = { signal, ...(sliceMs === undefined ? {} : { sliceMs }) };
  const load = (async () => {
    const before = storedIndexVersion(ws);
    const idx = await Bm25Index.loadInSlices(ws.db, {}, slices);
    // Whether it is in step with the questions, found here too rather than under the write gate at its first use.
    const synced = await syncedInSlices(idx, ws.db);
    if (indexes.has(ws) || signal?.aborted || storedIndexVersion(ws) !== before) return idx.close();
    watchExternalChanges(ws);
    indexes.set(ws, idx);
    if (!synced) preloadedUnsynced.add(ws);
    // Then its search bounds, in slices too (the first searches paid about 550 ms for them at 1M
    // questions): not awaited by indexReady, as searches meanwhile compute what they need.
    else void idx.warmInSlices(slices).catch(() => {});
  })()
    .catch(() => {
      // A closed workspace, a cancel, a stored index that cannot be read: the next use loads it (and says why).
    })
    .finally(() => preloads.delete(ws));
  preloads.set(ws, load);
  return load;
}

/** Waits for the index preloadIndex is loading, if any (then indexOf takes it rather than loading it again). */
export async function indexReady(ws: Workspace): Promise<void> {
  await preloads.get(ws);
}

/** The workspace's BM25 index if it is loaded, else undefined (nothing is loaded, synced or written). */
export function heldIndex(ws: Workspace): Bm25Index | undefined {
  return indexes.get(ws);
}

/**
 * An import or undo that wrote through its own connection is over: its commits are taken in now, not
 * at the next request (which would drop the index loading meanwhile in the background), the index
 * is loaded again, and every client told — of the pools it wrote to (`before`: the pools' stamps
 * when it began, and `inPlace`: those it changed without changing their stamps, a question's text or
 * a run's scores; an annotator is told only of those open to her, access.ts). Without `before` the
 * event names no pool: an annotator hears of it only when it opened or closed a pool to her.
 */
export function afterImportCommits(engine: Engine, before?: PoolStamps, inPlace: readonly string[] = []): void {
  engine.ws.noticeExternalChanges();
  dropIndex(engine.ws);
  engine.indexChanged();
  const pools = before ? [...new Set([...poolsChanged(before, poolStamps(engine.ws)), ...inPlace])].sort() : undefined;
  engine.hub.emit('workspace.changed', { what: 'import', ...(pools ? { pools } : {}) });
}

/** Forgets the in-memory index (after a rolled-back transaction); the next use reloads it. */
export function dropIndex(ws: Workspace): void {
  indexes.get(ws)?.close();
  indexes.delete(ws);
  preloadedUnsynced.delete(ws);
}

// ------------------------------------------------------------------ imports

/** The import options a command passes through to importFiles (ImportOptions says what each does), with the engine's progress callback. */
export type RunImportOptions = Pick<ImportOptions, 'pool' | 'annotator' | 'scheme' | 'source' | 'update' | 'strict' | 'controls' | 'signal' | 'recordedName' | 'uploads'> & {
  onProgress?: Progress;
};

/**
 * Import tuning (benchmarks and tests): a chunk commits after `chunkMs` of work (undefined: the
 * journal's default, 50 ms when other writers may wait, 500 ms for a CLI import), or after
 * `contendedMs` when another write waits for the gate; `oneTransaction` restores the former
 * behaviour — one transaction holding the write gate for the whole import, and for the whole undo
 * of one (undo-import.ts; `chunkMs` sets its chunks too) — for comparisons;
 * `indexInWorker` off tokenizes in the import's own thread (StreamingIndexer).
 */
export const importTuning: { chunkMs: number | undefined; contendedMs: number; oneTransaction: boolean; indexInWorker: boolean } = {
  chunkMs: undefined,
  contendedMs: 5,
  oneTransaction: false,
  indexInWorker: true,
};

/**
 * Imports files and extends the BM25 index with the questions they added or changed, as ONE
 * undoable write committed in bounded chunks (workspace/undo-journal.ts). The index grows as the
 * records are read (StreamingIndexer): each question written is tokenized at once into the segment
 * being built, which is appended when it holds SEGMENT_DOCS questions (a write of a few ms inside
 * a chunk) and at the end. Readers see the committed chunks; a malformed file, a cancel or a
 * crash (at the next open) undoes everything, also the committed chunks, leaving the workspace
 * as it was. `turns`: the engine's write gate, given up between chunks so that label writes
 * wait at most about one chunk.
 */
export async function runImport(
  ws: Workspace,
  format: ImportFormat,
  files: readonly string[],
  opts: RunImportOptions & { turns?: WriteTurns } = {},
): Promise<ImportReport> {
  const onProgress = opts.onProgress;
  const what = `${format} import of ${files.map((f) => path.basename(f)).join(', ')}`;
  const one = importTuning.oneTransaction;
  try {
    return await runUndoable(
      ws,
      { what, turns: opts.turns, signal: opts.signal, chunkMs: importTuning.chunkMs, contendedMs: importTuning.contendedMs, oneTransaction: one },
      async (chunks) => {
        const indexer = one ? null : new StreamingIndexer(ws.db, { inWorker: importTuning.indexInWorker });
        try {
          const report = await importFiles(ws, format, files, {
            pool: opts.pool,
            annotator: opts.annotator,
            scheme: opts.scheme,
            source: opts.source,
            update: opts.update,
            strict: opts.strict,
            controls: opts.controls,
            signal: opts.signal,
            recordedName: opts.recordedName,
            uploads: opts.uploads,
            onQuestionText: indexer ? (doc, title, body) => indexer.add(doc, title, body) : undefined,
            onProgress: (p) => onProgress?.(p.bytesDone, p.bytesTotal, `${p.records.toLocaleString('en-US')} records`),
          });
          if (report.changedDocs.length > 0) {
            if (!indexer) {
              // The former way: extend the loaded index in memory, persist it in the same transaction.
              const idx = indexOf(ws);
              idx.addDocuments(questionDocuments(ws.db, report.changedDocs), {
                total: report.changedDocs.length,
                signal: opts.signal,
                onProgress: (d, t) => onProgress?.(d, t, 'indexing'),
              });
              idx.persist(ws.db);
            } else {
              throwIfAborted(opts.signal);
              await indexer.finish();
              onProgress?.(report.changedDocs.length, report.changedDocs.length, 'indexing');
              await chunks.checkpoint();
            }
          }
          throwIfAborted(opts.signal);
          return report;
        } finally {
          indexer?.close();
        }
      },
    );
  } finally {
    // The stored index changed under any index loaded through this connection (or was rolled back).
    dropIndex(ws);
  }
}

// ------------------------------------------------------------------ pools

export interface PoolSpec {
  name: string;
  queries?: string[];
  sample?: { n: number; seed: number };
  depth: number;
  scheme: LabelScheme;
  /** Annotators label the pool blind (default true). */
  blind?: boolean;
  /**
   * Restrict the pool to one corpus (questions.source): queries (listed or sampled) must be of
   * it, and candidates are retrieved among its questions only. Omitted: every corpus mixes.
   */
  source?: string;
  /**
   * The BM25 analyzer of this pool's retrieval (bm25/analyzers.ts). Omitted or the workspace
   * index's own: that index; another: a one-off index of every question built with it.
   */
  analyzer?: AnalyzerName;
  /** How annotators' next query is chosen (default the pool's order) and the seed of its draws. */
  order?: QueryOrder;
  orderSeed?: number;
  /** The pool's evaluation convention (default zero; issue 24). */
  convention?: 'skip' | 'zero';
}

/**
 * The owner's settings of an existing pool, changed in one transaction: blind or open (kept in the
 * pool's blind history) and the labeling order and its seed (draws made so far stay).
 */
export function setPoolSettings(ws: Workspace, pool: string, s: { blind?: boolean; order?: QueryOrder; orderSeed?: number; convention?: 'skip' | 'zero' }): PoolInfo {
  ws.transaction(() => {
    if (s.blind !== undefined) ws.setPoolBlind(pool, s.blind);
    if (s.convention !== undefined) ws.setPoolConvention(pool, s.convention);
    if (s.order !== undefined || s.orderSeed !== undefined) writePoolOrder(ws, pool, s.order ?? readPoolOrder(ws, pool).order, s.orderSeed);
  });
  return ws.pool(pool);
}

/**
 * A seeded sample of n question ids: the same workspace, n, seed (and source) always give the
 * same ids. With `source`, only questions of that corpus (questions.source) are sampled.
 */
export async function sampleQueries(
  ws: Workspace,
  n: number,
  seed: number,
  o: { source?: string | undefined; between?: (() => Promise<void>) | undefined; pageSize?: number; signal?: AbortSignal | undefined } = {},
): Promise<string[]> {
  const { source, between, pageSize = SAMPLE_PAGE, signal } = o;
  // Read in pages of doc numbers, `between` awaited after each: reading 1M questions' ids through the
  // text filter took 360 ms under the write gate, labels waiting. The same ids in the same order.
  const page = ws.db.prepare(
    `SELECT doc, id FROM questions WHERE doc > ? AND (title <> '' OR body <> '')${source === undefined ? '' : ' AND source = ?'} ORDER BY doc LIMIT ?`,
  );
  const ids: string[] = [];
  for (let after = Number.MIN_SAFE_INTEGER; ; ) {
    const rows = page.raw().all(...(source === undefined ? [after, pageSize] : [after, source, pageSize])) as Array<[number, string]>;
    for (const [, id] of rows) ids.push(id);
    if (rows.length < pageSize) break;
    after = rows[rows.length - 1]![0];
    // The event loop turns first, so requests arriving meanwhile (labels) reach the write gate and
    // `between` lets them through: awaiting it alone never read them (a label waited the whole sampling).
    await yieldThenThrowIfAborted(signal);
    await between?.();
  }
  const from = source === undefined ? 'the workspace has' : `source "${source}" has`;
  if (n > ids.length) throw new QPairsError(`cannot sample ${n} queries: ${from} ${ids.length} questions with text`);
  const rnd = mulberry32(seed);
  // Partial Fisher–Yates: the first n slots are the sample, in sampling order.
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(rnd() * (ids.length - i));
    [ids[i], ids[j]] = [ids[j]!, ids[i]!];
  }
  return ids.slice(0, n);
}

/** Questions per page of sampleQueries' reading. */
const SAMPLE_PAGE = 50_000;

/** The workspace's corpora (questions.source) with their question counts, largest first. */
export function questionSources(ws: Workspace): Array<{ source: string; questions: number }> {
  return ws.db.prepare(`SELECT source, COUNT(*) AS questions FROM questions GROUP BY source ORDER BY questions DESC, source`).all() as Array<{ source: string; questions: number }>;
}

/**
 * The top-k hits of a query restricted to one corpus: over-fetches the whole index's top-k' (k'
 * = 4k, then doubling) and keeps the hits whose question is of `source`, until k are found or the
 * index has no more matches. Exact: the index's order (score descending, doc ascending) restricted
 * to the source. Scores keep the whole workspace's statistics (N, document frequencies, avgdl).
 */
function topKInSource(idx: Bm25Index, q: Bm25Document, k: number, inSource: (doc: number) => boolean): Bm25Hit[] {
  for (let want = Math.max(4 * k, k + 16); ; want *= 2) {
    const hits = idx.searchDocument(q, want);
    const kept = hits.filter((h) => inSource(h.doc));
    if (kept.length >= k || hits.length < want) return kept.slice(0, k);
  }
}

/**
 * Creates a pool: for each query, its title + body retrieves the top-`depth` other questions by
 * BM25 (Lucene's formula, see bm25-index.ts); the candidates are stored in rank order and their
 * scores as the run `bm25`. One transaction, written in steps (pool-write.ts).
 */
export async function createPool(ws: Workspace, spec: PoolSpec, opts: { onProgress?: Progress; signal?: AbortSignal; letOthersRun?: () => Promise<void> } = {}): Promise<PoolInfo> {
  if (ws.findPool(spec.name)) throw new QPairsError(`pool "${spec.name}" already exists`);
  const source = spec.source;
  if (source !== undefined && !questionSources(ws).some((s) => s.source === source)) {
    throw new QPairsError(`no questions of source "${source}" in the workspace (sources: ${questionSources(ws).map((s) => s.source).join(', ') || 'none'})`);
  }
  const ids = spec.queries ?? (await sampleQueries(ws, spec.sample!.n, spec.sample!.seed, { source, between: opts.letOthersRun, signal: opts.signal }));
  // With a set: ids.indexOf per id took 0.75 s at 20,000 ids, with Ctrl-C unheard meanwhile.
  const seen = new Set<string>();
  const dup = ids.find((id) => {
    if (seen.has(id)) return true;
    seen.add(id);
    return false;
  });
  if (dup !== undefined) throw new QPairsError(`query ${dup} is listed twice`);
  const docs: number[] = [];
  const missing: string[] = [];
  for (const id of ids) {
    const d = ws.docOf(id);
    if (d === null) missing.push(id);
    else docs.push(d);
  }
  if (missing.length) {
    throw new QPairsError(
      `${missing.length} of ${ids.length} query ids are not questions in the workspace: ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', …' : ''}`,
    );
  }
  if (source !== undefined) {
    const srcOf = ws.db.prepare(`SELECT source FROM questions WHERE doc = ?`).pluck();
    const other = ids.filter((_, i) => srcOf.get(docs[i]!) !== source);
    if (other.length) {
      throw new QPairsError(`${other.length} of ${ids.length} query ids are not of source "${source}": ${other.slice(0, 10).join(', ')}${other.length > 10 ? ', …' : ''}`);
    }
  }
  let idx = indexOf(ws, opts.onProgress);
  if (spec.analyzer !== undefined && spec.analyzer !== idx.tokenizer.analyzer) {
    idx = new Bm25Index({ analyzer: spec.analyzer });
    const total = ws.db.prepare(`SELECT count(*) FROM questions`).pluck().get() as number;
    idx.addDocuments(questionDocuments(ws.db), { total, signal: opts.signal, onProgress: (d, t) => opts.onProgress?.(d, t, 'indexing') });
  }
  const analyzer = idx.tokenizer.analyzer;
  let search: ((q: Bm25Document) => Bm25Hit[]) | undefined;
  if (source !== undefined) {
    const inSourceDocs = new Set(ws.db.prepare(`SELECT doc FROM questions WHERE source = ?`).pluck().all(source) as number[]);
    search = (q) => topKInSource(idx, q, spec.depth, (d) => inSourceDocs.has(d));
  }
  // Lets the event loop turn as it goes, so opts.signal can stop it (Ctrl-C in the CLI).
  const hits = await topKForQueries(idx, questionDocuments(ws.db, docs), spec.depth, {
    total: docs.length,
    signal: opts.signal,
    search,
    // Labels given meanwhile are written between steps (at 1M questions, 300 queries kept them waiting 2.8 s).
    letOthersRun: opts.letOthersRun,
    // A cancel heard between two progress reports (every 100 queries) stops the retrieval there.
    onProgress: (d, t) => {
      throwIfAborted(opts.signal);
      opts.onProgress?.(d, t, 'retrieving');
    },
  });
  throwIfAborted(opts.signal);
  const sampling =
    (spec.sample ? `random sample of ${spec.sample.n} (seed ${spec.sample.seed})` : `${ids.length} listed query ids`) +
    (source !== undefined ? `; queries and candidates from source "${source}" only` : '');
  // One transaction in steps, the event loop turning between them (pool-write.ts).
  return writeNewPool(
    ws,
    {
      pool: { name: spec.name, scheme: spec.scheme, blind: spec.blind ?? true, convention: spec.convention ?? 'zero', retriever: `bm25 (k1=${idx.k1}, b=${idx.b}, analyzer ${analyzer})`, depth: spec.depth, sampling },
      order: spec.order !== undefined || spec.orderSeed !== undefined ? { order: spec.order ?? 'pool', seed: spec.orderSeed } : undefined,
      run: { k1: idx.k1, b: idx.b, analyzer, depth: spec.depth },
      ranked: hits.map((h, i) => ({ queryId: ids[i]!, hits: h.hits })),
    },
    {
      signal: opts.signal,
      // Another creation of this name may have run while this one let waiting writes through.
      alreadyExists: (w) => {
        if (w.findPool(spec.name)) throw new QPairsError(`pool "${spec.name}" already exists`);
      },
    },
  );
}

// ------------------------------------------------------------------ engine jobs

/**
 * Starts an import job; the result arrives as a `job.done` event. The import is a long write of
 * the engine's write gate (write-gate.ts), claimed at once in request order: it commits in chunks
 * and gives the gate up between them, so a label given meanwhile is written (and acknowledged)
 * between two chunks; a failed or cancelled import undoes its chunks and never the labels.
 */
export function importJob(engine: Engine, a: ParsedArgs<'import.start'>, startedBy: string | null = null): string {
  // An undo a crash or kill stopped partway, being finished in the background (undo-import.ts): the import would run over it.
  if (engine.ws.undoToFinish) throw new QPairsError(undoFinishingMessage(engine.ws.undoToFinish, 'import'));
  // Before any upload is read: the form's Pool, Annotator or Scheme given to a format that imports questions only.
  refuseUnusedOptions(a.format, { pool: a.pool, annotator: a.annotator, scheme: a.scheme, controls: FORM_IMPORT_CONTROLS });
  const files = a.sources.map((s) => ('path' in s ? s.path : engine.resolveUpload(s.uploadId, s.name)));
  // Errors, warnings and the report's file list name an uploaded file by the name the user chose,
  // never its temporary path on the server nor the folder holding it (a remote caller learns no server path).
  const uploads = a.sources.flatMap((s, i) => ('uploadId' in s ? [{ path: files[i]!, name: s.name }] : []));
  const named = (text: string): string => {
    for (const u of uploads) text = text.split(u.path).join(u.name).split(path.dirname(u.path)).join(`the upload of ${u.name}`);
    return text;
  };
  const nameUploads = (e: unknown): never => {
    if (e instanceof Error) e.message = named(e.message);
    throw e;
  };
  // The report the app receives (job.done): changedDocs, the BM25 doc number of every question the
  // import touched, is the index's business (the CLI does not print it either); one import of a
  // million questions sent every owner's tab a list of a million numbers.
  // Likewise poolsChangedInPlace, for the event below (and the audit).
  const forApp = ({ changedDocs: _index, poolsChangedInPlace: _event, ...r }: ImportReport): Omit<ImportReport, 'changedDocs' | 'poolsChangedInPlace'> =>
    uploads.length === 0 ? r : { ...r, files: r.files.map(named), warnings: r.warnings.map(named) };
  // What it imports, in its events (a tab that did not start it says what runs) and for an undo asked for meanwhile.
  const subject = importSubject(a, startedBy);
  return startLongWriteJob(engine, 'import', async (ctx, turns) => {
    // Other connections' commits before this import are taken in now: an unchanged import absorbs only its own (below).
    engine.ws.noticeExternalChanges();
    const versionBefore = engine.ws.externalVersion();
    const stampsBefore = poolStamps(engine.ws);
    let unchanged = false;
    let inPlace: string[] = [];
    // A second connection: the app reads the committed chunks meanwhile, and label writes go in
    // between them (the import gives the gate up at each chunk boundary).
    const importWs = Workspace.open(engine.ws.path);
    try {
      const report = await runImport(importWs, a.format, files, {
        turns: importTuning.oneTransaction ? undefined : turns,
        pool: a.pool,
        annotator: a.annotator,
        scheme: a.scheme,
        source: a.source,
        update: a.update,
        strict: a.strict,
        // The app's messages name its import form's fields, not the CLI's flags.
        controls: FORM_IMPORT_CONTROLS,
        signal: ctx.signal,
        // The workspace's audit of imports keeps an upload's chosen name too, not the server's temporary path.
        ...(uploads.length ? { recordedName: named, uploads: new Set(uploads.map((u) => u.path)) } : {}),
        onProgress: (d, t, note) => ctx.progress(d, t, note),
      }).catch(nameUploads);
      unchanged = report.unchanged === true;
      inPlace = report.poolsChangedInPlace ?? [];
      return forApp(report);
    } finally {
      importWs.close();
      if (unchanged) {
        // Nothing written but the journal's bookkeeping and the audit row: every client's screens, the
        // live metrics, the run scores and the BM25 index hold as they are (an unchanged re-import
        // announced a change to every client, which all refetched, and rebuilt the metrics).
        engine.ws.absorbExternalCommits(versionBefore);
      } else {
        afterImportCommits(engine, stampsBefore, inPlace);
      }
    }
  }, { import: subject });
}

/**
 * Starts job `kind` whose work is a long write of the engine's write gate (writes.long: after the
 * long writes before it, with the gate's turns to give up between its chunks): `work` runs once the
 * gate's turn and the job's context are both there. Returns the job's id at once. `opts.import`: what an import job imports (its events say it).
 */
export function startLongWriteJob(
  engine: Engine,
  kind: JobKind,
  work: (ctx: JobContext, turns: GateTurns) => Promise<unknown>,
  opts: Pick<JobStartOptions, 'import'> = {},
): string {
  let begin!: (ctx: JobContext) => void;
  const context = new Promise<JobContext>((r) => (begin = r));
  const result = engine.writes.long(async (turns) => work(await context, turns));
  return engine.jobs.start(
    kind,
    (ctx) => {
      begin(ctx);
      return result;
    },
    opts,
  );
}

/** What a pool creation's progress says in the app, from createPool's note. */
function poolProgressMessage(note: string | undefined, depth: number): string {
  if (note === 'indexing') return 'indexing the questions for BM25';
  if (note === 'retrieving') return `retrieving each query's BM25 top-${depth}`;
  return note ?? '';
}

/**
 * Creates a pool (BM25 top-k). Each trained model then scores it in a background job, so the
 * models rerank its candidates live as soon as they finish.
 */
export async function createPoolJob(engine: Engine, a: ParsedArgs<'pool.create'>, letOthersRun?: () => Promise<void>): Promise<CommandResults['pool.create']> {
  // Called holding the write gate: a running import (which may still roll back) ends first, so
  // the pool's BM25 candidates never come from half an import; the gate is held again then.
  await engine.writes.afterLongWrites();
  engine.ws.noticeExternalChanges();
  // A job of kind 'pool' (the request still answers with the pool): its job.progress events move
  // the Pools screen's bar, and job.cancel stops it before anything is written.
  let settle!: { resolve: (info: PoolInfo) => void; reject: (e: unknown) => void };
  const created = new Promise<PoolInfo>((resolve, reject) => (settle = { resolve, reject }));
  engine.jobs.start('pool', async (ctx) => {
    try {
      const info = await createPool(
        engine.ws,
        {
          name: a.name,
          queries: a.queries,
          sample: a.sample,
          depth: a.depth,
          scheme: a.scheme,
          blind: a.blind,
          source: a.source,
          analyzer: a.analyzer,
          order: a.order,
          orderSeed: a.orderSeed,
          convention: a.convention,
        },
        { signal: ctx.signal, letOthersRun, onProgress: (d, t, note) => ctx.progress(d, t, poolProgressMessage(note, a.depth)) },
      );
      settle.resolve(info);
      return info;
    } catch (e) {
      settle.reject(e);
      throw e;
    }
  });
  const info = await created.catch((e: unknown) => {
    // Cancelled (job.cancel) is the user's choice, not an internal error: said as such, over HTTP too.
    throw e instanceof CancelledError ? new QPairsError(`pool creation cancelled: pool "${a.name}" was not created`) : e;
  });
  engine.hub.emit('workspace.changed', { what: 'pool', pool: info.name });
  for (const m of listModels(engine.ws)) scoreJob(engine, { name: m.name, pool: info.name });
  return { ...info, queriesWithoutCandidate: engine.ws.queriesWithoutCandidates(info.name) };
}
