import type { LabelScheme } from '../../shared/labels';
import type { Workspace } from '../workspace/workspace';
import { CLI_IMPORT_CONTROLS, type ImportControls, type ImportOptionName } from '../../shared/import-controls';
import type { ArchiveReads } from './archive';

/** Progress of an import: bytes read from the input files (compressed bytes for .gz, unpacked bytes for archive members) and records handled. */
export interface ImportProgress {
  bytesDone: number;
  bytesTotal: number;
  records: number;
}

export interface ImportOptions {
  /** Target pool (labels-csv/-jsonl, qrels, trec-run, semeval-relevancy need it; askubuntu-pool and semeval default it). */
  pool?: string;
  /** Annotator for imported labels when the file does not name one (default `gold`). */
  annotator?: string;
  /** Scheme of a pool the import creates (labels-csv/-jsonl; default `binary`). */
  scheme?: LabelScheme;
  /**
   * Question source (questions-*: default the file's base name; stackexchange: default the site
   * named by the archive, file or folder name, `cardano.stackexchange.com.7z` → `cardano`, else
   * `stackexchange`).
   */
  source?: string;
  /**
   * Replace questions (and answers) whose id the workspace holds from another source. Without
   * it such an id is an error naming file, line and both sources (ids are scoped by source).
   */
  update?: boolean;
  /**
   * Make questionable input an error (file, line, reason) instead of a warning: qrels naming
   * unknown queries, a Stack Exchange import without PostLinks.xml, AskUbuntu similar ids that
   * are not among the candidates.
   */
  strict?: boolean;
  /**
   * How the surface running the import names these options in its errors and warnings: the CLI's
   * flags (the default), or the app's import form fields (the engine's import job).
   */
  controls?: ImportControls;
  /**
   * Called with the text of every question the import inserts or updates, as stored (title and
   * body), in the order the import writes them (a question written twice: twice, the later text
   * last) — so the BM25 index can be extended without reading the texts back.
   */
  onQuestionText?: (doc: number, title: string, body: string) => void;
  /**
   * How the import's audit row (the `imports` table: its files and the report's files and warnings)
   * names the files: serve mode records an uploaded file by the name its owner chose, not the server's
   * temporary path (only names are ever shown from it). Default: as given.
   */
  recordedName?: (text: string) => string;
  /**
   * The files that were uploaded (serve mode), by their path on the server: each lies alone in a
   * folder of the server's, so a message never sends its owner to that folder (a Stack Exchange
   * Posts file uploaded without PostLinks: upload both, not "the folder").
   */
  uploads?: ReadonlySet<string>;
  /** Called at most every `progressIntervalMs` (and once at the end of every file). */
  onProgress?: (p: ImportProgress) => void;
  progressIntervalMs?: number;
  signal?: AbortSignal;
}

export interface ImportReport {
  format: string;
  files: string[];
  /**
   * What the import did, e.g. questionsInserted, questionsUpdated, questionsUnchanged, duplicatePairs, labels, runScores;
   * questionsReplaced: questions of another source replaced with `update`; questionsUpdatedInPools: updated questions
   * that some pool holds (their labels were given on the old text; warned about).
   */
  counts: Record<string, number>;
  /** Records or links left out, by reason (e.g. linkToMissingQuestion). */
  skipped: Record<string, number>;
  /** Questionable input that was imported anyway (each with its count and an example), and other notes; `strict` makes the questionable ones errors. */
  warnings: string[];
  /** Doc numbers of inserted or updated questions (each once), for the BM25 index. */
  changedDocs: number[];
  /**
   * Pools whose shown pairs the import changed in place, which their counts do not show: a question
   * they hold given text (inserted or updated) or answers (added, updated or moved), a note on a label set,
   * a run's scores given again with other values (changed-in-place.ts). Kept in the imports audit, for the undo's event.
   */
  poolsChangedInPlace?: string[];
  /** Set when the import wrote no rows (each file as the workspace holds it already): recorded in the imports audit, announced to no one. */
  unchanged?: true;
}

/** Shared state of one importFiles call (one transaction). */
export interface ImportContext {
  readonly ws: Workspace;
  readonly format: string;
  readonly opts: ImportOptions;
  readonly report: ImportReport;
  /** Pools created by this import: they take new pairs from the files. */
  readonly createdPools: Set<string>;
  /**
   * Runs this import has written to, by id: for a run the workspace had before, its old scores
   * (`query \0 candidate` → score) the import has not given again yet (endRuns deletes them), and how
   * many it added or gave again with another value (pools.ts openRun, putRunScore, endRuns).
   */
  readonly runsTouched: Map<number, { old: Map<string, number>; changed: number; added: number } | null>;
  /** The labels this import read, by annotator, query and candidate: file, line and value (pools.ts LabelLines). */
  readonly labelsRead: Map<string, { file: string; line: number; value: string }>;
  /** Where each run's query was first read in this import, by run id and query, and in which block of lines (runs.ts trecRun). */
  readonly runQueriesRead: Map<string, { file: string; line: number; block: object }>;
  /** The sources of the questions this import gave (inserted, updated or as held): the imports audit keeps them, for an export's licence (export/licence.ts). */
  readonly questionSources: Set<string>;
  /**
   * The questions whose answers (or comments) this import updated: an answer's text changed, or it moved to or from
   * the question (answers it inserted are told by their rowid: changed-in-place.ts poolsHoldingAnsweredQuestions).
   */
  readonly answersUpdatedOf: Set<string>;
  /** The pools whose notes on labels this import set or changed (Annotate shows an annotator her own; the pools' stamps count no notes). */
  readonly poolsWithNotesChanged: Set<string>;
  /** The pools this import gave pairs, labels or runs (the imports audit keeps them too, for the same licence). */
  readonly poolsWritten: Set<string>;
  count(key: string, n?: number): void;
  skip(reason: string, n?: number): void;
  warn(message: string): void;
  /** A question was inserted or updated: its doc number and its text as stored (see ImportOptions.onQuestionText). */
  changed(doc: number, title: string, body: string): void;
  /** Called by readers as records are handled (throttled progress, abort check). */
  tick(records?: number): void;
  /** Sets the bytes read so far in the current file. */
  fileBytes(done: number): void;
  /** Marks the current file done (formats with their own `run` call it after each file). */
  endFile(): void;
  /**
   * A chunk boundary (the readers call it after each block read from a file): the import may
   * commit what it wrote so far and let other writers (labels) in before going on; see
   * workspace/undo-journal.ts. Nothing may be mid-way (e.g. an open statement iterator) here.
   */
  checkpoint?(): Promise<void>;
  readonly signal?: AbortSignal;
  /** How archive members are read (set by an importer reading several members of one archive; see ./archive.ts). */
  archiveReads?: ArchiveReads;
}

export interface Importer {
  name: string;
  /** One line for help texts. */
  description: string;
  /**
   * Expands arguments (e.g. a folder, an archive) into the files to read, in the order to read
   * them; archive members as member paths (./archive.ts), their archive listed.
   */
  expandFiles?(files: readonly string[], signal?: AbortSignal): string[] | Promise<string[]>;
  /** Imports all files (default: importFile for each in turn). */
  run?(ctx: ImportContext, files: readonly string[]): Promise<void>;
  importFile?(ctx: ImportContext, file: string): Promise<void>;
}

/** An import option as the surface running the import names it (`--source x`, or the form's `Source name “x”`). */
export function optionName(ctx: ImportContext, name: ImportOptionName, value?: string | readonly string[]): string {
  return (ctx.opts.controls ?? CLI_IMPORT_CONTROLS).option(name, value);
}

/** Where the surface running the import creates a pool (`qpairs pool create`, the Pools screen). */
export function poolCreateName(ctx: ImportContext): string {
  return (ctx.opts.controls ?? CLI_IMPORT_CONTROLS).poolCreate;
}
