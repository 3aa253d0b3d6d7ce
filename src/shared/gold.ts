/**
 * Shared types of the gold workflow (several annotators per pool, agreement, adjudication,
 * aggregation, ranker comparison, gold export): constants and the result shapes of the contract
 * commands `pool.assign`, `pool.assignment`, `pool.setAggregation`, `agreement.report`,
 * `review.queue`, `review.settle`, `eval.compare`, `export.preview` and `export.write`.
 * No Node or DOM imports (used by main and renderer).
 */
import type { LabelScheme } from './labels';
import type { Question } from './types';
import type { SelectedOn } from './selected-on';

/**
 * The pseudo-annotator naming a pool's aggregate label (its annotators' labels combined by the
 * pool's aggregation rule). Names starting with "@" are reserved: no real annotator has one.
 */
export const AGGREGATE = '@aggregate';

/**
 * Why the aggregate of a pool without annotators is empty (its figures are all 0: the pool is
 * labeled by imported gold, or by no one yet): one sentence, said by `qpairs eval` and
 * `qpairs aggregate`, the live metrics (Evaluate screen) and the Team panel alike; null when the
 * pool has annotators.
 */
export function noAnnotatorsNote(s: Pick<AggregationSummary, 'pool' | 'annotators' | 'goldLabels'>): string | null {
  if (s.annotators.length > 0) return null;
  const why = s.goldLabels > 0 ? 'its labels are imported as gold, which evaluation and exports use by default' : 'assign annotators to label it (Pools → Team, or qpairs assign)';
  return `${AGGREGATE} combines the labels of pool "${s.pool}"'s annotators, and it has none: ${why}`;
}

/** True for reserved pseudo-annotator names ("@…"). */
export function isReservedAnnotatorName(name: string): boolean {
  return name.trim().startsWith('@');
}

/** Why a reserved name (isReservedAnnotatorName) is refused as a person's, as every surface says it. */
export function reservedAnnotatorNameError(name: string): string {
  return `annotator names starting with "@" are reserved ("${name}")`;
}

/**
 * How a pool's annotators' labels combine into the aggregate (see src/main/gold/rules.ts). "?"
 * (unsure) is a vote for no value: a pair with one is never `agreed` and goes to Review.
 * - `adjudicated` (default): the agreed label; where annotators disagree or anyone said "?", the
 *   judge's label (unresolved until a judge settles it).
 * - `majority`: the agreed label; otherwise the judge's label if any, else the value with a
 *   strict majority of all votes, each "?" a vote for no value (ties, or "?" winning: unresolved).
 * - `mean`: the mean grade of the decisive votes ("?" left out), rounded to the nearest grade (a
 *   tie, a mean halfway between two grades, to the lower one); the mean > threshold (set with the
 *   rule, else defaultMeanThreshold: a mean leaning to relevant) is relevant, and then at least
 *   grade 1, else at most grade 0 (meanRuleText). Written in the pool's scheme: binary 1 or 0,
 *   SemEval's names, Likert's and graded pools' grades. Only "?" votes: unresolved. Judges are ignored.
 * - `unanimous`: only pairs every assigned annotator labeled alike, none "?"; the others are unresolved.
 */
export const AGGREGATION_RULES = ['adjudicated', 'majority', 'mean', 'unanimous'] as const;
export type AggregationRule = (typeof AGGREGATION_RULES)[number];

/**
 * The `mean` rule's threshold when a pool switches to it without one: the mean grade must lean to
 * relevant. Likert (−2…+2, symmetric around "neither"): above 0. Binary (0/1), SemEval (0/1/2) and
 * graded (0…n), relevant from grade 1: above 0.5 — so with three annotators 1, 0, 0 (mean 0.33) is
 * not relevant and 1, 1, 0 (0.67) is, where a threshold of 0 made any single "similar" relevant.
 */
export function defaultMeanThreshold(scheme: LabelScheme): number {
  return scheme === 'likert5' ? 0 : 0.5;
}

/**
 * What the `mean` rule gives, one sentence (the datasheet, `qpairs aggregate`, the app's Team panel
 * say it alike); `threshold` the pool's, or null where none is shown.
 */
export function meanRuleText(threshold: number | null): string {
  const above = threshold === null ? 'the threshold' : String(threshold);
  return (
    `the mean grade of the decisive votes ("?" left out), rounded to the nearest grade (a mean halfway between two grades takes the lower one); ` +
    `similar when the mean is above ${above}: then at least grade 1 (SemEval Relevant), else at most grade 0 — so binary pools get 1 or 0; ` +
    'only "?" votes: unresolved; judges ignored'
  );
}

/** How each aggregation rule counts "?" (unsure) votes, one sentence each (datasheet, CLI, UI). */
export const UNSURE_UNDER_RULE: Readonly<Record<AggregationRule, string>> = {
  adjudicated: 'a pair with any "?" is not agreed: it stays unresolved until a judge settles it',
  majority: 'each "?" is a vote for no value: a value needs a strict majority of all votes ("?" included), else the judge\'s label, else the pair is unresolved',
  mean: '"?" is left out of the mean; a pair with only "?" votes is unresolved',
  unanimous: 'a pair with any "?" is unresolved',
};

/** Gold export formats (src/main/export/); `hf-dataset` writes a folder (data/pairs.jsonl + README.md dataset card). */
export const EXPORT_FORMATS = ['askubuntu', 'qrels', 'trec-run', 'jsonl', 'csv', 'semeval-relevancy', 'hf-dataset'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/**
 * An export's controls as each surface names them in its messages: a refusal for files in the way
 * told the app's users to give --force, which only the CLI has (the desktop app's Export screen
 * offers its "Replace them" button instead). The engine's messages are the desktop app's; serve
 * mode's, whose Export screen only downloads, are those of the API call that names a path (a script
 * of the server's owner calling export.write with `path`: its `force` argument).
 */
export interface ExportControls {
  /** How to export anyway into another name. */
  another: string;
  /** How to replace the `count` files in the way. */
  replace(count: number): string;
}
/**
 * The reason code of an export refused for files in the way (QPairsError details.reason, sent to the
 * clients as WireError.reason): the Export screen offers "Replace them" on it, not on the wording.
 */
export const EXPORT_FILES_EXIST = 'export-files-exist';
/** The desktop app's button that replaces the files an export was refused for. */
export const EXPORT_REPLACE_BUTTON = 'Replace them';
export const CLI_EXPORT_CONTROLS: ExportControls = {
  another: 'choose another output',
  replace: (n) => `give --force to replace ${n === 1 ? 'it' : 'them'}`,
};
/** Serve mode: the arguments of export.write (its only caller with a path is a script of the owner on the server). */
export const API_EXPORT_CONTROLS: ExportControls = {
  another: 'give another path',
  replace: (n) => `give force: true to replace ${n === 1 ? 'it' : 'them'}`,
};
export const APP_EXPORT_CONTROLS: ExportControls = {
  another: 'Export to… another name',
  replace: (n) => `choose “${EXPORT_REPLACE_BUTTON}” to replace ${n === 1 ? 'it' : 'them'}`,
};

/** Per-query metrics rankers can be compared on (`eval.compare`). */
export const COMPARE_METRICS = ['AP', 'RR', 'P@1', 'P@5', 'R-Prec'] as const;
export type CompareMetric = (typeof COMPARE_METRICS)[number];
/** The metric a comparison is on unless told (`qpairs eval --compare`, the Compare panel, eval.compare). */
export const DEFAULT_COMPARE_METRIC: CompareMetric = 'AP';

/** A statistic: a finite number (with an optional note) or null with the reason it is undefined. */
export type StatView = { value: number; note?: string } | { value: null; reason: string };
/** A confidence interval [lo, hi] or null with a reason. */
export type IntervalView = { value: [number, number]; note?: string } | { value: null; reason: string };

// ------------------------------------------------------------------ assignment

export interface AnnotatorProgress {
  annotator: string;
  /** Queries assigned to this annotator (all queries under full overlap). */
  assignedQueries: number;
  /** Assigned queries whose every candidate this annotator labeled ("?" counts as given). */
  doneQueries: number;
  assignedPairs: number;
  labeledPairs: number;
}

export interface AssignmentView {
  pool: string;
  /**
   * `full`: every assigned annotator labels every query; `per-query`: k annotators per query
   * (seeded); `open`: no assignment made — the pool's annotators are whoever labeled in it.
   */
  mode: 'full' | 'per-query' | 'open';
  perQuery: number | null;
  seed: number | null;
  /** The pool's (primary) annotators. */
  annotators: string[];
  /** Annotators with role `judge` who are not annotators of this pool. */
  judges: string[];
  progress: AnnotatorProgress[];
  /** When asked for one annotator: the query ids assigned to them, in pool order (none when not assigned). */
  queries?: string[];
  /**
   * When asked for one annotator: whether the pool assigns them queries (a pool without an
   * assignment, mode `open`, assigns everyone). False for a judge or owner the pool does not assign,
   * or a newcomer: `queries` is then empty and their progress not listed.
   */
  assigned?: boolean;
  /** Issue 23: what the assignment means for people assigned who are not plain annotators (a judge keeps the judge role). */
  notes?: string[];
}

// ------------------------------------------------------------------ aggregation

/**
 * Status of a pair in the aggregate: `unlabeled` (no vote), `agreed` (all votes equal),
 * `majority` (strict majority), `mean` (mean rule), `adjudicated` (a judge settled a
 * disagreement), `unresolved` (disagreement not settled, majority tie, or not unanimous).
 */
export type PairStatus = 'unlabeled' | 'agreed' | 'majority' | 'mean' | 'adjudicated' | 'unresolved';

export interface AggregationSummary {
  pool: string;
  scheme: string;
  rule: AggregationRule;
  threshold: number;
  annotators: string[];
  judges: string[];
  /** Pairs in the pool. */
  pairs: number;
  /** Pairs with at least one vote. */
  labeled: number;
  /** Pairs the rule gives a value. */
  resolved: number;
  unresolved: number;
  /** Pairs with two or more different votes. */
  disagreements: number;
  /** Disagreements that have a judge's label. */
  settled: number;
  /** Pairs with at least one "?" (unsure) vote; of those, with a judge's label and left unresolved by the rule. */
  unsure: { pairs: number; settled: number; unresolved: number };
  byStatus: Record<PairStatus, number>;
  /** Aggregate values and how often each occurs. */
  distribution: Record<string, number>;
  /** Pairs with an imported gold label (annotator `gold`, never a vote: see noAnnotatorsNote). */
  goldLabels: number;
}

// ------------------------------------------------------------------ agreement

export interface PairAgreementView {
  a: string;
  b: string;
  items: number;
  percentAgreement: StatView;
  cohenKappa: StatView;
  cohenKappaLinear: StatView;
  cohenKappaQuadratic: StatView;
  /** Bootstrap-over-queries percentile 95% CI of the unweighted Cohen's kappa. */
  ci95: IntervalView;
  /** Positive / negative specific agreement (relevant = grade ≥ 1). */
  psa: StatView;
  nsa: StatView;
  /** confusion[i][j]: items a labeled categories[i] and b labeled categories[j]. */
  confusion: number[][];
}

export interface AgreementView {
  pool: string;
  scheme: string;
  annotators: string[];
  /** The label scale, low → high. */
  categories: string[];
  /** Items (pairs) labeled by at least one of the annotators. */
  items: number;
  queries: number;
  /** "?" (unsure) labels of these annotators on these queries: the statistics count them as missing labels. */
  unsure: number;
  bootstrap: { resamples: number; seed: number };
  percentAgreement: StatView;
  fleissKappa: StatView;
  krippendorffAlpha: { nominal: StatView; ordinal: StatView; interval: StatView };
  gwetAC1: StatView;
  /** Bootstrap 95% CIs over queries of the pool-level statistics. */
  /** Bootstrap 95% CIs over queries (krippendorffAlpha = nominal). */
  ci95: {
    percentAgreement: IntervalView;
    fleissKappa: IntervalView;
    krippendorffAlpha: IntervalView;
    krippendorffAlphaOrdinal: IntervalView;
    krippendorffAlphaInterval: IntervalView;
    gwetAC1: IntervalView;
  };
  pairs: PairAgreementView[];
  /** Per query (pool order): agreement and the disagreeing pairs with every annotator's label. */
  perQuery: Array<{
    queryId: string;
    items: number;
    multiplyLabeled: number;
    percentAgreement: StatView;
    disagreements: Array<{ candidateId: string; labels: Record<string, string> }>;
  }>;
  /**
   * Agreement after the first n co-labeled queries (queries ordered by when their last label
   * among these annotators was given): pooled percent agreement, Fleiss' kappa and, with exactly
   * two annotators, Cohen's kappa.
   */
  overTime: Array<{ queries: number; items: number; percentAgreement: StatView; fleissKappa: StatView; cohenKappa?: StatView }>;
}

// ------------------------------------------------------------------ review (adjudication)

export interface ReviewItem {
  queryId: string;
  candidateId: string;
  /**
   * The titles as the list shows them, at most REVIEW_TITLE_MAX characters (longer ones cut, ending
   * in "…"); null when the question's text is not in the workspace. The texts, and the votes' notes,
   * come one pair at a time with review.pair (with the pair's positions, |ΔAP| per run and what the
   * rule gives now): the queue stays small whatever the texts' length and the number of runs.
   */
  queryTitle: string | null;
  candidateTitle: string | null;
  /** Why the pair is in the queue: its decisive votes disagree, or someone said "?" (both: disagreement). Always set by the engine. */
  reason?: 'disagreement' | 'unsure';
  /** Every voting annotator's current label, "?" (unsure) included; `noted` when they wrote a note on the pair (its text: review.pair, issue 24). */
  labels: Array<{ annotator: string; value: string; noted?: true }>;
  /**
   * How much settling this pair can move the rankers: Σ over runs of the largest |ΔAP| of the
   * query between the possible resolutions (the distinct voted values), divided by the number of
   * queries of the pool — the most the pair can change the runs' MAP, summed over runs.
   */
  impact: number;
  /** The judge's label, when the pair is settled. */
  settled: {
    judge: string;
    value: string;
    seq: number;
    /** The ruling's reason (issue 24). */
    note?: string | null;
    /** Other judges' earlier rulings on the pair with another value, which this one overrules (the latest ruling counts). */
    overrules?: Array<{ judge: string; value: string }>;
  } | null;
  /**
   * The asking judge labeled this pair while not judging the pool (a vote as one of its annotators, or an
   * owner's label): she is no third judge of it and her ruling is refused; `judges`: the pool's other
   * judges who did not vote on it and may settle it (empty: none); `between`: she labeled it only
   * between two spans of judging the pool, not before she first judged it.
   */
  votedByYou?: { judges: string[]; between?: true };
  /** The asking judge's own note (reason) on the pair, given or not yet with a label (issue 24). */
  judgeNote?: string | null;
  /**
   * A judge's ruling given before an annotator's current label on the pair (a vote changed or came
   * since, or it was given before the pair was in dispute): it does not count; the pair needs a ruling again.
   */
  outdatedRuling?: { judge: string; value: string };
}

/** The most characters of a title a review queue's item carries (ReviewItem.queryTitle, candidateTitle). */
export const REVIEW_TITLE_MAX = 160;

/** What the detail of a review pair shows besides its texts (review.pair; the CLI's adjudicate --json per item). */
export interface ReviewPairFigures {
  /** 0-based positions of the query in the pool and of the candidate in the query's pool. */
  queryPosition: number;
  candidatePosition: number;
  /** Per run: the largest |ΔAP| of this query between the possible resolutions. */
  apChange: Record<string, number>;
  /** What the pool's rule gives now (null: unresolved). */
  ruleValue: string | null;
}

/**
 * One pair of the review queue as its detail shows it (review.pair): both questions' texts and
 * every vote with its note. Only pairs in the queue (in dispute, settled or not) are given.
 */
export interface ReviewPair extends ReviewPairFigures {
  pool: string;
  queryId: string;
  candidateId: string;
  query: Question | null;
  candidate: Question | null;
  /** Every voting annotator's current label, "?" included, with their note on the pair. */
  labels: Array<{ annotator: string; value: string; note?: string | null }>;
}

export interface ReviewQueue {
  pool: string;
  judge: string;
  scheme: string;
  rule: AggregationRule;
  /** Values a judge may give (keys 1…n in the UI), in the scheme's order. */
  values: string[];
  /** Pairs to review (disagreements and pairs with a "?" vote); settled; still to settle. */
  total: number;
  /** Of `total`: pairs whose decisive votes disagree, and pairs in the queue only for a "?". */
  disagreements: number;
  unsure: number;
  settled: number;
  remaining: number;
  /** Ordered by impact (highest first), then pool order. */
  items: ReviewItem[];
  note?: string;
  /** The pool's label version when read: a later read of the queries changed since (review.queue's `since`) follows it. */
  version: number;
  /** A whole queue's read: the pool's queries in pool order (what orders items of equal impact). */
  queryOrder?: string[];
  /**
   * A read of part of the queue (review.queue with `since`): `items` holds the pairs of these
   * queries only, which replace theirs in the queue read before (mergeReviewQueue); the counts are the whole queue's.
   */
  partial?: { queries: string[] };
}

// ------------------------------------------------------------------ ranker comparison

export interface ComparePairView {
  a: string;
  b: string;
  /** Queries compared. */
  n: number;
  meanA: StatView;
  meanB: StatView;
  /** mean(a − b) of the per-query metric. */
  meanDiff: StatView;
  /** Bootstrap (over queries) percentile 95% CI of mean(a − b). */
  ci95: IntervalView;
  t: StatView;
  df: number;
  /** Paired t-test, two-sided. */
  pT: StatView;
  /** Paired randomization (sign-flip) test, two-sided. */
  pPermutation: StatView;
  permutationMethod: 'exact' | 'monte-carlo';
  /** Holm-adjusted over the compared pairs. */
  pHolmT: StatView;
  pHolmPermutation: StatView;
  rejectT: boolean | null;
  rejectPermutation: boolean | null;
}

export interface CompareView {
  pool: string;
  metric: CompareMetric;
  annotator: string;
  convention: 'skip' | 'zero';
  ties: 'pool-order' | 'trec-eval';
  threshold: number;
  /** Queries every compared run was evaluated on (after the convention). */
  queries: number;
  bootstrap: { resamples: number; seed: number };
  permutations: number;
  alpha: number;
  /**
   * Each run's mean; `uniformQueries` (absent when 0): the compared queries where the run gives
   * every candidate the same score, so the tie rule ranks them (as eval's RunMetrics.uniformQueries);
   * `unscoredQueries` (absent when 0): the compared queries where the run scores no candidate, so they
   * are ranked in the pool's order there (as eval's RunMetrics.unscoredQueries); `overlap` (a stored
   * model's run only): how many of the compared queries its model was trained on (as eval's
   * RunMetrics.overlap; null: a model stored before training queries were recorded).
   */
  runs: Array<{
    name: string;
    mean: StatView;
    unscoredQueries?: number;
    uniformQueries?: number;
    overlap?: { trainedOn: number; of: number; sameId: number; sameText: number; nearDuplicate: number } | null;
    /** The run's model was chosen on the compared queries (as eval's RunMetrics.selectedOn). */
    selectedOn?: SelectedOn;
  }>;
  pairs: ComparePairView[];
}

// ------------------------------------------------------------------ export

export interface ExportPreview {
  pool: string;
  format: ExportFormat;
  /** The datasheet (markdown) that is written beside the export. */
  datasheet: string;
  /** Each file the export would write: its name, number of lines and first lines. */
  files: Array<{ name: string; lines: number; head: string[] }>;
  warnings: string[];
  /** The datasheet's agreement section is left out (asked with agreementLater): ask without it for the whole datasheet. */
  agreementPending?: boolean;
}

export interface ExportWritten {
  pool: string;
  format: ExportFormat;
  /**
   * Written files (path given: absolute paths written atomically, no content) or, without a
   * path (serve mode downloads), the file names with their content.
   */
  files: Array<{ name: string; bytes: number; content?: string }>;
  /**
   * With `download` (serve mode's Export screen): what the browser fetches, once each, with
   * GET DOWNLOAD_PATH + id (the caller's own token; expires unused after 15 minutes) — one per file,
   * or an hf-dataset's one `POOL.zip` holding its files — with the name to save it under and its size.
   * The files then carry no content: they were streamed to the server's own folder, never whole in memory.
   * `expiresAt`: when an id not fetched stops being fetchable (the server's Date.now() time).
   */
  downloads?: Array<{ id: string; name: string; bytes: number; expiresAt: number }>;
  /**
   * With `downloads`: the server's Date.now() when it answered. A page whose clock differs from the server's
   * measures the difference with it and shows `expiresAt` on its own clock (lib/download-queue.ts).
   */
  now?: number;
  warnings: string[];
}

/**
 * export.downloads: what became of a download id, as the server knows it (the page cannot see the
 * browser's download): `ready` — not being fetched (yet, or again after a transfer cut off: `failure`
 * says why, `failures` counts them); `sending` — `sentBytes` are out; `sent` — the server sent its last
 * byte (whether the browser saved the file, only the browser knows); `expired` — not fetched within 15
 * minutes (`expiresAt`), removed (export again for new ids); `unknown` — no such id for this caller (someone else's,
 * never given, or forgotten: a server restarted, or 15 minutes after it ended).
 */
export interface DownloadStatus {
  id: string;
  state: 'ready' | 'sending' | 'sent' | 'expired' | 'unknown';
  sentBytes: number;
  failures: number;
  failure?: string;
  /**
   * When the id stops being fetchable if it is not fetched (the server's Date.now() time: 15 minutes
   * after the export); none for `unknown`. Kept once it was sent or expired.
   */
  expiresAt?: number;
  /** The server's Date.now() when it answered (the engine always gives it): what `expiresAt` is measured against (a page's clock may be off). */
  now?: number;
}

/** Serve mode: where an export's download is fetched, `GET DOWNLOAD_PATH + id` (ExportWritten.downloads). */
export const DOWNLOAD_PATH = '/api/download/';
