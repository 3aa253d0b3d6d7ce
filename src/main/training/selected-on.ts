/**
 * Whether a model's run in a pool was chosen on that pool's evaluated queries (shared/selected-on.ts):
 * - the dev figures chose among two or more versions (epochs, or mnet-fisher's K: report.history holds
 *   a dev figure for each) and some evaluated queries are the dev queries that gave them
 *   (training.selectedOnQueries, in whatever pool holds them now): the same id, or the same question
 *   under another id — the same normalised text or a near-duplicate (Jaccard >= NEAR_DUPLICATE_JACCARD,
 *   src/main/overlap) of a dev query's text as the workspace holds it now (a dev question deleted since
 *   matches by id only) — a single dev figure (tfidf,
 *   one epoch) is only reported, it chose nothing. Records from before selectedOnQueries match the dev
 *   pool by name, all they kept (a pool deleted and made again under that name is taken for it);
 * - likewise early stopping's held-out training queries, without a dev pool or --cv ('holdout'): the
 *   trained-on mark does not cover them (not trained on), yet the version kept (epoch, mnet-fisher's K) scored best on them.
 *   Models stored before selectedOnQueries are not flagged for them (which were held out was not kept);
 * - cross-validation chose its epoch count (training.cv.selectedEpochs) and some evaluated queries are
 *   ranked by its out-of-fold scores (those queries' held-out figures set the count);
 * - the same holds for a model whose run it fuses as a feature (ltr, fused: its scores carry them).
 */
import type { SelectedOn } from '../../shared/selected-on';
import { findOverlap, type OverlapItem } from '../overlap';
import { itemsKey, questionItem, WorkspaceMemo } from './overlap-memo';
import type { Workspace } from '../workspace/workspace';
import { savedModelMeta } from './store';

interface ModelRecord {
  kind: string;
  training: { devPool?: string | null; selectedOnQueries?: string[]; cv?: { selectedEpochs?: number | null } };
  report: { history?: Array<{ devMRR?: number }> };
}

function modelRecord(ws: Workspace, name: string): ModelRecord | null {
  const r = ws.stmt(`SELECT kind, report, training FROM models WHERE name = ?`).get(name) as { kind: string; report: string; training: string } | undefined;
  // A record of another shape (a damaged row, another program's) reads as one that recorded nothing.
  const record = (json: string): Record<string, unknown> => {
    const v: unknown = JSON.parse(json);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  };
  return r ? { kind: r.kind, training: record(r.training), report: record(r.report) } : null;
}

function ownSelection(ws: Workspace, pool: string, m: ModelRecord, model: string, evaluated: readonly string[]): SelectedOn['by'] | null {
  const devFigures = Array.isArray(m.report.history) ? m.report.history.filter((h) => h?.devMRR !== undefined).length : 0;
  if (devFigures > 1 && choseOn(ws, m, pool, evaluated)) return m.training.devPool ? 'dev' : 'holdout';
  if (m.training.cv?.selectedEpochs != null) {
    const oof = ws.outOfFoldQueries(pool, model);
    if (evaluated.some((id) => oof.has(id))) return 'cv';
  }
  return null;
}

/** Whether the dev figures were measured on some of these queries of the pool (see above). */
function choseOn(ws: Workspace, m: ModelRecord, pool: string, evaluated: readonly string[]): boolean {
  const ids = Array.isArray(m.training.selectedOnQueries) ? m.training.selectedOnQueries : undefined;
  if (!ids) return !!m.training.devPool && m.training.devPool === pool;
  const chose = new Set(ids);
  return evaluated.some((id) => chose.has(id)) || sameQuestionAsAny(ws, ids, evaluated);
}

const nearSame = new WorkspaceMemo<boolean>();

/** Whether some evaluated query is one of `chose` under another id: the same or a near-duplicate text (findOverlap), as the texts are now. */
function sameQuestionAsAny(ws: Workspace, chose: readonly string[], evaluated: readonly string[]): boolean {
  const items = (ids: readonly string[]): OverlapItem[] => ids.flatMap((id) => questionItem(ws, id) ?? []);
  const dev = items(chose);
  const evals = items(evaluated);
  return nearSame.get(ws, `${itemsKey(dev)}\u0001${itemsKey(evals)}`, () => findOverlap(dev, evals).length > 0);
}

/** The model (the run's own, else a feature run's, depth first) chosen on these queries of the pool; undefined when none was. */
export function runSelectedOn(ws: Workspace, pool: string, run: string, evaluated: readonly string[], seen: Set<string> = new Set()): SelectedOn | undefined {
  if (seen.has(run)) return undefined;
  seen.add(run);
  const m = modelRecord(ws, run);
  if (!m) return undefined;
  const by = ownSelection(ws, pool, m, run, evaluated);
  if (by) return { by, model: run };
  // Only the fusing models take runs as features (their meta, read from the model's header, names them).
  if (m.kind !== 'ltr' && m.kind !== 'fused') return undefined;
  const features = savedModelMeta(ws, run)?.runNames;
  if (!Array.isArray(features)) return undefined;
  for (const f of new Set(features as string[])) {
    if (typeof f !== 'string' || f === run) continue;
    const s = runSelectedOn(ws, pool, f, evaluated, seen);
    if (s) return s;
  }
  return undefined;
}
