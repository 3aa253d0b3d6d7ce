/**
 * The pools whose labels a model read (its training pools and its dev pool), recorded with the model
 * as they were when it was trained (TrainingInfo.labelPools), and those a live retrain read (the live
 * pool and its training pools: the live runs' config labelPools): which pool each was and whether it
 * was blind. Whether an annotator may see the model's runs (engine/run-visibility.ts) goes by what the
 * model learned, not by the pools named so today: an undone import or a deletion takes a blind pool
 * away but not what the model learned from its labels, and a new open pool under its name holds other
 * labels.
 */
import type { Workspace } from '../workspace/workspace';

/** A pool a model read labels from, as it was at training time. */
export interface LabelPoolRecord {
  name: string;
  /** The pool's row id and creation time together say which pool it was: a name, and an id, can be reused by a later pool. */
  id: number;
  created: string;
  blind: boolean;
}

/** The named pools as they are now (a name with no pool is left out: training refuses it before). */
export function labelPoolRecords(ws: Workspace, names: readonly string[]): LabelPoolRecord[] {
  const read = ws.stmt(`SELECT id, created, blind FROM pools WHERE name = ?`);
  return [...new Set(names)].flatMap((name) => {
    const r = read.get(name) as { id: number; created: string; blind: number } | undefined;
    return r ? [{ name, id: r.id, created: r.created, blind: r.blind === 1 }] : [];
  });
}

/**
 * The pools whose labels a stored model learned, its label-reading feature models' included (a fusing
 * model's scores carry theirs): its record's labelPools (which holds its own features' already), or for
 * a record from before them, its training and dev pools as they are now and its feature models' in
 * turn, a name with no pool recorded as a blind pool no pool is (the safe direction: run-visibility.ts).
 */
export function modelLabelPools(ws: Workspace, model: string, seen: Set<string> = new Set()): LabelPoolRecord[] {
  if (seen.has(model)) return [];
  seen.add(model);
  const json = ws.stmt(`SELECT training FROM models WHERE name = ?`).pluck().get(model) as string | undefined;
  if (json === undefined) return [];
  const t = JSON.parse(json) as { trainPools?: string[]; devPool?: string | null; labelPools?: LabelPoolRecord[]; featureModels?: Array<{ run: string }> };
  if (t.labelPools) return t.labelPools;
  const names = [...(t.trainPools ?? []), ...(t.devPool ? [t.devPool] : [])];
  const found = labelPoolRecords(ws, names);
  const gone = names.filter((n) => !found.some((r) => r.name === n)).map((name) => ({ name, id: 0, created: '', blind: true }));
  return [...found, ...gone, ...(t.featureModels ?? []).flatMap((f) => modelLabelPools(ws, f.run, seen))];
}

/** The records without repeats (the same pool, as blind or not, once). */
export function distinctLabelPools(records: readonly LabelPoolRecord[]): LabelPoolRecord[] {
  const byKey = new Map(records.map((r) => [`${r.id}\u0000${r.created}\u0000${r.name}\u0000${r.blind}`, r]));
  return [...byKey.values()];
}

/**
 * The pools whose labels the models of the named pools' model runs learned (modelLabelPools): what a
 * live ltr or fused ranker, which takes the pool's runs as features, learns through them.
 */
export function poolModelsLabelPools(ws: Workspace, pools: readonly string[]): LabelPoolRecord[] {
  const models = new Set<string>();
  for (const pool of pools) {
    if (ws.findPoolId(pool) === null) continue;
    for (const r of ws.runKinds(pool)) {
      if (r.kind !== 'model') continue;
      const model = ws.runConfig(pool, r.name)?.model;
      models.add(typeof model === 'string' ? model : r.name);
    }
  }
  return [...models].flatMap((m) => modelLabelPools(ws, m));
}
