import type { LabelScheme } from './labels';

export interface Question {
  id: string;
  source: string;
  title: string;
  body: string;
  tags: string[];
  author: string | null;
  created: string | null;
  category: string | null;
}

export interface PoolInfo {
  id: number;
  name: string;
  scheme: LabelScheme;
  retriever: string | null;
  depth: number | null;
  sampling: string | null;
  guidelines: string;
  created: string;
  queries: number;
  pairs: number;
  /** Runs (rankers' scores) in the pool: the adaptive labeling orders need two to be adaptive (label-order.ts). */
  runs?: number;
  /** Annotators label this pool blind (their own labels only, no scores); set by the owner. */
  blind: boolean;
  /** How the pool's annotators' labels combine into its aggregate (workspace schema 2; see shared/gold.ts). */
  aggregation?: 'adjudicated' | 'majority' | 'mean' | 'unanimous';
  /** Threshold of the `mean` aggregation rule (mean grade above it is relevant). */
  aggregation_threshold?: number;  /** How annotators' next query is chosen (workspace schema 8; shared/label-order.ts). */
  label_order?: 'pool' | 'random' | 'uncertainty' | 'decide-rankers' | 'decide-rankers-mtc';
  /** Seed of the order's draws. */
  order_seed?: number;
  /**
   * The pool's evaluation convention (workspace schema 10): what eval uses unless told — 'zero'
   * (a query without a relevant candidate has AP 0) or 'skip' (it is left out).
   */
  convention?: 'skip' | 'zero';
}

export interface PoolQuery {
  queryId: string;
  /** Candidate ids in the pool's original (retriever's) order. */
  candidates: string[];
}

export interface LabelRecord {
  seq: number;
  pool: string;
  queryId: string;
  candidateId: string;
  annotator: string;
  /** null = cleared (an undo back to "no label"). */
  value: string | null;
  at: string;
  origin: string;
}

export interface RunInfo {
  id: number;
  pool: string;
  name: string;
  kind: string;
  created: string;
  pairs: number;
}

/**
 * What opening the workspace did or found that its owner should know (Workspace.openNotices):
 * `upgraded` — its schema was upgraded (older QPairs can no longer open it); `import-undone` — an
 * interrupted import was undone; `undo-finished` — an undo of the last import that a crash or kill had stopped
 * partway was finished (the import it undid had finished: its undo was what was interrupted); `import-left` — a read-only open found an interrupted import's
 * rows still in it. The message never names a server-side path.
 */
export interface WorkspaceNotice {
  /**
   * `last-missing`: the desktop app opened the demo because the workspace it would have reopened is gone.
   * `import-undoing`: an undo a crash or kill stopped partway is being finished in the background (the Workspace screen shows its progress).
   * `undo-partway`: the last import is partly undone (its undo was cancelled, or runs in another process): Undo last import finishes it.
   * `read-only`: why the workspace opened read-only (owners only; one with a link reads every notice without server paths).
   */
  kind: 'upgraded' | 'import-undone' | 'undo-finished' | 'import-undoing' | 'undo-partway' | 'import-left' | 'last-missing' | 'read-only';
  message: string;
}

export interface WorkspaceStats {
  questions: number;
  /** Answers and comments (unlabeled text; not indexed, not labeled). */
  answers: number;
  /** Distinct unordered user-marked duplicate pairs. */
  duplicatePairs: number;
  pools: number;
  /** Current (latest, non-cleared) labels over all pools and annotators. */
  labels: number;
  labelEvents: number;
  annotators: number;
  runs: number;
  indexedQuestions: number;
  sources: Record<string, number>;
}
