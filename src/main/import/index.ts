/**
 * Importers: `importFiles(ws, format, files, opts)` reads files of one format into a workspace as
 * ONE undoable write committed in bounded chunks (a failure or an abort undoes everything, leaving
 * the workspace exactly as it was), streaming them in bounded memory, and returns (and records in the `imports` table) a
 * report of what it did. Re-importing the same files adds nothing.
 */
import path from 'node:path';
import { importedPeopleNotes, knownPeople } from '../team/new-person';
import { lastLabelSeq, unassignedLabelNotes } from '../team/unassigned-labels';
import { CancelledError, QPairsError, throwIfAborted } from '../errors';
import { runUndoable } from '../workspace/undo-journal';
import type { Workspace } from '../workspace/workspace';
import { askubuntuPairs, askubuntuPool } from './askubuntu';
import { labelsCsv, labelsJsonl, qrels, semevalRelevancy } from './labels';
import { askubuntuCorpus, questionsCsv, questionsJsonl } from './questions';
import { fileSize } from './reader';
import { endRuns } from './pools';
import { poolsChangedInPlace, poolsHoldingAnsweredQuestions, poolsHoldingDocs } from './changed-in-place';
import { trecRun } from './runs';
import { semeval } from './semeval';
import { stackexchange } from './stackexchange';
import type { ImportContext, Importer, ImportOptions, ImportProgress, ImportReport } from './types';

import { IMPORT_FORMATS } from '../../shared/contract';
import { CLI_IMPORT_CONTROLS, QUESTIONS_ONLY_FORMATS, UNUSED_IMPORT_OPTIONS } from '../../shared/import-controls';
export type { ImportContext, Importer, ImportOptions, ImportProgress, ImportReport } from './types';
export { htmlToText, parseTags, decodeEntities } from './text';

/** The importers, by format name. */
export const IMPORTERS: readonly Importer[] = [
  questionsJsonl,
  questionsCsv,
  labelsCsv,
  labelsJsonl,
  qrels,
  trecRun,
  askubuntuCorpus,
  askubuntuPairs,
  askubuntuPool,
  semeval,
  semevalRelevancy,
  stackexchange,
];

/** The format names (the contract's list, so the CLI, the UI and the registry agree). */
export const IMPORT_FORMAT_NAMES = IMPORT_FORMATS;
export type ImportFormatName = (typeof IMPORT_FORMAT_NAMES)[number];

const REGISTRY = new Map(IMPORTERS.map((f) => [f.name, f]));

export function isImportFormat(name: string): name is ImportFormatName {
  return REGISTRY.has(name);
}

export function importerFor(name: string): Importer {
  const f = REGISTRY.get(name);
  if (!f) throw new QPairsError(`unknown import format "${name}" (formats: ${IMPORT_FORMAT_NAMES.join(', ')})`);
  return f;
}

/** At most this many warnings are kept in a report (the rest are counted in a last one). */
export const MAX_WARNINGS = 50;

/**
 * Imports files of one format into the workspace as one undoable write that commits in bounded
 * chunks (runUndoable, workspace/undo-journal.ts: inside runImport, the same write as the BM25
 * indexing; inside a transaction the caller opened, one savepoint). Throws QPairsError (file,
 * line, reason) for bad input and CancelledError when `opts.signal` aborts; either way the
 * chunks already committed are undone and nothing is left behind. `report.changedDocs` lists the doc numbers of inserted or updated questions
 * (for the BM25 index); the copy stored by `ws.recordImport` keeps only their number
 * (`changedDocCount`) so that the audit row of a large import stays small.
 */
export async function importFiles(ws: Workspace, format: string, files: readonly string[], opts: ImportOptions = {}): Promise<ImportReport> {
  const fmt = importerFor(format);
  refuseUnusedOptions(format, opts);
  if (files.length === 0) throw new QPairsError(`${format}: no files to import`);
  const list = fmt.expandFiles ? await fmt.expandFiles(files, opts.signal) : [...files];
  const sizes = list.map((f) => fileSize(f));
  throwIfAborted(opts.signal);

  const report: ImportReport = { format, files: list, counts: {}, skipped: {}, warnings: [], changedDocs: [] };
  const changed = new Set<number>();
  let extraWarnings = 0;
  const progress: ImportProgress = { bytesDone: 0, bytesTotal: sizes.reduce((a, b) => a + b, 0), records: 0 };
  let fileIndex = 0;
  let base = 0;
  let lastEmit = 0;
  const interval = opts.progressIntervalMs ?? 200;
  const emit = (force: boolean): void => {
    if (!opts.onProgress) return;
    const t = performance.now();
    if (!force && t - lastEmit < interval) return;
    lastEmit = t;
    opts.onProgress({ ...progress });
  };

  const ctx: { -readonly [K in keyof ImportContext]: ImportContext[K] } = {
    ws,
    format,
    opts,
    report,
    createdPools: new Set(),
    runsTouched: new Map(),
    labelsRead: new Map(),
    runQueriesRead: new Map(),
    questionSources: new Set(),
    answersUpdatedOf: new Set(),
    poolsWithNotesChanged: new Set(),
    poolsWritten: new Set(),
    signal: opts.signal,
    count(key, n = 1) {
      report.counts[key] = (report.counts[key] ?? 0) + n;
    },
    skip(reason, n = 1) {
      report.skipped[reason] = (report.skipped[reason] ?? 0) + n;
    },
    warn(message) {
      if (report.warnings.length < MAX_WARNINGS) report.warnings.push(message);
      else extraWarnings++;
    },
    changed(doc, title, body) {
      changed.add(doc);
      opts.onQuestionText?.(doc, title, body);
    },
    tick(records = 1) {
      progress.records += records;
      throwIfAborted(opts.signal);
      emit(false);
    },
    fileBytes(done) {
      progress.bytesDone = base + Math.min(done, sizes[fileIndex] ?? done);
      emit(false);
    },
    endFile() {
      base += sizes[fileIndex] ?? 0;
      fileIndex++;
      progress.bytesDone = base;
      emit(true);
    },
  };

  const what = `${format} import of ${list.map((f) => path.basename(f)).join(', ')}`;
  // The people before it: an --annotator (the app's Annotator field) or a file's annotator naming no one is said (a typo).
  const peopleBefore = knownPeople(ws);
  const labelSeqBefore = lastLabelSeq(ws);
  const maxDocBefore = ws.db.prepare(`SELECT coalesce(max(doc), 0) FROM questions`).pluck().get() as number;
  // The answers (and comments) it inserts are those after this rowid (a new row takes max(rowid) + 1).
  const maxAnswerRowidBefore = ws.db.prepare(`SELECT coalesce(max(rowid), 0) FROM answers`).pluck().get() as number;
  // A larger page cache while importing: the id indexes of questions and answers take rows in no
  // key order (ids sort as text), so with SQLite's default 2 MB most inserts read pages back from
  // the OS (a dump of 1M questions + 2.24M answers: 70 s → 62 s with 64 MiB; 256 MiB no faster).
  const cacheBefore = ws.db.pragma('cache_size', { simple: true }) as number;
  ws.db.pragma(`cache_size = -${IMPORT_CACHE_KIB}`);
  try {
    return await runUndoable(ws, { what, signal: opts.signal }, async (chunks) => {
      ctx.checkpoint = async () => {
        try {
          await chunks.checkpoint();
        } catch (e) {
          if (e instanceof QPairsError || e instanceof CancelledError) throw e;
          throw new QPairsError(`the import could not commit its progress: ${(e as Error).message}`);
        }
      };
      // Rows this connection writes from here on (the undo journal's triggers' included): none, and the import changed nothing.
      const rowsBefore = rowsWritten(ws);
      if (fmt.run) await fmt.run(ctx, list);
      else {
        for (const file of list) {
          await fmt.importFile!(ctx, file);
          ctx.endFile();
        }
      }
      throwIfAborted(opts.signal);
      const rescored = endRuns(ctx);
      const givenText = (report.counts.questionsInserted ?? 0) > 0 ? warnTextForPoolIds(ctx, maxDocBefore) : [];
      // The questions above maxDocBefore are inserted; the others changed were updated (some pool holds one: counted).
      const updated = (report.counts.questionsUpdatedInPools ?? 0) > 0 ? poolsHoldingDocs(ws, [...changed].filter((d) => d <= maxDocBefore)) : [];
      // Answers added to, updated in or moved to or from questions that pools hold: Browse's question shows their count.
      const answered = (report.counts.answersInserted ?? 0) + (report.counts.commentsInserted ?? 0) > 0 ? maxAnswerRowidBefore : null;
      const withAnswers = answered !== null || ctx.answersUpdatedOf.size > 0 ? poolsHoldingAnsweredQuestions(ws, answered, ctx.answersUpdatedOf) : [];
      const inPlace = poolsChangedInPlace(rescored, givenText, updated, withAnswers, ctx.poolsWithNotesChanged);
      if (inPlace.length > 0) report.poolsChangedInPlace = inPlace;
      if (extraWarnings > 0) report.warnings.push(`… and ${extraWarnings} more warnings`);
      report.warnings.push(...importedPeopleNotes(ws, peopleBefore, opts.annotator));
      report.warnings.push(...unassignedLabelNotes(ws, labelSeqBefore, opts.controls));
      report.changedDocs = [...changed].sort((a, b) => a - b);
      // Every file as the workspace holds it already: the audit says so, the app announces nothing
      // (engine/work.ts), and the import before stays the one `import undo` undoes.
      if (rowsWritten(ws) === rowsBefore) report.unchanged = true;
      const { changedDocs, ...rest } = report;
      const as = opts.recordedName ?? ((t: string) => t);
      const questionSources = [...ctx.questionSources].sort();
      const pools = [...ctx.poolsWritten].sort();
      ws.recordImport(format, list.map(as), { ...rest, files: rest.files.map(as), warnings: rest.warnings.map(as), changedDocCount: changedDocs.length, questionSources, pools });
      if (report.unchanged) chunks.changedNothing();
      return report;
    });
  } finally {
    ws.db.pragma(`cache_size = ${cacheBefore}`);
  }
}

/** Rows inserted, updated or deleted through the workspace's connection so far (SQLite's total_changes(), triggers included). */
function rowsWritten(ws: Workspace): number {
  return ws.db.prepare(`SELECT total_changes()`).pluck().get() as number;
}

/**
 * Ids are one namespace across sources, so questions an import adds may give text to ids that
 * pools made earlier listed without it (an AskUbuntu pool imported as ids, then another site's
 * dump numbering its posts from 1 too): such pools now show those texts. A warning per pool
 * (pools this import created are its own business), with a count, an example and the sources.
 * Returns every such pool (ImportReport.poolsChangedInPlace).
 */
function warnTextForPoolIds(ctx: ImportContext, maxDocBefore: number): string[] {
  const rows = ctx.ws.db
    .prepare(
      `SELECT p.name AS pool, count(DISTINCT x.id) AS n, min(x.id) AS example, group_concat(DISTINCT q.source) AS sources
       FROM (SELECT pool_id, query_id AS id FROM pool_queries UNION SELECT pool_id, candidate_id FROM pool_candidates) x
       JOIN questions q ON q.id = x.id JOIN pools p ON p.id = x.pool_id
       WHERE q.doc > ? GROUP BY p.id ORDER BY p.id`,
    )
    .all(maxDocBefore) as Array<{ pool: string; n: number; example: string; sources: string }>;
  for (const r of rows) {
    if (ctx.createdPools.has(r.pool)) continue;
    ctx.warn(
      `pool "${r.pool}" listed ${r.n} of the questions this import added without text (e.g. ${r.example}); it now shows their text (source ${r.sources}). ` +
        `Ids are one namespace: if that pool's ids are another corpus's (AskUbuntu and each Stack Exchange site number from 1), import each corpus into a workspace of its own`,
    );
  }
  return rows.map((r) => r.pool);
}

/** SQLite page cache of an import's connection while it runs, KiB (SQLite's default: 2,000). */
export const IMPORT_CACHE_KIB = 65_536;

/**
 * Refuses the pool, annotator and scheme options given to a format that imports questions only
 * (QUESTIONS_ONLY_FORMATS), and the annotator or scheme to the formats that do not read them
 * (UNUSED_IMPORT_OPTIONS): they were ignored, so an import of questions with a pool named
 * succeeded and made no pool. Named as the surface running the import shows them (opts.controls).
 */
export function refuseUnusedOptions(format: string, opts: Pick<ImportOptions, 'pool' | 'annotator' | 'scheme' | 'controls'>): void {
  const other = UNUSED_IMPORT_OPTIONS[format];
  if (other) {
    const c = opts.controls ?? CLI_IMPORT_CONTROLS;
    const unused = other.options.filter((k) => (opts[k] ?? '').trim() !== '');
    if (unused.length === 0) return;
    const names = unused.map((k) => c.option(k));
    throw new QPairsError(`${names.join(' and ')} ${unused.length > 1 ? 'are' : 'is'} not used by ${format}: ${other.why}`);
  }
  if (!QUESTIONS_ONLY_FORMATS.has(format)) return;
  const c = opts.controls ?? CLI_IMPORT_CONTROLS;
  const unused = (['pool', 'annotator', 'scheme'] as const).filter((k) => (opts[k] ?? '').trim() !== '');
  if (unused.length === 0) return;
  const names = unused.map((k) => c.option(k));
  throw new QPairsError(
    `${names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0]} ${unused.length > 1 ? 'are' : 'is'} not used by ${format}, ` +
      `which imports questions${format === 'askubuntu-pairs' ? ' and pairs' : ''}, no pool or labels ` +
      `(a pool of these questions: ${c.poolCreate}; labels: the labels-csv, labels-jsonl or qrels format)`,
  );
}
