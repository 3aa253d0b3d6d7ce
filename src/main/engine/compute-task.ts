/**
 * The heavy read-only computations the engine may run off its thread (compute.ts): a task is
 * plain data (structured-clonable), run the same way inline and in the compute worker, so both
 * give the same result. Also the cheap estimate of a task's cost that decides where it runs.
 */
import type { AgreementView, CompareView, ExportFormat } from '../../shared/gold';
import { DEFAULT_PERMUTATIONS, DEFAULT_RESAMPLES } from '../../shared/stat-defaults';
import { buildExport, type BuiltExport, type ExportOptions, type ExportProgress } from '../export';
import { comparePoolRuns, type PoolCompareOptions } from '../gold/compare';
import { poolAgreement, type PoolAgreementOptions } from '../gold/agreement';
import {
  AGREEMENT_NS_PER_UNIT,
  COMPARE_NS_PER_UNIT,
  agreementWork,
  compareWork,
} from '../gold/budget';
import { loadPoolState, type PoolState } from '../gold/state';
import { runModelOverlap } from '../training/trained-on';
import { runSelectedOn } from '../training/selected-on';
import type { Workspace } from '../workspace/workspace';

/** agreement.report as data: the pool and poolAgreement's options that can cross a thread. */
export interface AgreementTask extends Pick<PoolAgreementOptions, 'annotators' | 'queries' | 'bootstrap' | 'seed'> {
  kind: 'agreement';
  pool: string;
}

/** eval.compare as data: the pool and comparePoolRuns' options that can cross a thread. */
export interface CompareTask extends Omit<PoolCompareOptions, 'signal' | 'onProgress' | 'overlapOf'> {
  kind: 'compare';
  pool: string;
}

/**
 * An export's rendering (export.preview, export.write) as data: its files and datasheet, whose
 * agreement bootstrap takes tens of seconds on a large pool (25–40 s for 40,000 pairs and 3
 * annotators, measured here) — on the engine's thread that froze every annotator's labeling.
 */
export interface ExportTask {
  kind: 'export';
  pool: string;
  format: ExportFormat;
  /** The export's OUT (file names are derived from it). */
  out: string;
  options: Omit<ExportOptions, 'force'>;
}

export type ComputeTask = AgreementTask | CompareTask | ExportTask;
export type ComputeResult<T extends ComputeTask> = T extends AgreementTask ? AgreementView : T extends ExportTask ? BuiltExport : CompareView;

/**
 * Runs a task on a workspace connection (the worker's own, or the engine's), on one snapshot of
 * the workspace: a task reads several tables statement by statement (the pool, its assignment, the
 * labels, the runs' scores), and a label another connection commits in between would otherwise be
 * in some of its reads and not in others.
 */
export function runComputeTask<T extends ComputeTask>(ws: Workspace, task: T, signal?: AbortSignal, state?: PoolState, onProgress?: ExportProgress): ComputeResult<T> {
  return ws.snapshot(() => runComputeTaskNow(ws, task, signal, state, onProgress));
}

/** `onProgress`: an export's stages (the other tasks report none). */
function runComputeTaskNow<T extends ComputeTask>(ws: Workspace, task: T, signal?: AbortSignal, state?: PoolState, onProgress?: ExportProgress): ComputeResult<T> {
  if (task.kind === 'agreement') {
    const o = { annotators: task.annotators, queries: task.queries, bootstrap: task.bootstrap, seed: task.seed, signal };
    return poolAgreement(ws, task.pool, o, state) as ComputeResult<T>;
  }
  if (task.kind === 'export') {
    // buildExport reads one snapshot of the workspace, though labels keep arriving meanwhile.
    const t = task as ExportTask;
    return buildExport(ws, t.pool, t.format, t.out, t.options, { signal, onProgress }) as ComputeResult<T>;
  }
  const { kind: _kind, pool, ...o } = task as CompareTask;
  return compareRunsFlagged(ws, pool, { ...o, signal }) as ComputeResult<T>;
}

/**
 * comparePoolRuns with each model run's overlap with the compared queries (`qpairs eval --compare` and
 * eval.compare): a model trained on some of them is flagged, as eval flags it, never shown as a clean figure.
 */
export function compareRunsFlagged(ws: Workspace, pool: string, o: Omit<PoolCompareOptions, 'overlapOf' | 'selectedOnOf'>): CompareView {
  return comparePoolRuns(ws, pool, {
    ...o,
    overlapOf: (run, queries) => runModelOverlap(ws, pool, run, queries),
    selectedOnOf: (run, queries) => (ws.runKinds(pool).some((r) => r.name === run && r.kind === 'model') ? runSelectedOn(ws, pool, run, queries) : undefined),
  });
}

/**
 * Fixed costs besides the resampling (measured like budget.ts's unit costs, on a cold JIT as in a
 * new worker): an agreement report reads the pool's labels and computes the point estimates and
 * the agreement-over-time curve, ~30 µs per pair of the pool; a comparison ranks every pair of the
 * pool once per run, ~3 µs per pair and run.
 */
const AGREEMENT_FIXED_NS_PER_PAIR = 30_000;
const COMPARE_FIXED_NS_PER_PAIR_RUN = 3_000;

/**
 * An agreement report's estimated time on one core in ms: its fixed part for `pairs` pairs and
 * the resampling of `annotators`' statistics (`bootstrap` resamples and the point estimate).
 * agreement.report and an export's datasheet both cost this.
 */
export function agreementMs(pairs: number, annotators: number, bootstrap: number): number {
  return (pairs * AGREEMENT_FIXED_NS_PER_PAIR + agreementWork(pairs, annotators, bootstrap) * AGREEMENT_NS_PER_UNIT) / 1e6;
}

export interface WorkEstimate {
  /** Estimated time on one core in ms (budget.ts units × their cost). */
  ms: number;
  /** A pool state loaded for the estimate (small pools), to reuse when the task runs inline. */
  state?: PoolState;
}

/**
 * A cheap upper estimate of a task's cost, from the pool's size (no labels are read for a large
 * pool). Throws NotFoundError for an unknown pool, so that answer needs no worker. Agreement:
 * every pair of the pool (of the chosen queries' share of it) counts as labeled; annotators as given, else (small pools only, where
 * the labels are cheap to read) the pool's annotators, else two. Comparison: every query of the
 * pool counts.
 */
export function estimateWork(ws: Workspace, task: ComputeTask, inlineLimitMs = Infinity): WorkEstimate {
  const info = ws.pool(task.pool);
  if (task.kind === 'agreement') {
    const bootstrap = task.bootstrap ?? DEFAULT_RESAMPLES;
    // A subset of the queries: its share of the pool's pairs.
    const pairs = task.queries && info.queries > 0 ? Math.min(info.pairs, Math.ceil((info.pairs * new Set(task.queries).size) / info.queries)) : info.pairs;
    const ms = (m: number): number => agreementMs(pairs, m, bootstrap);
    if (task.annotators?.length) return { ms: ms(task.annotators.length) };
    const rough = ms(2);
    if (rough > inlineLimitMs) return { ms: rough };
    const state = loadPoolState(ws, task.pool);
    return { ms: ms(Math.max(2, state.annotators.length)), state };
  }
  if (task.kind === 'export') {
    // The files, about as costly per pair as the agreement's fixed part, and the datasheet's
    // agreement (its pool's annotators, at most the work budget's resamples); when an earlier
    // export computed it or the pool has fewer than two annotators, only its fixed part.
    const bootstrap = task.options.bootstrap ?? DEFAULT_RESAMPLES;
    // Computed by an earlier export, or left for later (export.preview's first answer).
    const again = task.options.datasheetAgreement !== undefined || task.options.agreementLater === true;
    const files = (info.pairs * AGREEMENT_FIXED_NS_PER_PAIR) / 1e6;
    const ms = (m: number): number => files + (m >= 2 && !again ? agreementMs(info.pairs, m, bootstrap) : files);
    const rough = ms(2);
    if (rough > inlineLimitMs) return { ms: rough };
    return { ms: ms(loadPoolState(ws, task.pool).annotators.length) };
  }
  const r = task.runs.length;
  const runPairs = task.baseline !== undefined ? r - 1 : (r * (r - 1)) / 2;
  const units = compareWork(runPairs, info.queries, task.bootstrap ?? DEFAULT_RESAMPLES, task.permutations ?? DEFAULT_PERMUTATIONS);
  return { ms: (info.pairs * r * COMPARE_FIXED_NS_PER_PAIR_RUN + units * COMPARE_NS_PER_UNIT) / 1e6 };
}
