/** The pool's guidelines over the Annotate screen (key h); a click outside, h or Esc closes it. */
import type { ReactNode } from 'react';
import { Markdown } from '../lib/markdown';

export function GuidelinesOverlay({ pool, guidelines, onClose }: { pool: string; guidelines: string; onClose: () => void }): ReactNode {
  return (
    <div className="overlay" role="dialog" aria-label="Guidelines" data-testid="guidelines-overlay" onClick={onClose}>
      <div className="overlay-card" onClick={(e) => e.stopPropagation()}>
        <h2>Guidelines — {pool}</h2>
        {guidelines.trim() ? <Markdown source={guidelines} /> : <p className="muted">This pool has no guidelines yet (write them on the Pools screen).</p>}
        <p className="small muted">
          <kbd>h</kbd> or <kbd>Esc</kbd> closes
        </p>
      </div>
    </div>
  );
}
