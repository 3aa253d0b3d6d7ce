/**
 * eval.pool for the live panels (Evaluate, the Annotate screen's live metrics) without
 * recomputing the whole pool on every label.
 *
 * Per (pool, label source, convention, tie rule, threshold, partial) the engine keeps an
 * IncrementalEvaluator (metrics/incremental.ts: every run's rankings and per-query results) and
 * each pool query's labels from the source. A label then re-evaluates only its query, for each
 * run; the result is assembled by poolEvaluationOf from the per-query results, exactly as
 * evaluatePool (the CLI's full recompute) assembles it, so both give the same numbers, bit for
 * bit (the means, intervals and curve are summed over the counted queries in labeling order, a
 * pass of additions; the curve's points before the first query whose results or position changed
 * are the previous result's own objects — results are read-only — so a label on the latest query
 * builds almost no new points, and one on a random query about half of them).
 *
 * When is the cache still right? Correctness first: anything but new label rows means rebuild.
 * - Nothing written since: SQLite's `PRAGMA data_version` (changes with other connections'
 *   commits: another process, the import connection; an import that wrote no rows is taken in as
 *   nothing, Workspace.externalVersion) and `total_changes()` (rows this connection
 *   inserted, updated or deleted, triggers included) are unchanged → the cached result holds.
 * - This connection wrote, and only label rows: data_version unchanged and total_changes grew by
 *   exactly the number of label rows with a seq above the last one seen (labels are append-only,
 *   seq autoincrements) → update the queries these labels touch. For an annotator (or `gold`)
 *   that is each query it labeled, reread from its label history; for `@aggregate`, whose pairs
 *   depend on every annotator and judge of the pool, the pool's aggregate is recomputed and only
 *   the queries whose resolved labels changed are re-evaluated. When the source was chosen by
 *   default (no annotator given) and the choice could change (gold labels appear or all go,
 *   the aggregate loses its last annotator), rebuild.
 * - Anything else (runs or scores, pool membership, assignment, roles, aggregation rule, an
 *   import, a first label by a new annotator, another connection's commit) → rebuild.
 * - Rows no reader sees are not counted (Workspace.visibleChanges): the chunks of a run stored out
 *   of sight (workspace/staged-runs.ts) change nothing until the run is swapped in, which rebuilds.
 */
import type { PoolEvaluation } from '../../shared/contract';
import { AGGREGATE } from '../../shared/gold';
import { labelGrade } from '../../shared/labels';
import { IncrementalEvaluator } from '../metrics';
import type { Workspace } from '../workspace/workspace';
import { defaultLabelSourceOf, loadPoolState, sourceLabels, type PoolState } from '../gold/state';
import { emptySourceReason, evalPoolOptions, poolEvaluationOf, type EvalPoolArgs } from './evaluate';

/** How many (pool, source, options) evaluations are kept, least recently used dropped first (~30 MB each at 4,000 queries × 20 candidates × 10 runs, ~1 MB at 400 × 20 × 3). */
const MAX_ENTRIES = 8;

/** The signature of a query without labels from the source (see apply). */
const UNLABELED = '0';

interface QueryLabels {
  /** The source's labels of the query (candidate and value) and its latest seq: a change detector. */
  signature: string;
  /** Candidates with a label from the source. */
  labeled: number;
}

interface Entry {
  dataVersion: number;
  totalChanges: number;
  /** Highest label seq in the workspace when last brought up to date. */
  lastSeq: number;
  pool: string;
  poolId: number;
  source: string;
  /** The source annotator's id (null: @aggregate, or an annotator not created yet). */
  sourceId: number | null;
  chosenByDefault: boolean;
  /** The aggregate's annotators and judges (source @aggregate): while they stay, a label changes only its own query's aggregate. */
  voters: { annotators: readonly string[]; judges: readonly string[] } | null;
  partial: boolean;
  runNames: string[];
  queryIds: string[];
  queryIndex: Map<string, number>;
  candidates: ReadonlyArray<readonly string[]>;
  labels: QueryLabels[];
  full: number;
  partialQueries: number;
  /** Labels of the source in the pool (for the default-source rule). */
  labeledPairs: number;
  evaluator: IncrementalEvaluator;
  /** The curve of the last result (its points are shared with the next one while still valid). */
  curve: PoolEvaluation['curve'] | null;
}

interface LabelRow {
  seq: number;
  poolId: number;
  queryId: string;
  annotatorId: number;
}

function evalKey(a: EvalPoolArgs): string {
  return JSON.stringify([a.pool, a.annotator ?? null, a.convention, a.ties, a.threshold, a.partial ?? false]);
}

export class LivePoolEvaluations {
  private readonly entries = new Map<string, Entry>();
  /** What the cache did, for tests and benchmarks: served as is, updated by labels, rebuilt. */
  readonly stats = { hits: 0, updates: 0, rebuilds: 0 };

  constructor(private readonly ws: Workspace) {}

  /** eval.pool: the same result as evaluatePool(ws, a), from the cache when it still holds. */
  evaluate(a: EvalPoolArgs): PoolEvaluation {
    const key = evalKey(a);
    const mark = this.mark();
    let entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      let current = false;
      try {
        current = this.bringUpToDate(entry, mark);
      } catch {
        current = false; // rebuilt below, which reports a persistent error itself
      }
      if (!current) entry = undefined;
    }
    if (!entry) {
      entry = this.build(a, mark);
      this.stats.rebuilds++;
    }
    this.entries.set(key, entry);
    while (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    const { evaluator } = entry;
    const perRun = entry.runNames.map((name, j) => ({ name, results: evaluator.orderedResults(j) }));
    const empty = entry.full + entry.partialQueries === 0;
    const counts = { total: entry.queryIds.length, full: entry.full, partial: entry.partialQueries, counted: evaluator.countedQueries, emptyReason: empty ? emptySourceReason(this.ws, a.pool, entry.source) : null };
    // The curve points before the first changed position are those of the previous result.
    const valid = evaluator.takeFirstChange();
    const result = poolEvaluationOf(a, entry.source, counts, perRun, entry.curve ? { curve: entry.curve, valid } : undefined);
    entry.curve = result.curve;
    return result;
  }

  /** The query ids the last `evaluate(a)` counted, in labeling order (null when it is not cached). */
  countedQueryIds(a: EvalPoolArgs): string[] | null {
    return this.entries.get(evalKey(a))?.evaluator.orderedQueryIds() ?? null;
  }

  /** Drops every cached evaluation. */
  clear(): void {
    this.entries.clear();
  }

  /** The workspace's write marks: other connections' commits, this connection's row changes, the last label seq. */
  private mark(): { dataVersion: number; totalChanges: number; lastSeq: number } {
    return {
      // Other connections' commits (data_version), save an import's that wrote nothing (Workspace.externalVersion).
      dataVersion: this.ws.externalVersion(),
      // Row changes no reader sees (a run being stored out of sight) are left out: they change no result.
      totalChanges: this.ws.visibleChanges(),
      lastSeq: (this.ws.stmt(`SELECT coalesce(max(seq), 0) AS n FROM labels`).get() as { n: number }).n,
    };
  }

  private build(a: EvalPoolArgs, mark: ReturnType<LivePoolEvaluations['mark']>): Entry {
    const ws = this.ws;
    const pq = ws.poolQueries(a.pool);
    // The pool's queries and aggregate read once: choosing the default source aggregates the pool
    // already, and the aggregate read the pool's queries (60,000 pairs: ~100 ms each time) again.
    let source: string = a.annotator ?? '';
    let state: PoolState | undefined;
    if (a.annotator === undefined) ({ source, state } = defaultLabelSourceOf(ws, a.pool, { queries: pq }));
    if (source === AGGREGATE) state ??= loadPoolState(ws, a.pool, { queries: pq });
    const src = sourceLabels(ws, a.pool, source, source === AGGREGATE ? state : undefined);
    const pool = ws.pool(a.pool);
    const runs = ws.listRuns(a.pool);
    const evaluator = new IncrementalEvaluator(
      pq,
      runs.map((r) => ws.runScores(r.id)),
      evalPoolOptions(a),
    );
    const entry: Entry = {
      ...mark,
      pool: a.pool,
      poolId: pool.id,
      source,
      sourceId: source === AGGREGATE ? null : this.annotatorId(source),
      chosenByDefault: a.annotator === undefined,
      voters: source === AGGREGATE && state ? { annotators: state.annotators, judges: state.judges } : null,
      partial: a.partial ?? false,
      runNames: runs.map((r) => r.name),
      queryIds: pq.map((q) => q.queryId),
      queryIndex: new Map(pq.map((q, i) => [q.queryId, i])),
      candidates: pq.map((q) => q.candidates),
      labels: pq.map(() => ({ signature: UNLABELED, labeled: 0 })),
      full: 0,
      partialQueries: 0,
      labeledPairs: 0,
      evaluator,
      curve: null,
    };
    pq.forEach((q, i) => this.apply(entry, i, src.values.get(q.queryId), src.lastSeq.get(q.queryId) ?? 0));
    return entry;
  }

  private annotatorId(name: string): number | null {
    return (this.ws.stmt(`SELECT id FROM annotators WHERE name = ?`).get(name) as { id: number } | undefined)?.id ?? null;
  }

  /**
   * Brings an entry up to date with the label rows written since, or returns false when
   * something else changed (or might have), so that it must be rebuilt.
   */
  private bringUpToDate(e: Entry, mark: ReturnType<LivePoolEvaluations['mark']>): boolean {
    if (mark.dataVersion !== e.dataVersion) return false;
    if (mark.totalChanges === e.totalChanges && mark.lastSeq === e.lastSeq) {
      this.stats.hits++;
      return true;
    }
    const rows = this.ws
      .stmt(`SELECT seq, pool_id AS poolId, query_id AS queryId, annotator_id AS annotatorId FROM labels WHERE seq > ? ORDER BY seq`)
      .all(e.lastSeq) as LabelRow[];
    if (mark.totalChanges - e.totalChanges !== rows.length || rows.at(-1)?.seq !== mark.lastSeq) return false;
    const mine = rows.filter((r) => r.poolId === e.poolId);
    if (mine.length > 0 && !this.applyLabelRows(e, mine)) return false;
    e.totalChanges = mark.totalChanges;
    e.lastSeq = mark.lastSeq;
    this.stats.updates++;
    return true;
  }

  private applyLabelRows(e: Entry, rows: readonly LabelRow[]): boolean {
    const ws = this.ws;
    if (e.source === AGGREGATE) {
      // A gold label could make `gold` the default source.
      const gold = this.annotatorId('gold');
      if (e.chosenByDefault && rows.some((r) => r.annotatorId === gold)) return false;
      // Only the touched queries' pairs are aggregated again (the whole pool's aggregate took ~300 ms
      // per label on 60,000 pairs): a pair's aggregate depends on its own labels, its query's
      // assignees and the pool's annotators, judges and rule — anything but label rows rebuilds, and
      // a label that changes the annotators or judges (open assignment: a first or last label in the
      // pool) re-aggregates every query.
      const touched: number[] = [];
      for (const q of new Set(rows.map((r) => r.queryId))) {
        const i = e.queryIndex.get(q);
        if (i === undefined) return false; // a label for a query the entry does not know
        touched.push(i);
      }
      const queriesOf = (idx: readonly number[]) => idx.map((i) => ({ queryId: e.queryIds[i]!, candidates: [...e.candidates[i]!] }));
      let state = loadPoolState(ws, e.pool, { queries: queriesOf(touched) });
      if (e.chosenByDefault && state.annotators.length === 0) return false;
      const same = (x: readonly string[], y: readonly string[]): boolean => x.length === y.length && x.every((v, k) => v === y[k]);
      let indexes = touched;
      if (!e.voters || !same(e.voters.annotators, state.annotators) || !same(e.voters.judges, state.judges)) {
        indexes = e.queryIds.map((_, i) => i);
        state = loadPoolState(ws, e.pool, { queries: queriesOf(indexes) });
        e.voters = { annotators: state.annotators, judges: state.judges };
      }
      const src = sourceLabels(ws, e.pool, AGGREGATE, state);
      for (const i of indexes) {
        const q = e.queryIds[i]!;
        this.apply(e, i, src.values.get(q), src.lastSeq.get(q) ?? 0);
      }
      return true;
    }
    // The default `gold` chosen for lack of any label: any label may change the choice.
    if (e.chosenByDefault && e.labeledPairs === 0) return false;
    if (e.sourceId === null) {
      // The source annotator did not exist: its first label came with a new annotator row, which
      // does not pass bringUpToDate; anything else would be a surprise, so rebuild.
      return this.annotatorId(e.source) === null;
    }
    const history = ws.stmt(
      `SELECT candidate_id AS c, value AS v, seq FROM labels WHERE pool_id = ? AND annotator_id = ? AND query_id = ? ORDER BY seq`,
    );
    const touched = new Set(rows.filter((r) => r.annotatorId === e.sourceId).map((r) => r.queryId));
    for (const q of touched) {
      const i = e.queryIndex.get(q);
      if (i === undefined) return false; // a label for a query the entry does not know
      // The current label of each candidate is its latest event; a null value is a cleared label.
      const latest = new Map<string, { v: string | null; seq: number }>();
      for (const h of history.all(e.poolId, e.sourceId, q) as Array<{ c: string; v: string | null; seq: number }>) latest.set(h.c, h);
      const values = new Map<string, string>();
      let lastSeq = 0;
      for (const [c, h] of latest) {
        if (h.v === null) continue;
        values.set(c, h.v);
        lastSeq = Math.max(lastSeq, h.seq);
      }
      this.apply(e, i, values, lastSeq);
    }
    // `gold` stays the default only while it has labels in the pool.
    return !(e.chosenByDefault && e.labeledPairs === 0);
  }

  /**
   * Sets query i's labels from the source (candidate → value, its latest seq): which queries
   * count follows poolLabels (evaluate.ts) — fully labeled ones, or with `partial` every query
   * with a label; "?" and unknown values are unjudged grades. Unchanged labels cost nothing.
   */
  private apply(e: Entry, i: number, values: ReadonlyMap<string, string> | undefined, lastSeq: number): void {
    const cands = e.candidates[i]!;
    const grades = new Map<string, number | undefined>();
    let labeled = 0;
    let signature = '';
    for (const c of cands) {
      const v = values?.get(c);
      if (v === undefined) continue;
      labeled++;
      grades.set(c, labelGrade(v) ?? undefined);
      signature += `${c}\u0000${v}\u0001`;
    }
    signature += String(lastSeq);
    const old = e.labels[i]!;
    if (old.signature === signature) return;
    const wasFull = old.labeled > 0 && old.labeled === cands.length;
    if (old.labeled > 0) {
      if (wasFull) e.full--;
      else e.partialQueries--;
    }
    const full = labeled > 0 && labeled === cands.length;
    if (labeled > 0) {
      if (full) e.full++;
      else e.partialQueries++;
    }
    e.labeledPairs += labeled - old.labeled;
    e.labels[i] = { signature, labeled };
    e.evaluator.setQuery(e.queryIds[i]!, labeled > 0 && (full || e.partial) ? grades : null, lastSeq);
  }
}
