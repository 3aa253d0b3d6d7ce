/**
 * The Annotate screen's assignment check. With an assignment, an annotator works on their
 * assigned queries only (the engine restricts annotate.query/navigate to them); one who is not
 * assigned to the pool is told so.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { AssignmentView } from '../../shared/contract';
import { useApp, useEvent, useReconnect } from '../lib/context';
import { personScope } from './history';

export interface AssignmentState {
  /** The assignment of this pool and annotator has been read (or found unreadable). */
  checked: boolean;
  /** The pool's plan when the annotator is not among its annotators (or is a judge it does not assign), else null. */
  notAssigned: AssignmentView | null;
  /** The annotator's assignment in this pool, else null. */
  assigned: AssignmentView | null;
}

export function useAssignment(pool: string, annotator: string): AssignmentState {
  const { client } = useApp();
  const [assign, setAssign] = useState<{ key: string; view: AssignmentView | null; notAssigned: AssignmentView | null } | null>(null);
  const assignKey = personScope(pool, annotator.trim());
  const assignSeq = useRef(0);
  const loadAssignment = useCallback(async (): Promise<void> => {
    const who = annotator.trim();
    if (!pool || !who) return;
    const my = ++assignSeq.current;
    const key = personScope(pool, who);
    // One request: the pool's plan, marked `assigned: false` for someone it does not assign.
    try {
      const v = await client.invoke('pool.assignment', { pool, annotator: who });
      if (my !== assignSeq.current) return;
      if (v.assigned === false) {
        setAssign({ key, view: null, notAssigned: v });
        return;
      }
      // A judge the pool does not assign labels only the pairs in dispute (the engine refuses the rest): say so up front.
      const judgeOnly = v.judges.includes(who) && !v.annotators.includes(who);
      setAssign({ key, view: v, notAssigned: judgeOnly ? v : null });
    } catch {
      // The assignment cannot be read: do not block labeling.
      if (my === assignSeq.current) setAssign({ key, view: null, notAssigned: null });
    }
  }, [client, pool, annotator]);
  useEffect(() => void loadAssignment(), [loadAssignment]);
  useEvent('workspace.changed', (w) => {
    if (w.what === 'pool' || w.what === 'draws') void loadAssignment();
  });
  useReconnect(() => void loadAssignment());
  const checked = assign?.key === assignKey;
  return { checked, notAssigned: checked ? assign!.notAssigned : null, assigned: checked ? assign!.view : null };
}
