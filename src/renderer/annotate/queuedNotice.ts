/**
 * A notice about a change that is queued, not yet saved (an undo or redo of a note or a reason goes
 * through the outbox, labelQueue.ts): it is shown at once, and when the engine refuses the op it is
 * replaced by one saying the change did not happen — never left beside the "not saved" box saying
 * the opposite. Once the refused op is retried and saved, or discarded, that notice goes.
 */
import { useCallback, useEffect, useRef, useSyncExternalStore, type Dispatch, type SetStateAction } from 'react';
import type { LabelOp, LabelQueue } from './labelQueue';

export interface TrackedNotice {
  /** The outbox op the notice is about. */
  id: number;
  /** Shown while the op is queued or saved. */
  done: string;
  /** Shown once the engine refused it. */
  refused: string;
  /** The op was seen refused. */
  failed: boolean;
}

/**
 * One step: given the tracked notice and the outbox's ops now, what to show. `notice` maps the
 * notice on screen to the next one (it is left alone when it is no longer the tracked one's);
 * `keep` false once nothing more can change.
 */
export function stepTrackedNotice(t: TrackedNotice, ops: readonly Pick<LabelOp, 'id' | 'state'>[]): { notice: (shown: string | null) => string | null; keep: boolean } {
  const op = ops.find((o) => o.id === t.id);
  if (op?.state === 'failed') {
    t.failed = true;
    return { notice: (n) => (n === t.done ? t.refused : n), keep: true };
  }
  if (op) {
    // Retried: it may still be saved.
    return { notice: (n) => n, keep: true };
  }
  // Saved, or discarded after a refusal: a refusal's notice no longer holds either way.
  return { notice: (n) => (t.failed && n === t.refused ? null : n), keep: false };
}

/**
 * Shows `done` for a queued op now, and `refused` instead if the engine refuses it (see above).
 */
export function useQueuedNotice(queue: LabelQueue, setNotice: Dispatch<SetStateAction<string | null>>): (op: LabelOp, done: string, refused: string) => void {
  const version = useSyncExternalStore(queue.subscribe, queue.version);
  const tracked = useRef<TrackedNotice | null>(null);
  useEffect(() => {
    const t = tracked.current;
    if (!t) return;
    const step = stepTrackedNotice(t, queue.ops());
    if (!step.keep) tracked.current = null;
    setNotice(step.notice);
  }, [version, queue, setNotice]);
  return useCallback(
    (op: LabelOp, done: string, refused: string) => {
      tracked.current = { id: op.id, done, refused, failed: op.state === 'failed' };
      setNotice(op.state === 'failed' ? refused : done);
    },
    [setNotice],
  );
}
