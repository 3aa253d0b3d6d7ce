/**
 * The one typed contract between the renderer and the engine. Every command has a zod schema
 * for its arguments (validated on arrival by the main side, whatever the transport: Electron
 * IPC or serve mode's HTTP/WebSocket) and a result type. Events flow engine → renderer.
 */
import { ANALYZER_NAMES } from './analyzers';
import { EVENT_NAMES as CHANNEL_EVENT_NAMES, type ChannelEventName } from './ipc-channels';
import { z } from 'zod';
import type { PoolInfo, Question, WorkspaceNotice, WorkspaceStats, LabelRecord, RunInfo } from './types';
import { MODEL_KINDS, MODEL_NAME_RE, type ModelsView, type TrainProgressEvent } from './models';
import { QUERY_ORDERS, type LabelOrderStanding } from './label-order';
import { LIVE_MODELS, type LiveStatus } from './live';
import type { SelectedOn } from './selected-on';
import { AGGREGATION_RULES, COMPARE_METRICS, DEFAULT_COMPARE_METRIC, EXPORT_FILES_EXIST, EXPORT_FORMATS } from './gold';
import { DEFAULT_ALPHA, DEFAULT_PERMUTATIONS, DEFAULT_RESAMPLES, DEFAULT_SEED, DEFAULT_TIES, MAX_PERMUTATIONS, MAX_RESAMPLES } from './stat-defaults';
import { DEFAULT_RELEVANCE_THRESHOLD, LABEL_SUPERSEDED } from './labels';
import { DEFAULT_POOL_DEPTH, MAX_POOL_DEPTH, MAX_POOL_SAMPLE } from './pool-limits';
import { commandRoles, type CallerRole } from './roles';
export { CALLER_ROLES, commandRoles, roleAllows, type CallerRole } from './roles';
import type { AgreementView, AggregationSummary, AssignmentView, CompareView, DownloadStatus, ExportPreview, ExportWritten, ReviewPair, ReviewQueue } from './gold';

export const IMPORT_FORMATS = [
  'questions-jsonl',
  'questions-csv',
  'labels-csv',
  'labels-jsonl',
  'qrels',
  'trec-run',
  'askubuntu-corpus',
  'askubuntu-pairs',
  'askubuntu-pool',
  'semeval',
  'semeval-relevancy',
  'stackexchange',
] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** The longest name (of a pool, an annotator, a model…) a command takes; the CLI refuses to make longer ones, which no command could name. */
export const NAME_MAX_LENGTH = 200;
const name = z.string().trim().min(1).max(NAME_MAX_LENGTH);
const id = z.string().min(1).max(200);
const scheme = z.enum(['binary', 'semeval3', 'likert5', 'graded']);
const annotatorRole = z.enum(['annotator', 'judge', 'owner', 'gold', 'system']);
export const conventionSchema = z.enum(['skip', 'zero']);
export const tiesSchema = z.enum(['pool-order', 'trec-eval']);
export type Convention = z.infer<typeof conventionSchema>;
/** Issue 24: a note on a label — text sets it, null or blank removes it, omitted leaves it as it is. */
const noteArg = z.string().max(4000).nullable().optional();
const ifLatestArg = z.number().int().positive().optional();
/** Redo: set only while the pair's note (a ruling's reason) is still this one (null: none), what the undo left; else refused. */
const ifNoteArg = z.string().max(4000).nullable().optional();
/** A page's queued label, or the label its undo takes back: the workspace it was given in (app.info `workspaceId`); refused in another (engine/workspace-id.ts). */
const workspaceArg = z.string().min(1).max(100).optional();
/**
 * A page's queued label: the page's id (new on every load) and the label's place in its outbox. The engine takes
 * each stamped label once, and refuses one older than a label the same page gave on the pair since (a request
 * that stalled and arrived late, after the outbox sent it again and went on): nothing saved (engine/label-stamps.ts).
 */
const stampArg = z.object({ tab: z.string().min(8).max(64), n: z.number().int().nonnegative() }).optional();
export type TieRule = z.infer<typeof tiesSchema>;

/** How eval.pool counts (and eval.order, whose verdict must be about the same queries as the table beside it). */
const evalCounting = {
  /** Label source: an annotator or "@aggregate"; omitted = gold when the pool has gold labels, else @aggregate. */
  annotator: name.optional(),
  /** Omitted = the pool's own convention (PoolInfo.convention; issue 24). */
  convention: conventionSchema.optional(),
  ties: tiesSchema.default(DEFAULT_TIES),
  threshold: z.number().default(DEFAULT_RELEVANCE_THRESHOLD),
  /**
   * Issue 13: also count partially labeled queries (at least one label from the source), their
   * unlabeled candidates as non-relevant. Default false: only fully labeled queries count.
   */
  partial: z.boolean().default(false),
};

/** An upload's id as serve mode's upload store makes them (a UUID) and looks them up (src/main/serve/uploads.ts). */
export const UPLOAD_ID_RE = /^[a-f0-9-]{8,64}$/;

/** A file for an import: a path on the engine's machine, or an upload made over HTTP in serve mode. */
export const importSourceSchema = z.union([
  z.object({ path: z.string().min(1) }),
  z.object({ uploadId: z.string().regex(UPLOAD_ID_RE), name: z.string().min(1).max(500) }),
]);
export type ImportSource = z.infer<typeof importSourceSchema>;

export const commandArgs = {
  'app.info': z.object({}),
  'workspace.stats': z.object({}),
  'import.start': z.object({
    format: z.enum(IMPORT_FORMATS),
    sources: z.array(importSourceSchema).min(1).max(50),
    pool: name.optional(),
    annotator: name.optional(),
    scheme: scheme.optional(),
    source: name.optional(),
    /** Replace questions already in the workspace under the same id (otherwise a clash is refused). */
    update: z.boolean().optional(),
    /** Turn the import's warnings (unknown query ids, missing files) into errors. */
    strict: z.boolean().optional(),
  }),
  /** The last finished import, if it can still be undone (what it was, when it started). */
  'import.undoable': z.object({}),
  /**
   * Undoes the last finished import, as a job (kind `undo`), in chunks with labels acknowledged between them: a cancel stops it
   * partway (the import partly undone, `import.undoable` says so), and the next `import.undo` carries on where it stopped.
   * `started`: the start `import.undoable` gave; refused when the last import is another one by then.
   */
  'import.undo': z.object({ started: z.string().min(1).max(100).optional() }),
  'job.cancel': z.object({ jobId: id }),
  /** Whether a job still runs (a page that reconnected asks about the jobs whose end it may have missed). */
  'job.status': z.object({ jobId: id }),
  'pool.list': z.object({}),
  'pool.create': z
    .object({
      name,
      queries: z.array(id).max(100_000).optional(),
      sample: z.object({ n: z.number().int().min(1).max(MAX_POOL_SAMPLE), seed: z.number().int() }).optional(),
      depth: z.number().int().min(1).max(MAX_POOL_DEPTH).default(DEFAULT_POOL_DEPTH),
      scheme: scheme.default('binary'),
      /** Whether the pool's annotators label blind (default on; see commandRoles). */
      blind: z.boolean().default(true),
      /** Issue 13: restrict queries and candidates to one corpus (questions.source); omitted = corpora mix. */
      source: name.optional(),
      /** The BM25 analyzer of this pool's retrieval; omitted = the workspace index's (default lucene-standard-stop). */
      analyzer: z.enum(ANALYZER_NAMES).optional(),
      /** How annotators' next query is chosen (shared/label-order.ts); default the pool's order. */
      order: z.enum(QUERY_ORDERS).default('pool'),
      /** Seed of the order's draws (default 1). */
      orderSeed: z.number().int().optional(),
      /** Issue 24: the pool's evaluation convention, what eval uses unless told (default zero). */
      convention: conventionSchema.optional(),
    })
    .refine((a) => (a.queries ? 1 : 0) + (a.sample ? 1 : 0) === 1, { message: 'give either queries or sample' }),
  'pool.setGuidelines': z.object({ pool: name, markdown: z.string().max(200_000) }),
  /**
   * Changes a pool's settings (its owner's): `blind` switches blind labeling on or off (recorded in the pool's history);
   * `order`/`orderSeed` set how the next query is chosen (draws made so far are kept).
   */
  'pool.set': z
    .object({ pool: name, blind: z.boolean().optional(), order: z.enum(QUERY_ORDERS).optional(), orderSeed: z.number().int().optional(), /** Issue 24: the pool's evaluation convention. */ convention: conventionSchema.optional() })
    .refine((a) => a.blind !== undefined || a.order !== undefined || a.orderSeed !== undefined || a.convention !== undefined, { message: 'give blind, order, orderSeed or convention' }),
  'pool.progress': z.object({ pool: name }),
  'annotator.list': z.object({}),
  'annotate.query': z.object({
    pool: name,
    annotator: name,
    /** The query to show; omitted = the first query this annotator has not finished. */
    queryId: id.optional(),
  }),
  'annotate.navigate': z.object({
    pool: name,
    annotator: name,
    from: id,
    direction: z.enum(['next-unlabeled', 'next', 'previous']),
  }),
  /** The queries an annotator works on in a pool (their assigned ones under k per query), in order, for go-to lists. */
  'annotate.queries': z.object({ pool: name, annotator: name }),
  'label.set': z.object({
    pool: name,
    queryId: id,
    candidateId: id,
    annotator: name,
    /** A value of the pool's scheme, "?" for unsure, or null to clear. */
    value: z.string().min(1).max(40).nullable(),
    /** Issue 24: the annotator's note on the pair (why it is unsure, …); omitted = unchanged. Clearing the label (null) removes its note too. */
    note: noteArg,
    /** Redo: set only while the annotator's latest event on the pair is still this one (the undo being redone); else refused. */
    ifLatest: ifLatestArg,
    /** Redo: set only while the annotator's note on the pair is still this one (null: none); else refused. */
    ifNote: ifNoteArg,
    /** The workspace the label was given in (app.info `workspaceId`): refused, nothing saved, in another workspace. */
    workspace: workspaceArg,
    /** The page's outbox stamp: taken once, refused once a later label of the same page on the pair was taken. */
    stamp: stampArg,
  }),
  /**
   * Takes back label event `seq`. `note`: the pair's note to put back with the label, in the same
   * commit (what the undone call changed it from; omitted = unchanged). A pair left unlabeled keeps no note.
   */
  'label.undo': z.object({
    seq: z.number().int().positive(),
    annotator: name,
    note: noteArg,
    /**
     * The pair the caller means event `seq` to be on (a page's undo history keeps it): refused when the event is on
     * another pair — an annotator's own numbers move when events before them are taken out (an import's undo).
     */
    pair: z.object({ pool: name, queryId: id, candidateId: id }).optional(),
    /** The workspace the undone label was given in (a page's undo history keeps it): refused, nothing undone, in another. */
    workspace: workspaceArg,
  }),
  /**
   * "Learn as we label" (the owner's): retrain the pool's live models every `everyLabels` label events or
   * `idleSeconds` after the last. A setting left out keeps the pool's current one (LIVE_DEFAULTS for a pool
   * never set), so `{pool, enabled: false}` pauses without forgetting the models and training pools.
   */
  'live.set': z.object({
    pool: name,
    enabled: z.boolean(),
    everyLabels: z.number().int().min(1).max(10_000).optional(),
    idleSeconds: z.number().int().min(0).max(86_400).optional(),
    models: z.array(z.enum(LIVE_MODELS)).min(1).max(LIVE_MODELS.length).optional(),
    /** Other labeled pools the live models train on as well. */
    trainPools: z.array(name).max(20).optional(),
  }),
  /** The pool's live-retraining setting, whether a retrain runs, and its learning curve (hidden from annotators of blind pools). */
  'live.status': z.object({ pool: name }),
  /**
   * Where the pool's runs stand under its labeling order: selection-corrected MAP estimates and whether
   * the best run is decided (src/main/active/order-standing.ts), counted as eval.pool counts for the same
   * options — pass the ones the metrics table beside it uses, so the verdict is about that table's queries.
   */
  'eval.order': z.object({ pool: name, ...evalCounting }),
  /** Retrains the pool's live models now (the owner's); null when one is already running (its job id then). */
  'live.retrain': z.object({ pool: name }),
  'eval.pool': z.object({ pool: name, ...evalCounting }),
  /** Ties and threshold as the table's (eval.pool) so the drill-down's orders and AP are the table's. */
  'eval.query': z.object({ pool: name, queryId: id, annotator: name.optional(), ties: tiesSchema.default(DEFAULT_TIES), threshold: z.number().default(DEFAULT_RELEVANCE_THRESHOLD) }),
  // ---------------------------------------------------------------- gold workflow (src/main/gold, src/main/export)
  /** Adds an annotator (or sets the role of an existing one). Not allowed to serve-mode tokens. */
  'annotator.add': z.object({ name, role: annotatorRole.optional() }),
  /** Sets an annotator's role (e.g. judge). Not allowed to serve-mode tokens. */
  'annotator.setRole': z.object({ name, role: annotatorRole }),
  /**
   * Issue 23: invites a person (the owner's): creates the annotator when new (or sets their role),
   * revokes their earlier token, and returns a fresh token and a ready link — exactly once (only a
   * salted hash is stored).
   */
  'annotator.invite': z.object({
    name,
    /** Omitted: a new person is an annotator, someone already in the workspace keeps their role (a new link never demotes a judge). */
    role: z.enum(['annotator', 'judge', 'owner']).optional(),
  }),
  /** Issue 23: revokes a person's tokens (the owner's): refused from their next request on, their open event sockets closed. */
  'annotator.revoke': z.object({ name }),
  /** Issue 23: everyone with their role, token state and last request (the owner's Team panel). */
  'annotator.team': z.object({}),
  /** Assigns a pool to annotators: full overlap, or `perQuery` annotators per query (seeded, balanced). */
  'pool.assign': z.object({
    pool: name,
    annotators: z.array(name).min(1).max(1000),
    perQuery: z.number().int().min(1).max(1000).optional(),
    seed: z.number().int().default(1),
  }),
  /**
   * A pool's assignment and every annotator's progress on their assigned queries; with `annotator`,
   * also whether the pool assigns them (`assigned`) and their query ids (none when it does not).
   */
  'pool.assignment': z.object({ pool: name, annotator: name.optional() }),
  /** Sets how the pool's labels combine into @aggregate; returns the aggregate's summary. */
  'pool.setAggregation': z.object({ pool: name, rule: z.enum(AGGREGATION_RULES), threshold: z.number().optional() }),
  /** The aggregate's summary under the pool's rule. */
  'pool.aggregation': z.object({ pool: name }),
  'agreement.report': z.object({
    pool: name,
    annotators: z.array(name).min(2).max(1000).optional(),
    /** Agreement over a subset of the pool's queries (default all). */
    queries: z.array(id).min(1).max(100_000).optional(),
    bootstrap: z.number().int().min(1).max(MAX_RESAMPLES).default(DEFAULT_RESAMPLES),
    seed: z.number().int().default(DEFAULT_SEED),
  }),
  'review.queue': z.object({
    pool: name,
    judge: name,
    includeSettled: z.boolean().default(false),
    limit: z.number().int().min(1).max(100_000).optional(),
    /** Only the queries whose labels changed after this label version (ReviewQueue.version), and `queries`: the Review screen's refresh. */
    since: z.number().int().min(0).optional(),
    queries: z.array(id).max(100_000).optional(),
  }),
  /** One pair of the queue with both texts and every vote's note (the queue carries titles only). */
  'review.pair': z.object({ pool: name, judge: name, queryId: id, candidateId: id }),
  /** A judge's label for a disagreement, saved through the same durable path as label.set (null clears it). */
  'review.settle': z.object({ pool: name, judge: name, queryId: id, candidateId: id, value: z.string().min(1).max(40).nullable(), /** The ruling's reason (issue 24); omitted = unchanged. */ note: noteArg, /** Redo, as label.set's. */ ifLatest: ifLatestArg, ifNote: ifNoteArg, workspace: workspaceArg, /** As label.set's. */ stamp: stampArg,
    /**
     * The ruling the client last saw on the pair (Review: the row's), null for none: the ruling is refused when another
     * judge has settled the pair otherwise since (gold/ruling-seen.ts). Omitted: no check (the latest ruling counts).
     */
    ifRuling: z.object({ judge: name, value: z.string().min(1).max(40) }).nullable().optional() }),
  'eval.compare': z.object({
    pool: name,
    runs: z.array(name).min(2).max(50),
    metric: z.enum(COMPARE_METRICS).default(DEFAULT_COMPARE_METRIC),
    annotator: name.optional(),
    /** Omitted = the pool's own convention (issue 24). */
    convention: conventionSchema.optional(),
    ties: tiesSchema.default(DEFAULT_TIES),
    threshold: z.number().default(DEFAULT_RELEVANCE_THRESHOLD),
    bootstrap: z.number().int().min(1).max(MAX_RESAMPLES).default(DEFAULT_RESAMPLES),
    permutations: z.number().int().min(1).max(MAX_PERMUTATIONS).default(DEFAULT_PERMUTATIONS),
    seed: z.number().int().default(DEFAULT_SEED),
    alpha: z.number().gt(0).lt(1).default(DEFAULT_ALPHA),
    baseline: name.optional(),
  }),
  /** The datasheet and the first lines of each file an export would write. */
  'export.preview': z.object({
    pool: name,
    format: z.enum(EXPORT_FORMATS),
    run: name.optional(),
    annotator: name.optional(),
    lines: z.number().int().min(0).max(1000).default(10),
    /** Issue 13: include question title + body, and source (jsonl/csv/hf-dataset columns; askubuntu corpus file: title + body); default true. */
    text: z.boolean().default(true),
    /** Every person's name in the files as a pseudonym A1, A2, … (src/main/export/pseudonyms.ts); default false: the names. */
    pseudonymize: z.boolean().default(false),
    /**
     * Answer at once, the datasheet's agreement left out (`agreementPending` says so) when it would hold the answer
     * back (a large pool's, unless an earlier export computed it); without it the preview runs as a job of kind 'preview' (progress, job.cancel), and a caller's
     * newer preview cancels their older one (src/main/engine/export-preview.ts).
     */
    agreementLater: z.boolean().default(false),
  }),
  /**
   * Writes an export and its datasheet. With `path` (desktop app, local engine only): the files are
   * written atomically there and their paths returned. Without `path`: nothing is written where the
   * caller can name; the files come back with their content, or, with `download` (serve mode's Export
   * screen), are streamed to the server's own folder and fetched with the ids of `downloads`.
   */
  'export.write': z.object({
    pool: name,
    format: z.enum(EXPORT_FORMATS),
    run: name.optional(),
    annotator: name.optional(),
    path: z.string().min(1).max(4096).optional(),
    /** Issue 13: include question title + body, and source (jsonl/csv/hf-dataset columns; askubuntu corpus file: title + body); default true. */
    text: z.boolean().default(true),
    /** Issue 23: with `path`, replace files that exist (default: refused, nothing written). */
    force: z.boolean().default(false),
    /**
     * With `path`: replace the file at `path` itself if it exists, and no other (the desktop app's save
     * dialog asked about it; the datasheet and other files beside it are refused unless `force`).
     */
    replaceChosen: z.boolean().default(false),
    /** Every person's name in the files as a pseudonym A1, A2, … (src/main/export/pseudonyms.ts); default false: the names. */
    pseudonymize: z.boolean().default(false),
    /**
     * Without `path`: the files are streamed to the server's own folder, never whole in memory, and the
     * answer's `downloads` give an id for each (GET DOWNLOAD_PATH + id, once, by this caller only), not
     * their content. Not with `path`.
     */
    download: z.boolean().default(false),
  }),
  /**
   * What became of the caller's own download ids (export.write with `download`): ready, sending (bytes
   * out), sent (the server sent the last byte), expired, or unknown — as for an id that is someone else's —
   * with `expiresAt`, when an id not fetched stops being fetchable, and `now`, the server's time when it answered
   * (both on the server's clock: a page measures how far its own is off by it).
   */
  'export.downloads': z.object({ ids: z.array(z.string().max(64)).min(1).max(64) }),
  // ---------------------------------------------------------------- browse (issue 13; src/main/engine/browse.ts)
  /** BM25 search over the workspace's questions (title + body), best first; `source` keeps one corpus. */
  'questions.search': z.object({ text: z.string().min(1).max(10_000), source: name.optional(), limit: z.number().int().min(1).max(200).default(50) }),
  /** A question, its answers count, the pools it is in (optionally one pool) and the labels on it the caller may see. */
  'question.show': z.object({ id, pool: name.optional() }),
  // ---------------------------------------------------------------- models (src/main/models, src/main/training)
  'models.list': z.object({}),
  /** Trains a model as a job; it is then stored and every pool is scored with it (run = name). */
  'models.train': z.object({
    model: z.enum(MODEL_KINDS),
    name: z.string().regex(MODEL_NAME_RE, 'letters, digits, . _ + - (starting with a letter or digit)'),
    trainPools: z.array(name).max(100).default([]),
    devPool: name.optional(),
    epochs: z.number().int().min(1).max(1000).optional(),
    seed: z.number().int().default(1),
    /** Keep training queries that are dev-pool queries (default: they are dropped; src/main/training/dev-overlap.ts). */
    keepOverlap: z.boolean().default(false),
    /** Grouped cross-validation folds (src/main/training/cross-validate.ts), and its repeats. */
    cv: z.number().int().min(2).max(100).optional(),
    repeats: z.number().int().min(1).max(100).default(1),
    /** Model settings over its defaults, as `qpairs train --config` (checked against the kind's settings: models.list `settings`). */
    config: z.record(z.string(), z.unknown()).optional(),
  }),
  'models.score': z.object({ name, pool: name }),
  'models.delete': z.object({ name }),
} as const;

export type CommandName = keyof typeof commandArgs;

// ------------------------------------------------------------------ roles

/** Every command has a lowest allowed role (src/shared/roles.ts, kept free of zod for the renderer). */
const everyCommandHasARole: { readonly [C in CommandName]: CallerRole } = commandRoles;
void everyCommandHasARole;
export type CommandArgs<C extends CommandName> = z.input<(typeof commandArgs)[C]>;
export type ParsedArgs<C extends CommandName> = z.output<(typeof commandArgs)[C]>;

// ------------------------------------------------------------------ results

export interface AppInfo {
  version: string;
  /** The workspace's file name (never its server-side path). */
  workspaceName: string;
  /** The workspace's own id (null: a read-only workspace that has none yet); a page's queued labels carry it (label.set `workspace`). */
  workspaceId: string | null;
  transport: 'electron' | 'http';
  /** tfjs backend in use by the models (e.g. "wasm"), or null before models are loaded. */
  modelBackend: string | null;
  /** The token's annotator (serve mode with tokens), or null for the owner without a token. */
  annotator: string | null;
  /** The caller's role, which decides what the app offers (see commandRoles). */
  role: CallerRole;
  /** Whether the caller may name files on the engine's machine (desktop app, loopback serve without tokens). */
  local: boolean;
  /** Whether the workspace was opened read-only. */
  readonly: boolean;
  /**
   * A name to label under until the user types one: the account name of the machine's user for the
   * local owner (desktop app, loopback serve), so a first run can label at once; null for everyone
   * else (a token's annotator has `annotator`).
   */
  suggestedAnnotator: string | null;
  /** What opening the workspace did that its owner should know (upgrade, an interrupted import undone): owners only, [] for everyone else. */
  notices: WorkspaceNotice[];
}

export interface ImportStarted {
  jobId: string;
}

export interface PoolProgress {
  pool: string;
  queries: number;
  pairs: number;
  /**
   * Everyone with labels in the pool. `kind`: `annotator` — labels the pool (their progress);
   * `judge` — a judge's rulings on its disagreements (not labeling progress: a judge is not one of
   * the pool's annotators); `source` — labels that are not a person's (gold, a system). An annotator
   * is given her own row alone in a blind pool; in an open one everyone's, a judge's as `annotator`
   * (who judges is not hers to know: annotator.list and pool.assignment do not say either).
   */
  annotators: Array<{ annotator: string; labeledPairs: number; doneQueries: number; kind: PoolProgressKind }>;
}

export type PoolProgressKind = 'annotator' | 'judge' | 'source';

export interface CandidateView {
  id: string;
  /** 0-based position in the pool's original (retriever's) order; in a blind pool, this annotator's own display index (issue 23). */
  position: number;
  /** null when only the id is known (text not in the workspace). */
  question: Question | null;
  /** Per ranker: score and 1-based rank. Empty in a blind pool. */
  runs: Record<string, { score: number; rank: number }>;
  /** This annotator's current label. */
  label: string | null;
  /** Other annotators' current labels (empty in a blind pool). */
  others: Record<string, string>;
  /** Tokens this candidate shares with the query (for highlighting): only the rarer ones (by IDF; issue 24). */
  sharedTerms: string[];
  /** This annotator's own note on the pair (issue 24); never anyone else's. */
  note?: string | null;
}

export interface QueryView {
  pool: string;
  scheme: string;
  queryId: string;
  query: Question | null;
  /** 0-based index of this query in the pool and the pool's size. */
  index: number;
  total: number;
  candidates: CandidateView[];
  /** The pool is blind: candidates in this annotator's own seeded order, no scores, no one else's labels. */
  blind: boolean;
  /** Run names present in the pool (empty in a blind pool). */
  runNames: string[];
  progress: { doneQueries: number; totalQueries: number; labeledPairs: number; totalPairs: number };
  guidelines: string;
  /** decide-rankers-mtc: the candidate the labeling order asks for next (listed first); absent otherwise. */
  focus?: string;
}

/** One query of an annotator's list: `index` as QueryView.index (0-based among their queries). */
export interface AnnotateQueryItem {
  id: string;
  index: number;
  /** The query's title ('' when only its id is known). */
  title: string;
  /** Every candidate labeled by this annotator ("?" counts as given). */
  done: boolean;
}

export interface LabelAck {
  /** The label event's sequence number (use it to undo); null when the value was unchanged. */
  seq: number | null;
  /**
   * When the value was unchanged (seq null): the caller's latest label event on the pair (an annotator's by her own
   * count), null when none. A page that sends a label again after its first answer was lost (the server may have
   * saved it then) undoes that event.
   */
  latest?: number | null;
  saved: true;
  record: LabelRecord | null;
  /** Issue 24: the annotator's note on the pair after this call (null: none), and whether the call changed it. */
  note?: string | null;
  noteChanged?: boolean;
}

/** The metrics of one run (fractions in [0, 1]). */
export interface MetricValues {
  MAP: number;
  MRR: number;
  'P@1': number;
  'P@5': number;
  'R-Prec': number;
}

/**
 * A run's metrics over `queries` evaluated queries; each metric is null, with `reason`, when no
 * query could be evaluated (the source has no labels, no query is fully labeled yet, or under
 * `skip` none has a relevant candidate) — never 0 for "nothing to measure".
 */
export interface RunMetrics {
  queries: number;
  MAP: number | null;
  MRR: number | null;
  'P@1': number | null;
  'P@5': number | null;
  'R-Prec': number | null;
  reason?: string;
  /**
   * 95% confidence intervals of MAP and MRR (and, issue 24, P@1, P@5, R-Prec) over the evaluated
   * queries (Student t on the per-query values: mean ± t₀.₉₇₅,ₙ₋₁ · s/√n, clipped to the metric's range
   * [0, 1]; src/main/stats/t-interval.ts); null below 2 queries, and when every query scores the same.
   */
  ci?: { MAP: [number, number] | null; MRR: [number, number] | null; 'P@1'?: [number, number] | null; 'P@5'?: [number, number] | null; 'R-Prec'?: [number, number] | null };
  /**
   * For a run scored by a stored model: how many of the evaluated queries the model was trained
   * on (same id, same normalised text or near-duplicate; src/main/training/trained-on.ts) —
   * "trained on 50 of these 50 queries". Null for a model stored before training queries were
   * recorded; absent for runs that are not a stored model's.
   */
  overlap?: { trainedOn: number; of: number; sameId: number; sameText: number; nearDuplicate: number } | null;
  /**
   * For a run scored by a stored model chosen on these queries (this pool is its dev pool, or
   * cross-validation set its epoch count on the queries its out-of-fold scores rank; or so for a
   * feature run it fuses): its figures here are optimistic, not held out (src/main/training/selected-on.ts).
   * Absent otherwise.
   */
  selectedOn?: SelectedOn;
  /**
   * Evaluated queries for which the run scores none of the candidates: there its ranking is the
   * pool's order (unscored candidates follow the scored ones, in pool order), which can flatter a
   * run that skipped them. Absent when the run scores every evaluated query.
   */
  unscoredQueries?: number;
  /**
   * Evaluated queries where the run gives every scored candidate (two or more) the same score — a
   * model that learned nothing, or one scoring questions that have no text: it orders none of them,
   * so its ranking there is the tie rule's (the pool's order by default), which can flatter it as
   * much as scoring none. Absent when the run tells candidates apart in every evaluated query.
   */
  uniformQueries?: number;
}

export interface PoolEvaluation {
  pool: string;
  /** The label source evaluated against (an annotator, "gold" or "@aggregate"). */
  annotator: string;
  /** How the source was chosen: given by the caller, or the default rule (gold/state.ts defaultLabelSource). */
  annotatorChosenBy: 'caller' | 'default';
  convention: Convention;
  /** Issue 24: whether the caller named the convention or the pool's own was used. */
  conventionChosenBy?: 'caller' | 'pool';
  ties: TieRule;
  /** The grade from which a label counts as relevant (eval.pool `threshold`, default 1). */
  threshold: number;
  /** Whether partially labeled queries were counted (eval.pool `partial`). */
  partial: boolean;
  /**
   * Counted queries without a similar candidate (none labeled at `threshold` or above): left out
   * under convention skip, each 0 in every metric under zero — so when it equals `labeledQueries`,
   * every figure is 0 (zero) or undefined (skip) whatever the runs' order.
   */
  withoutRelevant: number;
  /** How labeled queries were chosen and unlabeled candidates treated (one sentence, for display). */
  labeling: string;
  /** Queries counted: fully labeled ones (or, with `partial`, those with at least one label). */
  labeledQueries: number;
  /** Queries every candidate of which has a label from the source ("?" counts as labeled, not relevant). */
  fullyLabeledQueries: number;
  /** Queries with some but not all candidates labeled (left out unless `partial`). */
  partiallyLabeledQueries: number;
  /** Queries in the pool. */
  totalQueries: number;
  /** Why every run's metrics are null (e.g. the source has no labels), else null. */
  reason: string | null;
  runs: Record<string, RunMetrics>;
  /** Metric values after the first n counted queries (in labeling order), per run (points with nothing evaluated yet omit the run). */
  curve: Array<{ labeledQueries: number; runs: Record<string, MetricValues> }>;
}

export interface QueryEvaluation {
  pool: string;
  queryId: string;
  rankers: Array<{ run: string; order: Array<{ candidateId: string; score: number | null; grade: number | null; relevant: boolean }>; AP: number | null; RR: number | null }>;
}

/** The last finished import, which `import.undo` would undo. */
export interface UndoableImport {
  what: string;
  /** When it started (ISO 8601). */
  started: string;
  /** Its undo stopped partway (cancelled): the import is partly undone, and `import.undo` finishes it. */
  partlyUndone?: boolean;
}

/**
 * The report of an `import.undo` job (job.done): journal entries replayed, rows taken out or put back by table; rows kept because rows written since
 * refer to them and rows skipped because they changed again since, by table; `lines` says it in words.
 */
export interface ImportUndoReport extends UndoableImport {
  undone: number;
  /** Rows taken out (negative) or put back (positive) by table: questions, answers, pools, pool_queries, labels, runs, models, annotators. */
  rowsChanged: Record<string, number>;
  kept: number;
  keptBy: Record<string, number>;
  skipped: number;
  skippedBy: Record<string, number>;
  failed: number;
  /** The stored BM25 index no longer matched the questions and was dropped (built again on next use). */
  indexDropped: boolean;
  lines: string[];
}

export interface CommandResults {
  'app.info': AppInfo;
  'workspace.stats': WorkspaceStats;
  'import.start': ImportStarted;
  'import.undoable': UndoableImport | null;
  'import.undo': { jobId: string };
  'job.cancel': { cancelled: boolean };
  'job.status': { running: boolean };
  'pool.list': PoolInfo[];
  /** The new pool, with the queries BM25 found no candidate for (nothing to label there; shared/pool-notes.ts says so). */
  'pool.create': PoolInfo & { queriesWithoutCandidate: string[] };
  'pool.setGuidelines': PoolInfo;
  'pool.set': PoolInfo;
  'pool.progress': PoolProgress;
  /**
   * The people and label sources the caller may know of. An annotator is given her own role and a label source's
   * (gold, system); another person's role is not hers to know (who judges a blind pool is not), so it is left out.
   */
  'annotator.list': Array<{ name: string; role?: string }>;
  'annotate.query': QueryView;
  'annotate.navigate': QueryView | null;
  'annotate.queries': AnnotateQueryItem[];
  'label.set': LabelAck;
  'label.undo': LabelRecord;
  'live.set': LiveStatus;
  'live.status': LiveStatus;
  'eval.order': LabelOrderStanding;
  'live.retrain': { jobId: string | null };
  'eval.pool': PoolEvaluation;
  'eval.query': QueryEvaluation;
  'annotator.add': { name: string; role: string };
  /** notes: what the change means for the person's labels in pools nobody is assigned to (votes ↔ rulings), when any. */
  'annotator.setRole': { name: string; role: string; notes?: string[] };
  'annotator.invite': AnnotatorInvitation;
  'annotator.revoke': { name: string; revoked: number };
  'annotator.team': TeamMemberView[];
  'pool.assign': AssignmentView;
  'pool.assignment': AssignmentView;
  'pool.setAggregation': AggregationSummary;
  'pool.aggregation': AggregationSummary;
  'agreement.report': AgreementView;
  'review.queue': ReviewQueue;
  'review.pair': ReviewPair;
  'review.settle': SettleAck;
  'eval.compare': CompareView;
  'export.preview': ExportPreview;
  'export.write': ExportWritten;
  'export.downloads': DownloadStatus[];
  'questions.search': BrowseSearch;
  'question.show': QuestionShow;
  'models.list': ModelsView;
  'models.train': { jobId: string };
  'models.score': { jobId: string };
  /** featureOf: the fusing models that took the deleted model's run as a feature (note: what that means for them, or null). */
  'models.delete': { deleted: boolean; featureOf: string[]; note: string | null };
}

// ------------------------------------------------------------------ browse (issue 13)

/** `questions.search`: the best matches, best first (BM25 scores of this search, not of any pool's rankers). */
export interface BrowseSearch {
  text: string;
  source: string | null;
  /** Best first with their BM25 scores; for an annotator (issue 23: blind means blind) ordered by title, without scores. */
  results: Array<{ id: string; title: string; source: string; score?: number }>;
  /** False when the results come unranked (an annotator's search); absent = ranked. */
  ranked?: boolean;
}

/**
 * `question.show`: the question, how many answers/comments it has, and one entry per place it
 * has in a pool (as a query, or as a candidate of a query) with the labels on it there that the
 * caller may see (an annotator of a blind pool: only their own). `candidatePosition` is the
 * candidate's 0-based position in the pool's original (retriever's) order, null for a query and
 * for an annotator of a blind pool (it would show the retriever's rank).
 */
export interface QuestionShow {
  question: Question;
  answers: number;
  pools: Array<{
    pool: string;
    blind: boolean;
    queryId: string;
    as: 'query' | 'candidate';
    queryPosition: number;
    candidatePosition: number | null;
    /** As a query: labels on its pairs (each names its candidate); as a candidate: labels on this pair. */
    labels: Array<{ annotator: string; queryId: string; candidateId: string; value: string }>;
  }>;
}

/** `annotator.invite`: the token and link are shown this once (the workspace keeps only a salted hash). */
export interface AnnotatorInvitation {
  name: string;
  role: 'annotator' | 'judge' | 'owner';
  token: string;
  /** A link that logs the person in (serve mode adds it from the address the owner used); null elsewhere. */
  link: string | null;
  /** Earlier live tokens of this person the invitation revoked. */
  revokedEarlier: number;
  /** Whether the person was new to the workspace. */
  created: boolean;
}

/** `annotator.team`: one person (gold and system annotators are not people). */
export interface TeamMemberView {
  name: string;
  role: string;
  /** When their live token was issued; null = no live token (never invited, or revoked). */
  invited: string | null;
  /** Their last request (kept to the minute). */
  lastSeen: string | null;
  /** When their token was revoked (only when they have no live token). */
  revoked: string | null;
  labelEvents: number;
  /**
   * Signs in with a token the server was started with (`--tokens-file` or `--token`), held by the
   * server, not the workspace: deleting their tokens-file line revokes it (Revoke here cannot).
   */
  serverToken?: true;
}

/** A judge's settled label: the label ack plus how many disagreements remain unsettled. */
export interface SettleAck extends LabelAck {
  remaining: number;
}

export type CommandResult<C extends CommandName> = CommandResults[C];

// ------------------------------------------------------------------ events

/**
 * What an import job imports, in its events: the files as the user named them — an upload by the name it was
 * uploaded under, a file on the engine's machine by its base name only (no client learns a server path) — its
 * format, its pool if any, who started it and when.
 */
export interface ImportSubject {
  format: string;
  files: string[];
  pool?: string;
  /** The owner who started it by name; null: the owner without a token (the desktop app, serve mode on loopback). */
  startedBy: string | null;
  /** When it was asked for (ISO 8601). */
  started: string;
}

export interface JobProgress {
  jobId: string;
  kind: 'import' | 'undo' | 'pool' | 'train' | 'score' | 'live' | 'export' | 'preview';
  /** The pool a live retrain or an export preview works on (live and preview jobs only), so a screen shows only its own pool's. */
  pool?: string;
  /** An import job's (kind 'import'): what it imports and who started it, so a tab that did not start it can say so. */
  import?: ImportSubject;
  done: number;
  total: number;
  message: string;
  /**
   * 'scoring': a train job's model is stored and the pools are being scored with it, to the end (a pool left
   * unscored would lack the model's run): Cancel no longer applies, and the Models screen hides it.
   */
  phase?: 'scoring';
}

export interface JobDone {
  jobId: string;
  kind: JobProgress['kind'];
  /** As in JobProgress. */
  pool?: string;
  /** As in JobProgress. */
  import?: ImportSubject;
  ok: boolean;
  /** On success: the job's report (an import report, ...). */
  report?: unknown;
  /** On failure: a readable error (file, line, reason). */
  error?: string;
  cancelled?: boolean;
}

export interface EventPayloads {
  'job.progress': JobProgress;
  'job.done': JobDone;
  /** A label changed; sent to owners, judges, the label's annotator, and everyone for a pool that is not blind. */
  'label.changed': LabelRecord;
  /** Training progress of a model job (loss, dev metrics per epoch) for the Models screen's plots. */
  'train.progress': TrainProgressEvent;
  /**
   * The workspace content changed (import, pool created, run added). `draws`: an ordered pool drew
   * queries for an annotator's next query (pool_draws) — no label changed, so screens that show
   * labels only (Review) need not read again.
   * `pool`: the one pool a draw, a run's change or a setting (guidelines, pool.set) is about, `runs` the runs stored or replaced there, `annotator` whose
   * draw it was; with them the engine tells an annotator only of changes hers to see (access.ts canSee: not a draw of
   * another's in a blind pool, nor a retrain of runs hidden from her, nor anything in a pool closed to her).
   * `team`: a person invited (a new link) or revoked, `annotator` who; an annotator or judge is told only of her own.
   * `model`: the stored model trained (its runs scored into every pool) or deleted, with `what: 'run'` and no pool; an
   * annotator is told only of a model she is shown (not one trained on blind labels: `blindLabels`, said of a deleted
   * model as it was before it went, when its training record can no longer be read).
   * `import`: an import or its undo ended; `pools` the pools it made, wrote to or took away. `pool` with a `pool`: a pool
   * made, set, assigned or its aggregation set; with an `annotator`: that person's role set or added. An annotator is told
   * of these only when they opened or closed a pool to her, are about a pool open to her (an import's `pools`: she is
   * given only those), or about herself — never of an import or a pool closed to her (pools-told.ts).
   */
  'workspace.changed': {
    what: 'import' | 'pool' | 'run' | 'guidelines' | 'external' | 'draws' | 'team';
    pool?: string;
    pools?: string[];
    runs?: string[];
    annotator?: string;
    model?: string;
    blindLabels?: true;
  };
}
export type EventName = keyof EventPayloads;
/** Every event name, from the one list the preload and the IPC share (src/shared/ipc-channels.ts). */
export const EVENT_NAMES: readonly EventName[] = CHANNEL_EVENT_NAMES;
/**
 * Compile-time check that the shared list is exactly the payload map's keys, both ways: adding an
 * event to EventPayloads without adding it to ipc-channels.ts (or the reverse) fails `tsc`.
 */
export type EventNamesMatchPayloads = [Exclude<EventName, ChannelEventName>, Exclude<ChannelEventName, EventName>] extends [never, never] ? true : never;
true satisfies EventNamesMatchPayloads;

/** Error shape returned across transports. */
export interface WireError {
  message: string;
  /**
   * `busy` (HTTP 429, with Retry-After): the caller already runs as much as is fair (issue 23);
   * `storage-full` (HTTP 507): the disk is full — nothing was saved, retry once space is back.
   */
  code: 'invalid-argument' | 'not-found' | 'user-error' | 'internal' | 'forbidden' | 'busy' | 'storage-full';
  /** What a client may act on besides the message, which it never parses (WIRE_REASONS); absent for most errors. */
  reason?: WireReason;
}

/**
 * The reason codes an error carries to the clients (from QPairsError details.reason; other reasons,
 * free text, stay on the server): `export-files-exist`, an export refused for files already there
 * (the Export screen offers "Replace them"); `label-superseded`, a page's late copy of a label it has
 * given again since (the outbox drops it quietly).
 */
export const WIRE_REASONS = [EXPORT_FILES_EXIST, LABEL_SUPERSEDED] as const;
export type WireReason = (typeof WIRE_REASONS)[number];

/** `reason` when it is one of WIRE_REASONS, else undefined. */
export function wireReason(reason: unknown): WireReason | undefined {
  return (WIRE_REASONS as readonly unknown[]).includes(reason) ? (reason as WireReason) : undefined;
}

/** A refusal of a command's arguments, one line: each failed check as `field: message`. */
export function invalidArgumentsMessage(command: string, error: z.ZodError): string {
  return `invalid arguments for ${command}: ${error.issues.map((i) => `${i.path.join('.') || '(arguments)'}: ${i.message}`).join('; ')}`;
}

/** Validates a command's raw arguments; throws a readable message on failure. */
export function parseArgs<C extends CommandName>(command: C, raw: unknown): ParsedArgs<C> {
  const schema = commandArgs[command];
  if (!schema) throw new Error(`unknown command ${String(command)}`);
  const r = schema.safeParse(raw ?? {});
  if (!r.success) {
    throw new ContractError(invalidArgumentsMessage(command, r.error), 'invalid-argument');
  }
  return r.data as ParsedArgs<C>;
}

export function isCommandName(s: unknown): s is CommandName {
  return typeof s === 'string' && Object.prototype.hasOwnProperty.call(commandArgs, s);
}

export class ContractError extends Error {
  constructor(
    message: string,
    readonly code: WireError['code'],
    readonly reason?: WireReason,
  ) {
    super(message);
    this.name = 'ContractError';
  }
}

/** The client interface the renderer uses, whichever transport carries it. */
export interface QPairsClient {
  invoke<C extends CommandName>(command: C, args: CommandArgs<C>): Promise<CommandResult<C>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void): () => void;
}

export type { PoolInfo, Question, WorkspaceStats, LabelRecord, RunInfo };
export type { ModelsView, TrainProgressEvent, ModelInfoView, TrainProgressView } from './models';
export type { AgreementView, AggregationSummary, AssignmentView, CompareView, DownloadStatus, ExportPreview, ExportWritten, ReviewPair, ReviewQueue } from './gold';
