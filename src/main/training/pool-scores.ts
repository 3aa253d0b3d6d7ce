/**
 * A stored model's scores of a pool, computed without writing: what `scorePool` (train.ts) then
 * stores as the model's run. Reading the pool's queries, every candidate's text and the pool's
 * runs (~1 s for a pool of 60,000 pairs on a workspace of 100,000 questions) and scoring them is
 * done by the model worker on its own read-only connection when the workspace is a file
 * (train-worker.ts), so the engine's thread, which acknowledges labels, only stores the scores.
 * Elsewhere (tests, an in-memory workspace, no bundle) this thread does it, with the same result.
 */
import { throwIfAborted } from '../errors';
import { hasUniformScores } from '../metrics';
import { scorePoolInWorker } from '../models';
import type { QText, SavedModel, ScoreContext } from '../models/types';
import type { PoolScores } from '../models/worker-protocol';
import type { Workspace } from '../workspace/workspace';
import { scoringItems } from './data';
import { resolveWorkerPath, scoreSaved, type RunOptions } from './run-model';
import { getModel } from './store';

export type { PoolScores } from '../models/worker-protocol';

/** The runs a fusing model (ltr, fused) takes as features, as saved with it; none for the other models. */
export function featureRunNames(saved: Pick<SavedModel, 'meta'>): string[] {
  return Array.isArray(saved.meta?.runNames) ? (saved.meta.runNames as string[]) : [];
}

/**
 * The runs a fusing model (ltr, fused) takes as features that pool `pool` lacks: their features
 * are 0 there for every candidate, so the model ranks without them (a fused model trained with the
 * search engine's order, scoring a pool built by BM25, loses its strongest feature). Empty for the
 * other models.
 */
export function missingFeatureRuns(ws: Workspace, saved: SavedModel, pool: string): string[] {
  const names = featureRunNames(saved);
  if (names.length === 0) return [];
  const present = new Set(ws.listRuns(pool).map((r) => r.name));
  return names.filter((r) => !present.has(r));
}

/** What scoring reads, in one snapshot: the model and every query with its candidates' texts and run context. */
export interface PoolScoringInput {
  created: string;
  saved: SavedModel;
  missingRuns: string[];
  items: Array<{ queryId: string; query: QText; candidates: QText[]; ctx: ScoreContext }>;
}

export function readPoolScoring(ws: Workspace, name: string, pool: string): PoolScoringInput {
  return ws.snapshot(() => {
    const { info, saved } = getModel(ws, name);
    ws.pool(pool);
    return { created: info.created, saved, missingRuns: missingFeatureRuns(ws, saved, pool), items: scoringItems(ws, pool, { excludeRuns: new Set([name]) }) };
  });
}

/**
 * The pool's scores from the model's (one array per item): queries the model was cross-validated
 * on get their out-of-fold scores (when every candidate has one); the uniform queries counted.
 */
export function poolScoresOf(input: PoolScoringInput, modelScores: number[][]): PoolScores {
  const { saved, items } = input;
  const oof = (saved.meta?.outOfFold ?? {}) as Record<string, Record<string, number>>;
  const outOfFoldQueries: string[] = [];
  const scores = items.map((it, i) => {
    const m = oof[it.queryId];
    if (!m || !it.candidates.every((c) => typeof m[c.id] === 'number')) return modelScores[i]!;
    outOfFoldQueries.push(it.queryId);
    return it.candidates.map((c) => m[c.id]!);
  });
  // Queries where the model tells no candidate apart (a model that learned nothing, or questions
  // without text): said at once, not first found in eval, where the tie rule ranks them. The same
  // test eval flags them by (hasUniformScores). Of those, the ones whose query or every candidate
  // has no text (ids imported without texts).
  const uniform = items.filter((it, i) => hasUniformScores(it.candidates.map((c) => c.id), new Map(it.candidates.map((c, j) => [c.id, scores[i]![j]!]))));
  const textless = (q: { title: string; body: string }): boolean => !q.title.trim() && !q.body.trim();
  return {
    created: input.created,
    kind: saved.kind,
    missingRuns: input.missingRuns,
    queries: items.map((it, i) => ({ id: it.queryId, candidates: it.candidates.map((c) => c.id), scores: scores[i]! })),
    outOfFoldQueries,
    uniformQueries: uniform.length,
    uniformWithoutText: uniform.filter((it) => textless(it.query) || it.candidates.every(textless)).length,
  };
}

/**
 * A stored model's scores of a pool (poolScoresOf), not stored. In a worker on a
 * workspace file, the worker reads the model, the pool's lists, texts and runs on its own
 * connection; else this thread does (tests, an in-memory workspace, no bundle). Same scores.
 */
export async function scorePoolWith(ws: Workspace, name: string, pool: string, o: RunOptions): Promise<PoolScores & { backend: string }> {
  throwIfAborted(o.signal);
  const workerPath = resolveWorkerPath(o);
  const path = workerPath ? ws.fileForWorkers() : null;
  if (workerPath && path) {
    const h = scorePoolInWorker(path, name, pool, { workerPath });
    const onAbort = (): void => h.cancel();
    o.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return { ...(await h.promise), backend: 'worker' };
    } finally {
      o.signal?.removeEventListener('abort', onAbort);
    }
  }
  const input = readPoolScoring(ws, name, pool);
  const { scores, backend } = await scoreSaved(input.saved, input.items, o);
  return { ...poolScoresOf(input, scores), backend };
}
