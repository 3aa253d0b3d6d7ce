/**
 * The overlap check between the training pools and the dev pool, before training.
 *
 * A training query overlaps the dev pool when a labeled dev query has the same id, the same
 * normalised text or a near-duplicate text (Jaccard ≥ NEAR_DUPLICATE_JACCARD; src/main/overlap).
 * A (query, candidate) pair overlaps when its query overlaps a dev query and its candidate is the
 * same question (same id, text or near-duplicate) as a candidate of that dev query. By default
 * overlapping training queries are dropped (their pairs leave the labeled data; their text stays
 * unlabeled text), so the dev figures are held out; `keepOverlap` keeps them and says so.
 */
import { QPairsError } from '../errors';
import { findOverlap, NEAR_DUPLICATE_JACCARD, type OverlapItem, type OverlapReason } from '../overlap';
import type { Workspace } from '../workspace/workspace';
import { poolGrades, type TrainingQuery } from './data';

/** What the check found (stored with the model as TrainingInfo.overlap). */
export interface DevOverlap {
  devPool: string;
  /** Labeled dev queries. */
  devQueries: number;
  /** Labeled training queries before the check. */
  trainingQueries: number;
  /** Training queries that are dev queries (same id, text or near-duplicate), by reason. */
  overlapping: number;
  reasons: Record<OverlapReason, number>;
  /** Dev queries that training holds. */
  devQueriesInTraining: number;
  /** Labeled dev pairs that are training pairs, and how many of those carry the same grade. */
  pairs: { overlapping: number; of: number; sameLabel: number };
  /** Overlapping training queries dropped (0 with keepOverlap). */
  dropped: number;
  kept: boolean;
  /** Jaccard threshold of "near-duplicate". */
  threshold: number;
}

/**
 * How the person training keeps overlapping queries, as their tool names it: the CLI's flag, or the
 * Models screen's checkbox (a browser user cannot "give --keep-overlap").
 */
export type KeepOverlapControl = 'cli' | 'app';
const KEEP_BOX = '“Keep training queries that are dev queries”';

export function describeDevOverlap(o: DevOverlap, control: KeepOverlapControl = 'cli'): string {
  if (o.overlapping === 0) return `overlap check: none of the ${o.trainingQueries} training queries is in dev pool "${o.devPool}"`;
  const why = (Object.entries(o.reasons) as Array<[OverlapReason, number]>)
    .filter(([, n]) => n > 0)
    .map(([r, n]) => `${n} ${r}`)
    .join(', ');
  const what =
    `${o.overlapping} of the ${o.trainingQueries} training queries are ${o.devQueriesInTraining} of the ${o.devQueries} queries of dev pool "${o.devPool}" (${why}; ` +
    `${o.pairs.overlapping} of the dev pool's ${o.pairs.of} labeled pairs are training pairs, ${o.pairs.sameLabel} with the same label)`;
  const keep = control === 'app' ? KEEP_BOX : '--keep-overlap';
  return o.kept
    ? `overlap check: ${what}; kept (${keep}): the dev figures are not held out`
    : `overlap check: ${what}; dropped them from training (${keep} keeps them)`;
}

function item(ws: Workspace, id: string): OverlapItem {
  const q = ws.getQuestion(id);
  return { id, title: q?.title ?? '', body: q?.body ?? '' };
}

/**
 * Compares the training queries with the dev pool's labeled queries. Returns what to drop
 * (nothing with keepOverlap) and the report. Throws QPairsError, before anything is trained,
 * when dropping would leave no training query.
 */
export function checkDevOverlap(
  ws: Workspace,
  training: readonly TrainingQuery[],
  devPool: string,
  keepOverlap: boolean,
  control: KeepOverlapControl = 'cli',
): { drop: Set<string>; devQueryIds: string[]; report: DevOverlap } {
  const devGrades = poolGrades(ws, devPool);
  const devQueryIds = ws.poolQueries(devPool).map((q) => q.queryId).filter((id) => devGrades.has(id));
  const matches = findOverlap(devQueryIds.map((id) => item(ws, id)), training);
  const reasons: Record<OverlapReason, number> = { 'same-id': 0, 'same-text': 0, 'near-duplicate': 0 };
  const byTraining = new Map(training.map((t) => [t.id, t]));
  const devMatched = new Set<string>();
  const pairHits = new Set<string>();
  let sameLabel = 0;
  for (const m of matches) {
    reasons[m.reason]++;
    devMatched.add(m.trainingId);
    const t = byTraining.get(m.query)!;
    const dg = devGrades.get(m.trainingId)!;
    const candMatches = findOverlap(
      [...dg.keys()].map((c) => item(ws, c)),
      [...t.grades.keys()].map((c) => item(ws, c)),
    );
    for (const cm of candMatches) {
      const key = `${m.trainingId}\u0000${cm.trainingId}`;
      if (pairHits.has(key)) continue;
      pairHits.add(key);
      if (dg.get(cm.trainingId) === t.grades.get(cm.query)) sameLabel++;
    }
  }
  let devPairs = 0;
  for (const g of devGrades.values()) devPairs += g.size;
  const drop = keepOverlap ? new Set<string>() : new Set(matches.map((m) => m.query));
  if (!keepOverlap && training.length > 0 && drop.size === training.length) {
    throw new QPairsError(
      `every one of the ${training.length} labeled training queries is also in dev pool "${devPool}" (same id, text or near-duplicate): ` +
        `dropping them leaves nothing to train on. Train on other pools, evaluate on another dev pool, or ${control === 'app' ? `tick ${KEEP_BOX}` : 'give --keep-overlap'} ` +
        `to train on them anyway (the dev figures are then not held out)`,
    );
  }
  return {
    drop,
    devQueryIds,
    report: {
      devPool,
      devQueries: devQueryIds.length,
      trainingQueries: training.length,
      overlapping: matches.length,
      reasons,
      devQueriesInTraining: devMatched.size,
      pairs: { overlapping: pairHits.size, of: devPairs, sameLabel },
      dropped: drop.size,
      kept: keepOverlap,
      threshold: NEAR_DUPLICATE_JACCARD,
    },
  };
}
