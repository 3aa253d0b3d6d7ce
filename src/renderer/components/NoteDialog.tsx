/**
 * A note on a label (issue 24): why a pair is unsure, a judge's reason for a ruling. A small
 * dialog over the screen: Enter saves (Shift+Enter: a new line), Esc leaves the note as it was,
 * an emptied box removes the note. Tab stays inside it; closing it gives the focus back.
 */
import { useRef, useState, type ReactNode } from 'react';
import { useModalFocus } from '../lib/modal-focus';

export interface NoteDialogProps {
  /** What the note is on, e.g. "candidate 1394 of query 1406". */
  subject: string;
  /** The note as it is (empty: none yet). */
  initial: string;
  /** The dialog's heading: "Note" for an annotator, "Reason" for a judge. */
  title: string;
  /** A line under the heading (e.g. "You said unsure: why?"). */
  hint?: string;
  onSave: (note: string) => void;
  onClose: () => void;
  testId?: string;
}

export function NoteDialog({ subject, initial, title, hint, onSave, onClose, testId = 'note-dialog' }: NoteDialogProps): ReactNode {
  const [text, setText] = useState(initial);
  const root = useRef<HTMLDivElement | null>(null);
  const onKeyDown = useModalFocus(root);
  const save = (): void => {
    onSave(text.trim());
    onClose();
  };
  return (
    <div ref={root} className="overlay" role="dialog" aria-modal="true" aria-label={`${title} on ${subject}`} data-testid={testId} onClick={onClose} onKeyDown={onKeyDown}>
      <form
        className="overlay-card small-card"
        onClick={(e) => e.stopPropagation()}
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
      >
        <label>
          {title} on {subject}
          {hint && <span className="small muted"> — {hint}</span>}
          <textarea
            autoFocus
            rows={3}
            maxLength={4000}
            dir="auto"
            data-testid={`${testId}-input`}
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') {
                e.preventDefault();
                e.stopPropagation();
                onClose();
              } else if (e.key === 'Enter' && !e.shiftKey) {
                e.preventDefault();
                save();
              }
            }}
          />
        </label>
        <p className="small muted">
          <kbd>Enter</kbd> saves · <kbd>Shift</kbd>+<kbd>Enter</kbd> new line · <kbd>Esc</kbd> cancels · an empty note is removed
        </p>
        <div className="actions">
          <button type="submit" className="primary" data-testid={`${testId}-save`}>
            Save
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </div>
  );
}
