/**
 * Runs that carry a blind pool's labels, which an annotator is never shown (access.ts): a stored
 * model's run is trained on blind labels when one of its training or dev pools was blind when the
 * model read its labels (and has not been opened since: learnedBlindLabels), or when it took as a
 * feature the run of a model that was (its labelPools keep its label-reading features' pools since
 * they were recorded; featureModels, followed to the end, for records from before); a live run when its own
 * pool is blind, when its training pools include a blind pool or one no longer there, when its last
 * retrain learned blind labels (liveRunsLearnedBlindLabels), or when its pool holds such a model's
 * run (the live fused ranker takes the pool's runs as features). Every
 * train scores every pool, so without this the scores of a model trained on others' blind labels
 * would reach annotators of an open pool sharing pairs with the blind one — ranks and all.
 * Judges and owners see every label already (review, exports): nothing is hidden from them.
 */
import type { Workspace } from '../workspace/workspace';
import { readLiveSetting } from '../training/live-store';
import type { LabelPoolRecord } from '../training/label-pools';

/** Per workspace: the last set worked out, with the change count (migration 16) it was read at. */
const kept = new WeakMap<Workspace, { count: number; tainted: ReadonlySet<string> }>();

/**
 * The stored models trained (directly or through a feature run) on blind labels. Every
 * model's training record is read only when a model or a pool's name or blind flag changed, or a
 * pool was made or deleted, since the last call (change_counts' 'run_visibility', kept by triggers
 * for every writer; a pool's id and creation time, which learnedBlindLabels also reads, never change); inside a
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

/** A pool as it is now, for learnedBlindLabels. */
interface PoolNow {
  id: number;
  name: string;
  created: string;
  blind: number;
}

/** The parts of a model's training record (training/store.ts TrainingInfo) that say whose labels it learned. */
interface LabelsRead {
  trainPools?: string[];
  devPool?: string | null;
  labelPools?: LabelPoolRecord[];
  featureModels?: Array<{ run: string }>;
}

/**
 * Whether a model learned blind labels, by its training record. Each pool it read labels from
 * (training pools, dev pool) counts as it was then (labelPools: which pool, blind or not), unless that
 * same pool is still there: then as it is now, for its owner may have opened it since (its labels
 * are then anyone's to see) or made it blind (the labels the model learned, shown before, are not
 * to be shown now). A pool gone since (deleted, or made by an import undone) or replaced by another
 * under its name still counts as it was: the model learned its labels all the same.
 * Records from before labelPools name the pools alone: a pool of that name counts as it is now, and
 * a name with no pool counts as blind, the safe direction (pools are blind unless made open, and an
 * import's pools are blind by default).
 */
function learnedBlindLabels(t: LabelsRead, now: PoolsNow): boolean {
  if (t.labelPools) {
    return t.labelPools.some((then) => {
      const pool = now.byId.get(then.id);
      return pool && pool.created === then.created ? pool.blind === 1 : then.blind;
    });
  }
  return [...(t.trainPools ?? []), ...(t.devPool ? [t.devPool] : [])].some((name) => (now.byName.get(name)?.blind ?? 1) === 1);
}

interface PoolsNow {
  byId: ReadonlyMap<number, PoolNow>;
  byName: ReadonlyMap<string, PoolNow>;
}

function readPoolsNow(ws: Workspace): PoolsNow {
  const pools = ws.stmt(`SELECT id, name, created, blind FROM pools`).all() as PoolNow[];
  return { byId: new Map(pools.map((p) => [p.id, p])), byName: new Map(pools.map((p) => [p.name, p])) };
}

function readModelsTrainedOnBlindLabels(ws: Workspace): Set<string> {
  const now = readPoolsNow(ws);
  const rows = ws.stmt(`SELECT name, training FROM models`).all() as Array<{ name: string; training: string }>;
  const models = rows.map((r) => {
    const t = JSON.parse(r.training) as LabelsRead;
    return { name: r.name, blind: learnedBlindLabels(t, now), features: (t.featureModels ?? []).map((f) => f.run) };
  });
  const tainted = new Set(models.filter((m) => m.blind).map((m) => m.name));
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
  const live = runs.filter((r) => r.kind === 'live').map((r) => r.name);
  if (live.length > 0 && (liveOnBlindLabels(ws, p.name, p.blind, hidden.size > 0) || liveRunsLearnedBlindLabels(ws, p.name, live))) {
    for (const r of live) hidden.add(r);
  }
  return hidden;
}

/**
 * Whether one of the pool's live runs learned blind labels, by the pools its retrain recorded
 * (run config labelPools, counted as learnedBlindLabels counts a model's): the pool's live setting
 * says what the next retrain learns, not what the stored runs learned — a training pool taken out of
 * the setting, gone or replaced under its name since is still in them until they are retrained.
 * Live runs stored before the record go by the setting alone (liveOnBlindLabels). One hides them
 * all: the live fused ranker may take another live run as a feature.
 */
function liveRunsLearnedBlindLabels(ws: Workspace, pool: string, live: readonly string[]): boolean {
  const recorded = live.map((r) => ws.runConfig(pool, r)?.labelPools).filter((x): x is LabelPoolRecord[] => Array.isArray(x));
  if (recorded.length === 0) return false;
  const now = readPoolsNow(ws);
  return recorded.some((labelPools) => learnedBlindLabels({ labelPools }, now));
}

/**
 * Whether the pool's live models learn from a blind pool's labels (its own, its training pools', or a
 * hidden feature run's). A training pool no longer there counts as blind: the live runs keep what they
 * learned from its labels until they are retrained.
 */
export function liveOnBlindLabels(ws: Workspace, pool: string, blind = ws.findPoolSettings(pool)?.blind ?? false, hiddenFeature = false): boolean {
  if (blind || hiddenFeature) return true;
  return readLiveSetting(ws, pool).trainPools.some((t) => ws.findPoolSettings(t)?.blind !== false);
}
