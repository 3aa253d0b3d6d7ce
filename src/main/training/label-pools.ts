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
