import { AGGREGATE, COMPARE_METRICS, DEFAULT_COMPARE_METRIC, type CompareMetric, type CompareView } from '../../../shared/gold';
import type { PoolEvaluation } from '../../../shared/contract';
import { countedQueries, notDecidedReason, type LabelOrderStanding } from '../../../shared/label-order';
import { everyGradeSimilarNote } from '../../../shared/labels';
import { DEFAULT_TIES } from '../../../shared/stat-defaults';
import { counted } from '../../../shared/plural';
import { checkLabelSourceName, evaluatePool } from '../../engine/evaluate';
import { labelOrderOf } from '../../engine/label-order';
import { withModelOverlap } from '../../engine/models';
import { describeOverlap } from '../../training/trained-on';
import { describeSelectedOn, type SelectedOn } from '../../../shared/selected-on';
import { putStat } from '../../gold';
import { compareRunsFlagged } from '../../engine/compute-task';
import type { Workspace } from '../../workspace/workspace';
import { parse, parseConvention, requireString, table, takePositionals, UsageError } from '../args';
import { fmtP, intFlag, json, list, Notes, numberFlag, positiveInt, withWorkspace, type Out } from './common';

/**
 * `qpairs eval W --pool P [--convention skip|zero] [--annotator A] [--ties pool-order|trec-eval]
 *  [--threshold 1] [--partial] [--json]`: metrics of every run of the pool against a label source
 * — A (an annotator or @aggregate), by default gold when the pool has gold labels, else the
 * aggregate (the engine's rule: evalLabelSource). Only fully labeled queries count unless
 * `--partial`; `--json` prints eval.pool's result (without the curve). Counting no query, it prints its
 * report and fails (exit 1) with "nothing to evaluate", why and what to do on stderr.
 *
 * With `--compare R1,R2[,…] [--metric AP|RR|P@1|P@5|R-Prec] [--bootstrap N] [--permutations N]
 * [--seed S] [--baseline R]`: compares the runs on the per-query metric (mean differences with
 * bootstrap 95% CIs, paired t-test and randomization test, Holm over the compared pairs).
 *
 * Plain eval of an ordered pool adds each run's *pool MAP* estimate (exact once every query is
 * labeled) and whether the best run is *decided on queries like these*: the paired t-test over the
 * labeled queries, Holm over best vs each other run — the test `--compare … --baseline BEST` runs —
 * never a standard error that falls to 0 as the pool fills (src/main/active/ranker-decision.ts).
 * Both count as the table does: the same label source, convention, ties, threshold and `--partial`.
 */
export async function cmdEval(argv: string[], out: Out): Promise<number> {
  const { values, positionals } = parse(argv, {
    pool: { type: 'string' },
    convention: { type: 'string' },
    annotator: { type: 'string' },
    ties: { type: 'string' },
    threshold: { type: 'string' },
    compare: { type: 'string' },
    metric: { type: 'string' },
    bootstrap: { type: 'string' },
    permutations: { type: 'string' },
    seed: { type: 'string' },
    baseline: { type: 'string' },
    partial: { type: 'boolean' },
    json: { type: 'boolean' },
  });
  const pool = requireString(values.pool, '--pool P');
  // Omitted: the pool's own convention (issue 24; SemEval imports zero, AskUbuntu pools skip).
  const convention = parseConvention(values.convention);
  const ties = values.ties ?? DEFAULT_TIES;
  if (ties !== 'pool-order' && ties !== 'trec-eval') throw new UsageError('--ties is pool-order or trec-eval');
  const threshold = numberFlag(values.threshold, '--threshold') ?? 1;
  const compareOnly = ['metric', 'bootstrap', 'permutations', 'seed', 'baseline'] as const;
  if (values.compare === undefined) {
    const stray = compareOnly.find((k) => values[k] !== undefined);
    if (stray) throw new UsageError(`--${stray} goes with --compare R1,R2`);
  }
  if (values.compare !== undefined && values.partial) throw new UsageError('--partial goes with plain eval, not --compare (a comparison uses fully labeled queries)');
  takePositionals(positionals, ['W'], 'eval');
  if (values.compare !== undefined) {
    const runs = list(values.compare)!;
    if (runs.length < 2) throw new UsageError('--compare needs at least two runs: R1,R2');
    const metric = values.metric ?? DEFAULT_COMPARE_METRIC;
    if (!(COMPARE_METRICS as readonly string[]).includes(metric)) throw new UsageError(`--metric is one of ${COMPARE_METRICS.join(', ')}`);
    const bootstrap = positiveInt(values.bootstrap, '--bootstrap');
    const permutations = positiveInt(values.permutations, '--permutations');
    const seed = intFlag(values.seed, '--seed');
    return withWorkspace(positionals[0], (ws) => {
      checkLabelSourceName(ws, values.annotator);
      // One snapshot: a label serve mode commits meanwhile is wholly in the comparison or wholly out of it.
      const v = ws.snapshot(() => compareRunsFlagged(ws, pool, {
        runs,
        metric: metric as CompareMetric,
        annotator: values.annotator,
        convention,
        ties,
        threshold,
        bootstrap,
        permutations,
        seed,
        baseline: values.baseline,
      }));
      if (values.json) out.log(json(compareJson(v)));
      else printCompare(v, out);
      return 0;
    }, { out });
  }
  return withWorkspace(positionals[0], (ws) => {
    checkLabelSourceName(ws, values.annotator);
    // The table and the standing below read one snapshot: a label serve mode commits meanwhile is in both or in neither.
    const { ev, lo } = ws.snapshot(() => ({
      ev: withModelOverlap(ws, evaluatePool(ws, { pool, convention, ties, annotator: values.annotator, threshold, partial: values.partial ?? false })),
      // The standing and its verdict count as the table does: the same label source, convention, ties, threshold and queries.
      lo: labelOrderOf(ws, pool, { annotator: values.annotator, convention, ties, threshold, partial: values.partial ?? false }),
    }));
    // No query counted (no label from the source, only partly labeled queries, no pair): the report still
    // says why, and the command fails (exit 1), as other commands with nothing to do do, so a script stops there.
    const nothing = ev.labeledQueries === 0 ? nothingToEvaluate(ws, positionals[0]!, ev) : null;
    // An ordered pool's estimates ride along (eval.order in the app); a pool in pool order's JSON is eval.pool's.
    if (values.json) out.log(json(lo.order === 'pool' ? evalJson(ev) : { ...evalJson(ev), labelOrder: lo }));
    else {
      const pct = (x: number | null): string => (x === null ? '—' : (100 * x).toFixed(2));
      out.log(`pool ${ev.pool}, labels of ${ev.annotator}${ev.annotatorChosenBy === 'default' ? ' (default source)' : ''}, convention ${ev.convention}${ev.conventionChosenBy === 'pool' ? " (the pool's; --convention overrides)" : ''}, ties ${ev.ties}, similar from grade ${ev.threshold}`);
      out.log(`${ev.labeledQueries} of ${ev.totalQueries} queries counted — ${ev.labeling}`);
      // Under skip the table counts fewer: say so here, not only in the verdict below ("200 of 200 counted" over a table of 189).
      const used = Math.max(0, ...Object.values(ev.runs).map((m) => m.queries));
      if (ev.convention === 'skip' && Object.keys(ev.runs).length > 0 && used < ev.labeledQueries) {
        out.log(`${counted(ev.labeledQueries - used, 'of them has', 'of them have')} no similar candidate: left out of the metrics (convention skip), which count ${used}`);
      }
      // Under zero they count 0 in every metric: say how many, and when it is all of them the figures measure nothing.
      if (ev.convention === 'zero' && ev.withoutRelevant > 0 && Object.keys(ev.runs).length > 0) {
        out.log(
          ev.withoutRelevant === ev.labeledQueries
            ? `! none of the ${counted(ev.labeledQueries, 'query', 'queries')} counted has a similar candidate (grade ${ev.threshold} or above) in the labels of ${ev.annotator}: every figure is 0 whatever the runs' order (convention zero)`
            : `${counted(ev.withoutRelevant, 'of them has', 'of them have')} no similar candidate: ${ev.withoutRelevant === 1 ? 'it counts' : 'each counts'} 0 in every metric (convention zero)`,
        );
      }
      const everySimilar = everyGradeSimilarNote(ws.poolSettings(pool).scheme, ev.threshold);
      if (everySimilar && Object.keys(ev.runs).length > 0) out.log(`! ${everySimilar}`);
      if (!ev.partial && ev.partiallyLabeledQueries > 0) out.log(`${counted(ev.partiallyLabeledQueries, 'partially labeled query', 'partially labeled queries')} left out (--partial counts them)`);
      if (ev.reason) out.log(`metrics undefined: ${ev.reason}`);
      if (nothing?.hint) out.log(nothing.hint);
      // A pool of imported labels alone (a qrels or .relevancy file) has nothing to rank: say so, not an empty table.
      if (Object.keys(ev.runs).length === 0) out.log(`pool ${ev.pool} has no runs to evaluate: import one (qpairs import W --format trec-run FILE --pool ${ev.pool}) or score a model on it (qpairs score W --model NAME --pool ${ev.pool})`);
      else out.log(
        table(
          ['run', 'queries', 'MAP', 'MRR', 'P@1', 'P@5', 'R-Prec'],
          Object.entries(ev.runs).map(([name, m]) => [name, m.queries, pct(m.MAP), pct(m.MRR), pct(m['P@1']), pct(m['P@5']), pct(m['R-Prec'])]),
        ),
      );
      if (Object.keys(ev.runs).length > 0) out.log(ciTable(ev));
      // Runs whose model saw some of these queries in training: their figures are not held out.
      for (const [name, m] of Object.entries(ev.runs)) {
        const flag = overlapRunLine(name, m.overlap);
        if (flag) out.log(flag);
        if (m.selectedOn) out.log(selectedOnRunLine(name, m.selectedOn));
        // A run that skipped queries is ranked in pool order there: say so beside its figures.
        if (m.unscoredQueries) out.log(unscoredRunLine(name, m.unscoredQueries, m.queries));
        if (m.uniformQueries) out.log(uniformRunLine(name, m.uniformQueries, m.queries, ev.ties));
      }
      if (lo.order !== 'pool') {
        out.log('');
        out.log(
          lo.estimator === 'bounds'
            ? `labeling order ${lo.order}: MAP over the ${lo.used} opened queries of ${lo.population} (${lo.estimator}) — ${lo.note}`
            : `labeling order ${lo.order}: MAP estimated over the pool's ${lo.population} queries${lo.counting.convention === 'skip' ? ' (those with a similar candidate: convention skip)' : ''} (${lo.estimator}) — ${lo.note}`,
        );
        out.log(
          table(
            ['run', 'pool MAP estimate', '95% CI', 'Holm p vs best (paired test)'],
            lo.rankers.map((r) => [r.run, pct(r.map), r.ci ? `${pct(r.ci[0])}–${pct(r.ci[1])}` : '—', r.adjustedP === null ? (r.run === lo.best ? 'best' : '—') : r.adjustedP.toPrecision(2)]),
          ),
        );
      }
      const verdict = verdictLine(lo);
      if (verdict) out.log(verdict);
    }
    if (nothing) {
      out.err(`qpairs eval: nothing to evaluate: ${nothing.why}`);
      return 1;
    }
    return 0;
  }, { out });
}

/**
 * Why an evaluation counted no query, in one line for stderr (the reason, and what to do), and the
 * report's line saying what to do when the source has no label in the pool (null: the reason says it, as `--partial`).
 */
function nothingToEvaluate(ws: Workspace, w: string, ev: PoolEvaluation): { why: string; hint: string | null } {
  const reason = ev.reason ?? `no query of pool "${ev.pool}" is counted`;
  let hint: string | null = null;
  if (ev.partiallyLabeledQueries === 0) {
    // Imported gold labels are no annotator's votes: the aggregate of a pool that has only them has no dispute to settle.
    hint = ws.pool(ev.pool).pairs === 0 ? `pool ${ev.pool} has no candidate pair to label: BM25 found no other question for its queries` : noLabelsHint(w, ev.pool, ev.annotator, ws.currentLabels(ev.pool).some((l) => l.annotator !== 'gold'));
  }
  return { why: hint ? `${reason}; ${hint}` : reason, hint };
}

/**
 * Whether the best run is decided, in one line — about the queries the standing counts, which are the
 * table's (label source, convention, threshold, ties, partly labeled queries as given; an ordered pool's
 * drawn queries, as its table above says). Null with fewer than two runs or no query counted.
 */
export function verdictLine(lo: LabelOrderStanding): string | null {
  if (lo.rankers.length < 2 || lo.used === 0) return null;
  const queries = `the ${countedQueries(lo)}`;
  if (lo.best === null) {
    const top = Math.max(...lo.rankers.map((r) => r.map ?? -Infinity));
    const tied = lo.rankers.filter((r) => r.map !== null && Math.abs(r.map - top) <= 1e-12).map((r) => r.run);
    return `not decided: no run leads — ${tied.join(', ')} share the highest MAP over ${queries}`;
  }
  return lo.decided
    ? `decided: ${lo.best} is best on queries like these (paired t-test over ${queries}, Holm-corrected p < 0.05 against every other run) — if choosing the best run is the goal, labeling can stop here`
    : `not decided: ${lo.best} ${notDecidedReason(lo, queries)}` +
        (lo.estimator === 'exact' && !lo.bestTrainedOn && !lo.bestSelectedOn ? " (the pool's MAPs are exact; whether the gap holds on other queries like these is what the test says)" : '');
}

/**
 * The flag under a model's run trained on some of the counted queries (plain eval and --compare alike):
 * its figures there are not held out. Null for a run that is no model's or saw none of them.
 */
function overlapRunLine(name: string, overlap: PoolEvaluation['runs'][string]['overlap']): string | null {
  if (overlap && overlap.trainedOn > 0) return `! ${name}: ${describeOverlap(overlap)} — not held out`;
  if (overlap === null) return `? ${name}: trained before QPairs recorded training queries; whether it saw these queries is unknown`;
  return null;
}

/**
 * The flag under a model's run chosen on the counted queries (its dev pool; its CV's out-of-fold queries;
 * or a feature run's model's), plain eval and --compare alike: its figures there are optimistic.
 */
function selectedOnRunLine(name: string, s: SelectedOn): string {
  return `! ${name}: ${describeSelectedOn(name, s)} — optimistic, not held out`;
}

/**
 * The flag under a run that scores no candidate of some counted queries (plain eval and --compare
 * alike): its unscored candidates are ranked in the pool's order there, which can flatter it.
 */
function unscoredRunLine(name: string, unscored: number, queries: number): string {
  return `! ${name}: scores no candidate of ${unscored} of its ${queries} queries — ranked in the pool's order there`;
}

/**
 * The flag under a run that gives every candidate the same score in some counted queries (plain
 * eval and --compare alike): the tie rule, not the run, ranks them there.
 */
function uniformRunLine(name: string, uniform: number, queries: number, ties: 'pool-order' | 'trec-eval'): string {
  return `! ${name}: gives every candidate the same score in ${uniform} of its ${queries} queries — ranked in ${ties === 'trec-eval' ? 'descending id order (the trec-eval tie rule)' : "the pool's order"} there, as if unscored`;
}

/** The JSON view of `qpairs eval --json`: eval.pool's result without the curve. */
export function evalJson(ev: PoolEvaluation): Record<string, unknown> {
  const { curve, ...rest } = ev;
  void curve;
  return rest;
}

/** The JSON view of a comparison: statistics as numbers, undefined ones null with `<name>Reason` beside. */
export function compareJson(v: CompareView): Record<string, unknown> {
  return {
    pool: v.pool,
    metric: v.metric,
    annotator: v.annotator,
    convention: v.convention,
    ties: v.ties,
    threshold: v.threshold,
    queries: v.queries,
    bootstrap: v.bootstrap,
    permutations: v.permutations,
    alpha: v.alpha,
    runs: v.runs.map((r) => {
      const o: Record<string, unknown> = { name: r.name };
      putStat(o, 'mean', r.mean);
      if (r.unscoredQueries) o.unscoredQueries = r.unscoredQueries;
      if (r.uniformQueries) o.uniformQueries = r.uniformQueries;
      if (r.overlap !== undefined) o.overlap = r.overlap;
      if (r.selectedOn) o.selectedOn = r.selectedOn;
      return o;
    }),
    pairs: v.pairs.map((p) => {
      const o: Record<string, unknown> = { a: p.a, b: p.b, n: p.n };
      putStat(o, 'meanA', p.meanA);
      putStat(o, 'meanB', p.meanB);
      putStat(o, 'meanDiff', p.meanDiff);
      putStat(o, 'ci95', p.ci95);
      putStat(o, 't', p.t);
      o.df = p.df;
      putStat(o, 'pT', p.pT);
      putStat(o, 'pPermutation', p.pPermutation);
      o.permutationMethod = p.permutationMethod;
      putStat(o, 'pHolmT', p.pHolmT);
      putStat(o, 'pHolmPermutation', p.pHolmPermutation);
      o.rejectT = p.rejectT;
      o.rejectPermutation = p.rejectPermutation;
      return o;
    }),
  };
}

/**
 * How the randomization test's p-values were found: exact (every one of the 2^n sign patterns, when
 * 2^n ≤ --permutations) or Monte Carlo (that many random sign flips); pairs over different query
 * counts can differ, and the p (perm) column's pairs then say which is which in the JSON.
 */
export function permutationWords(v: Pick<CompareView, 'permutations' | 'pairs'>): string {
  const exact = v.pairs.filter((p) => p.permutationMethod === 'exact').length;
  if (exact > 0 && exact === v.pairs.length) return 'exact (every sign pattern)';
  const flips = `${v.permutations} random sign flips`;
  return exact === 0 ? flips : `exact (every sign pattern) for ${counted(exact, 'pair')}, ${flips} for the others`;
}

function printCompare(v: CompareView, out: Out): void {
  out.log(`pool ${v.pool}: ${v.metric} per query over ${counted(v.queries, 'query', 'queries')} (labels of ${v.annotator}, convention ${v.convention}, ties ${v.ties}, similar from grade ${v.threshold})`);
  out.log(`95% CIs: bootstrap over queries (${v.bootstrap.resamples} resamples, seed ${v.bootstrap.seed}); randomization test ${permutationWords(v)}; Holm over ${counted(v.pairs.length, 'pair')}`);
  // Means, differences and intervals in percent points, as the metrics table and the app's Compare panel (--json: fractions).
  out.log(`means, differences and their CIs in percent points (71.35 = 0.7135; --json gives fractions); p-values as they are`);
  out.log(table(['run', `mean ${v.metric}`], v.runs.map((r) => [r.name, points(r.mean)])));
  for (const r of v.runs) {
    const flag = overlapRunLine(r.name, r.overlap);
    if (flag) out.log(flag);
    if (r.selectedOn) out.log(selectedOnRunLine(r.name, r.selectedOn));
    if (r.unscoredQueries) out.log(unscoredRunLine(r.name, r.unscoredQueries, v.queries));
    if (r.uniformQueries) out.log(uniformRunLine(r.name, r.uniformQueries, v.queries, v.ties));
  }
  out.log('');
  out.log(
    table(
      // The difference's direction in its header, as the app's "A − B" column says it (bare "diff" left the sign to guess).
      ['a', 'b', 'a − b', '95% CI', 'p (t)', 'p (perm)', 'Holm p (t)', 'Holm p (perm)'],
      v.pairs.map((p) => [p.a, p.b, points(p.meanDiff), pointsCi(p.ci95), fmtP(p.pT), fmtP(p.pPermutation), fmtP(p.pHolmT), fmtP(p.pHolmPermutation)]),
    ),
  );
  // Why a p is n/a, and what a bare figure hides: an interval from one query (every resample is that
  // query: [50.00, 50.00] looked certain), resamples dropped, a t-test p of 0 from differences without spread.
  const notes = new Notes();
  for (const p of v.pairs) {
    notes.stat(`${p.a}–${p.b} 95% CI`, p.ci95);
    notes.stat(`${p.a}–${p.b} p (t)`, p.pT);
  }
  const text = notes.text();
  if (text) out.log(text);
}

/** A statistic on the 0–1 scale in percent points with two decimals (0.71354 → 71.35), or "n/a". */
function points(s: { value: number | null }): string {
  return s.value === null ? 'n/a' : percentPoints(s.value);
}

function pointsCi(s: { value: [number, number] | null }): string {
  return s.value === null ? 'n/a' : `[${percentPoints(s.value[0])}, ${percentPoints(s.value[1])}]`;
}

/** A value on the 0–1 scale in percent points, two decimals; one that rounds to zero is 0.00, never -0.00. */
export function percentPoints(x: number): string {
  const r = Number((100 * x).toFixed(2));
  return (r === 0 ? 0 : r).toFixed(2);
}

const TABLE_METRICS = ['MAP', 'MRR', 'P@1', 'P@5', 'R-Prec'] as const;

/**
 * The 95% confidence intervals of the metrics table, as a second table under it (the app's
 * Evaluate shows them beside each figure; eval.pool gives them): Student t over each run's
 * per-query values, clipped to 0–100; '—' where a run has fewer than two queries.
 */
function ciTable(ev: PoolEvaluation): string {
  const range = (ci: [number, number] | null | undefined): string => (ci ? `${percentPoints(ci[0])}–${percentPoints(ci[1])}` : '—');
  return [
    "95% CIs (Student t over each run's queries, clipped to 0–100; — below two queries):",
    table(
      ['run', ...TABLE_METRICS],
      Object.entries(ev.runs).map(([name, m]) => [name, ...TABLE_METRICS.map((k) => range(m.ci?.[k]))]),
    ),
  ].join('\n');
}

/**
 * What to do when the label source has no label in the pool: the table of dashes said why there are
 * no figures but not how to get some. The aggregate of a pool its annotators have labeled waits for
 * its disputes to be settled; any other source, for labels.
 */
function noLabelsHint(w: string, pool: string, source: string, poolHasLabels: boolean): string {
  if (source === AGGREGATE && poolHasLabels) return `to evaluate it: settle the disputed pairs (qpairs adjudicate ${w} --pool ${pool} lists them and says how), or choose another rule (qpairs aggregate ${w} --pool ${pool} --rule R)`;
  const person = source !== AGGREGATE && source !== 'gold';
  return (
    `to evaluate it: label its pairs (qpairs label ${w} --pool ${pool} --annotator ${person ? source : 'A'} --query Q --candidate C --value V, or Annotate in the app) ` +
    `or import labels into it (qpairs import ${w} --format labels-csv|labels-jsonl|qrels FILE --pool ${pool}${person ? ` --annotator ${source}` : ''})`
  );
}
