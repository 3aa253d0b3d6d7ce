/**
 * Runs that carry a blind pool's labels, which an annotator is never shown (access.ts): a stored
 * model's run is trained on labels when its training or dev pools include a blind pool, or when it
 * took as a feature the run of a model that was (featureModels, followed to the end); a live run
 * when its own pool is blind, when its training pools include a blind pool, or when its pool holds
 * such a model's run (the live fused ranker takes the pool's runs as features). Every train scores
 * every pool, so without this the scores of a model trained on others' blind labels would reach
 * annotators of an open pool sharing pairs with the blind one — ranks and all.
 * Judges and owners see every label already (review, exports): nothing is hidden from them.
 */
import type { Workspace } from '../workspace/workspace';
import { readLiveSetting } from '../training/live-store';

/** Per workspace: the last set worked out, with the change count (migration 16) it was read at. */
const kept = new WeakMap<Workspace, { count: number; tainted: ReadonlySet<string> }>();

/**
 * The stored models trained (directly or through a feature run) on a pool that is blind now. Every
 * model's training record is read only when a model or a pool's name or blind flag changed since
 * the last call (change_counts' 'run_visibility', kept by triggers for every writer); inside a
 * transaction, which may yet roll the count back, it is worked out afresh and not kept.
 */
export function modelsTrainedOnBlindLabels(ws: Workspace): ReadonlySet<string> {
  const count = (ws.stmt(`SELECT n FROM change_counts WHERE what = 'run_visibility'`).get() as { n: number }).n;
  const last = kept.get(ws);
  if (last && last.count === count && !ws.db.inTransaction) return last.tainted;
  const tainted = readModelsTrainedOnBlindLabels(ws);
  if (!ws.db.inTransaction) kept.set(ws, { count, tainted });
  return tainted;
}

function readModelsTrainedOnBlindLabels(ws: Workspace): Set<string> {
  const blind = new Set(ws.stmt(`SELECT name FROM pools WHERE blind = 1`).all().map((r) => (r as { name: string }).name));
  const rows = ws.stmt(`SELECT name, training FROM models`).all() as Array<{ name: string; training: string }>;
  const models = rows.map((r) => {
    const t = JSON.parse(r.training) as { trainPools?: string[]; devPool?: string | null; featureModels?: Array<{ run: string }> };
    return { name: r.name, pools: [...(t.trainPools ?? []), ...(t.devPool ? [t.devPool] : [])], features: (t.featureModels ?? []).map((f) => f.run) };
  });
  const tainted = new Set(models.filter((m) => m.pools.some((p) => blind.has(p))).map((m) => m.name));
  for (let grew = true; grew; ) {
    grew = false;
    for (const m of models) {
      if (!tainted.has(m.name) && m.features.some((f) => tainted.has(f))) {
        tainted.add(m.name);
        grew = true;
      }
    }
  }
  return tainted;
}

/** The names of the pool's runs that carry a blind pool's labels (see above); `tainted` from modelsTrainedOnBlindLabels. */
export function runsOnBlindLabels(ws: Workspace, pool: string, tainted: ReadonlySet<string> = modelsTrainedOnBlindLabels(ws)): Set<string> {
  const p = ws.findPoolSettings(pool);
  if (!p) return new Set();
  const runs = ws.runKinds(p.name);
  const hidden = new Set<string>();
  for (const r of runs) {
    if (r.kind !== 'model') continue;
    const model = ws.runConfig(p.name, r.name)?.model;
    if (tainted.has(typeof model === 'string' ? model : r.name)) hidden.add(r.name);
  }
  if (runs.some((r) => r.kind === 'live') && liveOnBlindLabels(ws, p.name, p.blind, hidden.size > 0)) {
    for (const r of runs) if (r.kind === 'live') hidden.add(r.name);
  }
  return hidden;
}

/** Whether the pool's live models learn from a blind pool's labels (its own, its training pools', or a hidden feature run's). */
export function liveOnBlindLabels(ws: Workspace, pool: string, blind = ws.findPoolSettings(pool)?.blind ?? false, hiddenFeature = false): boolean {
  if (blind || hiddenFeature) return true;
  return readLiveSetting(ws, pool).trainPools.some((t) => ws.findPoolSettings(t)?.blind === true);
}
