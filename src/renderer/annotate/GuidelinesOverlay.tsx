/**
 * The pool's guidelines over the Annotate screen (key h); a click outside, h or Esc closes it. The
 * card takes the focus, so the arrow keys, Page Up/Down and Space scroll guidelines longer than the
 * window (the labeling keys are off while it is open). Tab stays inside it (its links); closing it
 * gives the focus back to where it was.
 */
import { useEffect, useRef, type ReactNode } from 'react';
import { Markdown } from '../lib/markdown';
import { useModalFocus } from '../lib/modal-focus';

export function GuidelinesOverlay({ pool, guidelines, onClose }: { pool: string; guidelines: string; onClose: () => void }): ReactNode {
  const root = useRef<HTMLDivElement | null>(null);
  const onKeyDown = useModalFocus(root);
  const card = useRef<HTMLDivElement | null>(null);
  useEffect(() => card.current?.focus({ preventScroll: true }), []);
  return (
    <div ref={root} className="overlay" role="dialog" aria-modal="true" aria-labelledby="guidelines-title" data-testid="guidelines-overlay" onClick={onClose} onKeyDown={onKeyDown}>
      <div className="overlay-card" ref={card} tabIndex={-1} data-testid="guidelines-card" onClick={(e) => e.stopPropagation()}>
        <h2 id="guidelines-title">Guidelines — {pool}</h2>
        {guidelines.trim() ? <Markdown source={guidelines} /> : <p className="muted">This pool has no guidelines yet (write them on the Pools screen).</p>}
        <p className="small muted">
          <kbd>h</kbd> or <kbd>Esc</kbd> closes
        </p>
      </div>
    </div>
  );
}
