/**
 * A stored model's report and training record as the Models screen can draw them (models.list). A
 * row damaged, or written by another program, may lack fields or hold them in another shape: the
 * screen could not draw it ("Cannot read properties of undefined (reading 'length')" for a row whose
 * report and training are `{}`). What is there and of the right shape is passed on; a figure that is
 * not is null (the screen shows "—"), the epoch history empty, the training pools null, and an
 * optional part of the wrong shape left out.
 */
import type { ModelInfoView } from '../../shared/models';

type Fields = Record<string, unknown>;

const fields = (v: unknown): Fields => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Fields) : {});
const figure = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const text = (v: unknown): string => (typeof v === 'string' ? v : '');
const isFields = (v: unknown): boolean => v !== null && typeof v === 'object' && !Array.isArray(v);
const listOf = (v: unknown, item: (x: unknown) => boolean): boolean => Array.isArray(v) && v.every(item);
const hasNumbers = (v: unknown, keys: string[]): boolean => isFields(v) && keys.every((k) => typeof (v as Fields)[k] === 'number');

/** Optional parts of a training record, each kept only in the shape the screen reads. */
const OPTIONAL_SHAPES: Record<string, (v: unknown) => boolean> = {
  config: isFields,
  overlap: (v) => hasNumbers(v, ['overlapping', 'dropped']),
  cv: (v) => hasNumbers(v, ['folds', 'repeats', 'clusters', 'MAP', 'MRR']) && isFields((v as Fields).ci),
  earlyStopping: (v) => isFields(v) && typeof (v as Fields).note === 'string',
  inSampleRunsLeftOut: (v) => listOf(v, (r) => isFields(r) && typeof (r as Fields).run === 'string'),
  importance: (v) => listOf(v, (r) => hasNumbers(r, ['importance']) && typeof (r as Fields).feature === 'string'),
};

/** A stored report as models.list gives it. */
export function reportView(stored: unknown): ModelInfoView['report'] {
  const r = fields(stored);
  return {
    ...r,
    backend: text(r.backend),
    exampleUnit: text(r.exampleUnit),
    epochs: figure(r.epochs),
    bestEpoch: figure(r.bestEpoch),
    examplesPerSecond: figure(r.examplesPerSecond),
    seconds: figure(r.seconds),
    ...(figure(r.bestDevMRR) === null ? { bestDevMRR: undefined } : {}),
    ...(figure(r.bestDevMAP) === null ? { bestDevMAP: undefined } : {}),
    history: Array.isArray(r.history) ? (r.history.filter((h) => hasNumbers(h, ['epoch'])) as ModelInfoView['report']['history']) : [],
  };
}

/** A stored training record as models.list gives it. */
export function trainingView(stored: unknown): ModelInfoView['training'] {
  const t = { ...fields(stored) };
  for (const [key, shaped] of Object.entries(OPTIONAL_SHAPES)) if (key in t && !shaped(t[key])) delete t[key];
  const devPool = t.devPool === null || typeof t.devPool === 'string' ? { devPool: t.devPool } : {};
  if (!('devPool' in devPool)) delete t.devPool;
  return {
    ...t,
    ...devPool,
    trainPools: listOf(t.trainPools, (p) => typeof p === 'string') ? (t.trainPools as string[]) : null,
    epochs: figure(t.epochs),
    seed: figure(t.seed),
    positives: figure(t.positives),
    negatives: figure(t.negatives),
    questions: figure(t.questions),
  };
}
