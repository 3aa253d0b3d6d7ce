/**
 * The Annotate screen's keyboard (keys.ts lists them): moving, expanding, labeling, undoing,
 * moving between queries and opening the overlays. Keys typed into a field, or with Ctrl, Meta or
 * Alt, are left alone; while an overlay is open only Esc (and h for the guidelines) act.
 */
import { useEffect, useRef, type Dispatch, type RefObject, type SetStateAction } from 'react';
import type { QueryView } from '../../shared/contract';
import { isActivationTarget, isScrollKeyInText, isTypingTarget } from '../lib/typing';
import { stepCursor } from './candidateFilter';
import { commandKeyOf, labelKeyOf, valueForKey } from './keys';
import type { RowModel } from './CandidateTable';
import type { NavDirection } from './useQueryNavigation';

export type Overlay = null | 'guidelines' | 'goto' | 'help' | 'note';

export interface AnnotateKeyContext {
  overlay: Overlay;
  setOverlay: Dispatch<SetStateAction<Overlay>>;
  setGotoError: Dispatch<SetStateAction<string | null>>;
  setBodyOpen: Dispatch<SetStateAction<boolean>>;
  viewRef: RefObject<QueryView | null>;
  /** The indices of the rows the candidate filter shows. */
  shownRef: RefObject<number[]>;
  rows: RowModel[];
  cursor: number;
  setCursor: Dispatch<SetStateAction<number>>;
  toggleExpand: (id: string) => void;
  /** False when the label was refused at once (access ended, or the workspace is read-only). */
  giveLabel: (row: number, value: string | null, advance: boolean) => boolean;
  doUndo: () => Promise<void>;
  doRedo: () => Promise<void>;
  navigate: (direction: NavDirection) => Promise<void>;
  /** Issue 24: opens the note dialog on row `row`'s label (c). */
  openNote: (row: number) => void;
  /** Issue 24: after a "?", offers a note on that row (a line saying c writes one; nothing takes the focus). */
  offerNote: (row: number) => void;
}

/** Acts on one key press on the Annotate screen. */
function onKey(e: KeyboardEvent, k: AnnotateKeyContext): void {
  const { overlay, setOverlay, cursor, setCursor, rows } = k;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (e.key === 'Escape') {
    if (overlay) {
      e.preventDefault();
      setOverlay(null);
    }
    return;
  }
  if (isTypingTarget(e.target) || isScrollKeyInText(e) || overlay === 'goto' || overlay === 'note') return;
  if (overlay && e.key !== 'h') return;
  // Enter and Space on a focused control (reached with Tab, or the Close of the list of keys) work
  // that control: not the next query, nor a candidate's body behind it.
  if ((e.key === 'Enter' || e.key === ' ') && isActivationTarget(e.target)) return;
  const v = k.viewRef.current;
  const shownNow = k.shownRef.current;
  // Label keys act on the row under the cursor only while the filter shows it.
  const onShown = shownNow.includes(cursor);
  let handled = true;
  switch (commandKeyOf(e)) {
    case 'ArrowDown':
    case 'j':
      setCursor((c) => stepCursor(shownNow, c, 1));
      break;
    case 'ArrowUp':
    case 'k':
      setCursor((c) => stepCursor(shownNow, c, -1));
      break;
    case 'Home':
      if (shownNow.length) setCursor(shownNow[0]!);
      break;
    case 'End':
      if (shownNow.length) setCursor(shownNow[shownNow.length - 1]!);
      break;
    case 'o':
    case ' ':
      if (v && onShown && v.candidates[cursor]) k.toggleExpand(v.candidates[cursor]!.id);
      break;
    case 'Backspace':
    case 'u':
      void k.doUndo();
      break;
    case 'U':
      void k.doRedo();
      break;
    case 'Enter':
    case 'n':
      void k.navigate('next-unlabeled');
      break;
    case 'N':
      void k.navigate('next');
      break;
    case 'p':
      void k.navigate('previous');
      break;
    case 'g':
      k.setGotoError(null);
      setOverlay('goto');
      break;
    case 'h':
      setOverlay((o) => (o === 'guidelines' ? null : 'guidelines'));
      break;
    case 'b':
      k.setBodyOpen((o) => !o);
      break;
    case 'x':
      if (v && onShown && rows[cursor]?.label != null) k.giveLabel(cursor, null, false);
      break;
    case 'c':
      if (v && onShown) k.openNote(cursor);
      break;
    default: {
      const value = v ? valueForKey(v.scheme, labelKeyOf(e)) : null;
      if (value !== null && v) {
        // An unsure label offers a note (why?) without taking the keyboard: c writes it.
        if (onShown && k.giveLabel(cursor, value, true) && value === '?') k.offerNote(cursor);
      } else handled = false;
    }
  }
  if (handled) e.preventDefault();
}

/** Listens to the window's keydown for the screen's lifetime, always with this render's context. */
export function useAnnotateKeys(context: AnnotateKeyContext): void {
  const keyHandler = useRef<(e: KeyboardEvent) => void>(() => {});
  keyHandler.current = (e: KeyboardEvent) => onKey(e, context);
  useEffect(() => {
    const on = (e: KeyboardEvent): void => keyHandler.current(e);
    window.addEventListener('keydown', on);
    return () => window.removeEventListener('keydown', on);
  }, []);
}
