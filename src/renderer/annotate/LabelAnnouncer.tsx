/**
 * Tells screen readers (a polite live region, visually hidden) each label of this page as the
 * engine saves it: the keyboard moves no focus while labeling (Annotate) or settling (Review), so
 * without it a label key gives no spoken feedback at all. Labels that cannot be saved are announced
 * by the save status (an alert).
 */
import { useEffect, useRef, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { QueryView } from '../../shared/contract';
import type { LabelOp, LabelQueue } from './labelQueue';

/** What the live region says for a saved label or note of `view`'s query (or another query's). */
export function announcement(op: LabelOp, view: QueryView | null, describe: (value: string) => string): string {
  const at = view && view.pool === op.pool && view.queryId === op.queryId ? view.candidates.findIndex((c) => c.id === op.candidateId) : -1;
  const c = at >= 0 ? view!.candidates[at] : undefined;
  const which = c ? `“${c.question?.title ?? c.id}”, candidate ${at + 1} of ${view!.candidates.length}` : `candidate ${op.candidateId} of query ${op.queryId}`;
  if (op.note !== undefined) return op.note.trim() ? `Note saved on ${which}.` : `Note removed from ${which}.`;
  if (op.value === null) return `Label cleared on ${which}, saved.`;
  return `${describe(op.value)}: saved for ${which}.`;
}

/** What the live region says for a judge's saved ruling (Review), the pair named by `which`. */
export function rulingAnnouncement(op: LabelOp, which: string, describe: (value: string) => string): string {
  if (op.value === null) return `Ruling cleared on ${which}, saved.`;
  return `Ruling ${describe(op.value)}: saved for ${which}${op.note?.trim() ? ', with its reason' : ''}.`;
}

/** Announces each op `queue` saves, as `say` words it at that moment. */
export function LabelAnnouncer({ queue, say }: { queue: LabelQueue; say: (op: LabelOp) => string }): ReactNode {
  const saved = useSyncExternalStore(queue.subscribe, () => queue.savedCount());
  const seen = useRef(saved);
  const sayRef = useRef(say);
  sayRef.current = say;
  const [text, setText] = useState('');
  useEffect(() => {
    if (saved === seen.current) return;
    seen.current = saved;
    const op = queue.lastSaved();
    if (op) setText(sayRef.current(op));
  }, [saved, queue]);
  return (
    <p className="visually-hidden" aria-live="polite" aria-atomic="true" data-testid="label-announce">
      {text}
    </p>
  );
}
