/**
 * Pure helpers of the Models screen (no DOM, unit-tested): model name validation (the contract's
 * rule, without importing zod), the live trace of a training job built from `train.progress`
 * events, and chart series of a trace or of a stored model's epoch history.
 */
import { describeCvFigures, MODEL_KINDS, MODEL_NAME_RE, preparingStep, type ModelInfoView, type TrainProgressEvent, type TrainProgressView } from '../../shared/models';
import type { Series } from '../components/LineChart';

export type ModelKind = (typeof MODEL_KINDS)[number];

/** One line per model kind, for the kind select. */
export const MODEL_HELP: Record<ModelKind, string> = {
  tfidf: 'TF-IDF cosine over word 1–3-grams (no training epochs: fits idf on the corpus)',
  skipgram: 'word2vec skip-gram embeddings trained on the corpus; cosine of weighted mean vectors',
  'bow-cnn': 'dos Santos et al. 2015: learned bag-of-words cosine plus a convolutional encoder',
  cnn: 'dos Santos et al. 2015: the convolutional encoder alone',
  lstm: 'Lei et al. 2016 encoder: LSTM over title and body, cosine, max-margin loss',
  gru: 'Lei et al. 2016 encoder: GRU over title and body, cosine, max-margin loss',
  rcnn: 'Lei et al. 2016 encoder: recurrent CNN over title and body, cosine, max-margin loss',
  ltr: "learning-to-rank fusion of the pool's runs and lexical/embedding features (linear RankNet)",
  fused: 'learning to rank over retrieval, lexical, embedding and metadata features (pairwise linear ranker or LambdaMART trees)',
  'mnet-fisher': 'Zhou et al. 2015: skip-gram with category metadata (M-NET), questions as Fisher vectors under a GMM; dot product',
  dae: 'denoising auto-encoder over the bag of words: cosine of the learned semantic codes (a feature for the fused ranker)',
  hnil: 'HNIL: LSTM text encoding joined with DeepWalk embeddings of the asker, category and answerers graph; needs askers and categories',
};

/**
 * Why a model name is not acceptable, or null when it is: letters, digits, . _ + -, starting with
 * a letter or digit, up to 100 characters (as the contract validates it).
 */
export function modelNameError(name: string): string | null {
  if (name === '') return 'enter a name';
  if (name.length > 100) return `too long (${name.length} characters, at most 100)`;
  if (!/^[A-Za-z0-9]/.test(name)) return 'must start with a letter or digit';
  const bad = [...new Set([...name].filter((ch) => !/[\w.+-]/.test(ch)))];
  if (bad.length) return `only letters, digits, . _ + - (not ${bad.map((c) => (c === ' ' ? 'space' : `“${c}”`)).join(', ')})`;
  return MODEL_NAME_RE.test(name) ? null : 'only letters, digits, . _ + -';
}

/** A free default name for a new model of a kind: "tfidf-1", "tfidf-2", … */
export function suggestModelName(kind: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  for (let i = 1; ; i++) {
    const n = `${kind}-${i}`;
    if (!used.has(n)) return n;
  }
}

/** An epoch of a training trace (main training or a pre-training phase). */
export interface TraceEpoch {
  epoch: number;
  loss: number;
  devMRR?: number;
  devMAP?: number;
}

/** What the Models screen knows of a training job from its `train.progress` events. */
export interface TrainTrace {
  name: string;
  last: TrainProgressView;
  /** Finished epochs of the main training, in order. */
  epochs: TraceEpoch[];
  /** Finished epochs of pre-training phases (skip-gram, encoder-decoder), by phase. */
  phases: Record<string, TraceEpoch[]>;
  /** Progress events seen. */
  events: number;
  /** The stages in the order they started: pre-training phases by name, '' for the training itself. */
  stages?: string[];
  /** The overall fraction shown so far (never goes back). */
  shown?: number;
  /** When the first progress event arrived (ms, Date.now), for the wall time. */
  firstAt?: number;
}

const finite = (x: number | undefined): x is number => typeof x === 'number' && Number.isFinite(x);

function putEpoch(list: readonly TraceEpoch[], e: TraceEpoch): TraceEpoch[] {
  const out = list.filter((x) => x.epoch !== e.epoch);
  out.push(e);
  return out.sort((a, b) => a.epoch - b.epoch);
}

/** The trace after one more progress event (an epoch ends when step = steps). */
export function applyTrainProgress(trace: TrainTrace | null, ev: TrainProgressEvent): TrainTrace {
  const p = ev.progress;
  const t: TrainTrace = trace ?? { name: ev.name, last: p, epochs: [], phases: {}, events: 0 };
  const next: TrainTrace = { ...t, name: ev.name, last: p, events: t.events + 1 };
  next.firstAt = t.firstAt ?? Date.now();
  if (preparingStep(p) !== null) return next; // no stage of the bar, nothing counted yet
  const stage = p.phase ?? '';
  const stages = t.stages ?? [];
  next.stages = stages.includes(stage) ? stages : [...stages, stage];
  next.shown = Math.max(t.shown ?? 0, overallFraction(next.stages, p));
  if (p.steps > 0 && p.step >= p.steps && finite(p.loss)) {
    const e: TraceEpoch = { epoch: p.epoch, loss: p.loss };
    if (p.phase) {
      next.phases = { ...t.phases, [p.phase]: putEpoch(t.phases[p.phase] ?? [], e) };
    } else {
      if (finite(p.devMRR)) e.devMRR = p.devMRR;
      if (finite(p.devMAP)) e.devMAP = p.devMAP;
      next.epochs = putEpoch(t.epochs, e);
    }
  }
  return next;
}

/** Fraction done (0…1) of the current stage: the training, or the pre-training phase under way. */
export function trainFraction(p: TrainProgressView | null | undefined): number {
  if (!p || p.epochs <= 0) return 0;
  const inEpoch = p.steps > 0 ? Math.min(1, p.step / p.steps) : 0;
  return Math.max(0, Math.min(1, (p.epoch - 1 + inEpoch) / p.epochs));
}

/** Share of the whole bar given to pre-training phases, when a model has any. */
export const PRETRAIN_SHARE = 0.3;

/**
 * Fraction done (0…1) of the whole job: pre-training phases share the first 30% of the bar in
 * the order they start, the training the rest; without pre-training the training fills it all.
 * (The trace keeps the maximum shown, so the bar never goes back when a new phase starts.)
 */
export function overallFraction(stages: readonly string[], p: TrainProgressView | null | undefined): number {
  if (!p) return 0;
  const f = trainFraction(p);
  const pre = stages.filter((s) => s !== '');
  if (pre.length === 0) return f;
  if (!p.phase) return PRETRAIN_SHARE + (1 - PRETRAIN_SHARE) * f;
  const i = Math.max(0, pre.indexOf(p.phase));
  const band = PRETRAIN_SHARE / pre.length;
  return Math.min(PRETRAIN_SHARE, band * (i + f));
}

/** The bar's fraction for a trace: monotonic across phases. */
export function traceFraction(t: TrainTrace | null | undefined): number {
  if (!t) return 0;
  return Math.max(t.shown ?? 0, overallFraction(t.stages ?? [t.last.phase ?? ''], t.last));
}

/** Whether the trace's last event ended the last epoch (the engine then scores the pools). */
export function trainingFinished(t: TrainTrace | null | undefined): boolean {
  const p = t?.last;
  return !!p && !p.phase && p.epoch >= p.epochs && p.steps > 0 && p.step >= p.steps;
}

/**
 * Whether a train job is scoring the pools with its stored model: the engine says so (job.progress phase
 * 'scoring'), or the trace's last event ended the last epoch. Cancel no longer applies then: the pools
 * are scored to the end and the job ends "done".
 */
export function trainJobScoring(job: { progress: { phase?: 'scoring' } | null; done: unknown; trace: TrainTrace | null | undefined }): boolean {
  return !job.done && (job.progress?.phase === 'scoring' || trainingFinished(job.trace));
}

/** One line of the status under the progress bar. */
export function describeProgress(p: TrainProgressView): string {
  const preparing = preparingStep(p);
  if (preparing !== null) return `${preparing}…`;
  const parts = [p.phase ? `${p.phase}: epoch ${p.epoch}/${p.epochs}` : `epoch ${p.epoch}/${p.epochs}`];
  if (p.steps > 0) parts.push(`step ${p.step}/${p.steps}`);
  if (finite(p.loss)) parts.push(`loss ${p.loss.toFixed(4)}`);
  if (finite(p.devMRR)) parts.push(`dev MRR ${(p.devMRR * 100).toFixed(2)}`);
  if (finite(p.devMAP)) parts.push(`dev MAP ${(p.devMAP * 100).toFixed(2)}`);
  return parts.join(' · ');
}

export interface TrainCharts {
  /** Training loss per epoch, with the running epoch's mean so far as a last point. */
  loss: Series[];
  /** Dev MRR and MAP per finished epoch (none when there is no dev pool). */
  dev: Series[];
  /** Loss per epoch of each pre-training phase (its own scale and epochs; none when there is no such phase). */
  pretrain: Series[];
}

export const LOSS = 'loss';
export const DEV_MRR = 'dev MRR';
export const DEV_MAP = 'dev MAP';

/** Chart series of a live trace. */
export function traceSeries(t: TrainTrace | null | undefined): TrainCharts {
  if (!t) return { loss: [], dev: [], pretrain: [] };
  const loss: Array<[number, number]> = t.epochs.map((e) => [e.epoch, e.loss]);
  const p = t.last;
  // The running epoch: its mean loss so far, at its fraction of the epoch.
  if (!p.phase && p.steps > 0 && p.step < p.steps && finite(p.loss) && p.step > 0 && !t.epochs.some((e) => e.epoch === p.epoch)) {
    loss.push([p.epoch - 1 + p.step / p.steps, p.loss]);
  }
  const pretrain: Series[] = Object.entries(t.phases).map(([phase, eps]) => ({ name: phase, points: eps.map((e) => [e.epoch, e.loss] as [number, number]) }));
  // The running pre-training epoch, likewise.
  if (p.phase && p.steps > 0 && p.step > 0 && p.step < p.steps && finite(p.loss)) {
    let s = pretrain.find((x) => x.name === p.phase);
    if (!s) pretrain.push((s = { name: p.phase, points: [] }));
    if (!s.points.some((pt) => pt[0] === p.epoch)) s.points.push([p.epoch - 1 + p.step / p.steps, p.loss]);
  }
  return { loss: [{ name: LOSS, points: loss }], dev: devSeries(t.epochs), pretrain };
}

/**
 * Dev MRR and MAP per epoch in percent (82.33, as the progress line, the models table and every other
 * metric chart give them; the trainers report fractions, which the chart showed as 0.823).
 */
function devSeries(epochs: ReadonlyArray<{ epoch: number; devMRR?: number; devMAP?: number }>): Series[] {
  const mrr = epochs.filter((e) => finite(e.devMRR)).map((e) => [e.epoch, 100 * e.devMRR!] as [number, number]);
  const map = epochs.filter((e) => finite(e.devMAP)).map((e) => [e.epoch, 100 * e.devMAP!] as [number, number]);
  return mrr.length || map.length
    ? [
        { name: DEV_MRR, points: mrr },
        { name: DEV_MAP, points: map },
      ]
    : [];
}

/** Chart series of a stored model's report history. */
export function historySeries(history: ModelInfoView['report']['history']): TrainCharts {
  return {
    loss: [{ name: LOSS, points: history.filter((h) => finite(h.loss)).map((h) => [h.epoch, h.loss] as [number, number]) }],
    dev: devSeries(history),
    pretrain: [],
  };
}

/**
 * The top of a loss chart's y axis: the largest loss rounded up to 1, 2, 2.5 or 5 times a power
 * of ten (1 when there is no positive loss, e.g. tfidf's 0).
 */
export function lossYMax(series: readonly Series[]): number {
  const ys = series.flatMap((s) => s.points.map((p) => p[1])).filter((y) => Number.isFinite(y));
  const max = ys.length ? Math.max(...ys) : 0;
  if (!(max > 0)) return 1;
  const mag = 10 ** Math.floor(Math.log10(max));
  const m = [1, 2, 2.5, 5, 10].find((k) => k * mag >= max * (1 - 1e-12)) ?? 10;
  return Number((m * mag).toPrecision(12));
}

/** Tick labels of a y axis ending at yMax: enough decimals to tell ticks apart. */
export function tickDigits(yMax: number): number {
  if (!(yMax > 0)) return 1;
  return Math.max(1, Math.min(6, 1 - Math.floor(Math.log10(yMax))));
}

/** "dev pool P; trained on A, B (214+ / 286−)" — what a model was trained on, in one line. */
export function describeTraining(t: ModelInfoView['training']): string {
  const on = t.trainPools === null ? '—' : t.trainPools.length ? t.trainPools.join(', ') : 'user-marked duplicates';
  const count = (n: number | null): string => (n === null ? '—' : n.toLocaleString('en-US'));
  return `${on} (${count(t.positives)} positive, ${count(t.negatives)} negative pairs)`;
}

/**
 * The Models table's CV figure, as `qpairs train` and `qpairs models list` give it: MAP and MRR with
 * their 95% CIs and how many distinct questions the figure scores ("grouped CV MAP 70.55 (95% CI
 * 64.86–76.23), MRR 80.09 (95% CI 73.73–86.44): 5 folds × 1 repeat, each of 117 distinct questions
 * scored once (170 labeled training queries)"). It said only "grouped CV MAP 70.55 (5 folds × 1)".
 */
export function describeCv(cv: NonNullable<ModelInfoView['training']['cv']>): string {
  const scored = cv.scoredQuestions ?? cv.clusters;
  const queries = cv.queries !== undefined ? ` (${cv.queries.toLocaleString('en-US')} labeled training quer${cv.queries === 1 ? 'y' : 'ies'})` : '';
  return `${describeCvFigures(cv)}, each of ${scored.toLocaleString('en-US')} distinct question${scored === 1 ? '' : 's'} scored once${queries}`;
}

/** A readable throughput: "7,667 docs/s", "29 pairs/s", "0.53 pairs/s". */
export function fmtRate(x: number | null, unit: string): string {
  if (x === null || !Number.isFinite(x) || x < 0) return '—';
  const n = x >= 100 ? Math.round(x).toLocaleString('en-US') : x >= 10 ? x.toFixed(1) : x.toFixed(2);
  return `${n} ${unit || 'examples'}/s`;
}

/** Seconds for a table cell: "0.1 s", "25.3 s", "2 min 05 s". */
export function fmtSeconds(s: number | null): string {
  if (s === null || !Number.isFinite(s) || s < 0) return '—';
  if (s < 60) return `${s < 10 ? s.toFixed(1) : Math.round(s)} s`;
  const r = Math.round(s);
  return `${Math.floor(r / 60)} min ${String(r % 60).padStart(2, '0')} s`;
}

/**
 * The Models form's settings box, read: empty = the model's defaults (undefined); otherwise a JSON
 * object of the kind's settings. Unknown keys are caught here, as the engine would refuse them
 * (its check also covers types and nested settings); `error` says what to fix.
 */
export function parseModelSettings(text: string, settings: Record<string, unknown> | undefined): { config?: Record<string, unknown>; error: string | null } {
  if (text.trim() === '') return { error: null };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { error: `not JSON: ${(e as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    // An example of this model's own (tfidf has no "epochs"): its first numeric setting at its default.
    const ex = Object.entries(settings ?? {}).find(([k, v]) => typeof v === 'number' && k !== 'seed');
    return { error: `a JSON object of settings, e.g. ${ex ? `{"${ex[0]}": ${JSON.stringify(ex[1])}}` : '{}'}` };
  }
  const config = value as Record<string, unknown>;
  const unknown = settings ? Object.keys(config).filter((k) => !Object.hasOwn(settings, k)) : [];
  if (unknown.length) return { error: `no setting ${unknown.map((k) => `“${k}”`).join(', ')} for this model (see its settings below)` };
  return { config, error: null };
}

