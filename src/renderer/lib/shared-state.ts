/**
 * The state the app shell shares with its screens (App.tsx owns it; screens receive it as a
 * prop). In a file of its own so the screens do not import the shell that imports them.
 */
import type { AppInfo, CallerRole, PoolInfo } from '../../shared/contract';
import type { Tab } from './roles';

/** A request to show one disagreement (or the first of a query) on the Review screen. */
export interface ReviewFocus {
  pool: string;
  queryId: string;
  candidateId?: string;
}

export interface SharedState {
  pools: PoolInfo[];
  /** False until the pool list first arrives (an empty `pools` then means "none yet", not "not loaded"). */
  poolsLoaded: boolean;
  poolsError: string | null;
  refreshPools: () => void;
  pool: string;
  setPool: (p: string) => void;
  annotator: string;
  setAnnotator: (a: string) => void;
  /** Set in serve mode with tokens: the token's annotator, fixed. */
  lockedAnnotator: string | null;
  /** The caller's role (app.info): decides which screens and controls are offered. */
  role: CallerRole;
  /** The engine's answer to app.info. */
  info: AppInfo;
  goTo: (tab: Tab) => void;
  /** The query last shown on the Annotate screen (Evaluate's drill-down starts there). */
  lastQueryId: string;
  setLastQueryId: (q: string) => void;
  /** Set by the Agreement screen's disagreement list; the Review screen moves there and clears it. */
  reviewFocus: ReviewFocus | null;
  openReview: (focus: ReviewFocus) => void;
  clearReviewFocus: () => void;
  /** The tfjs backend the engine's models run on, once known (app.info or models.list). */
  modelBackend: string | null;
  setModelBackend: (b: string) => void;
}
