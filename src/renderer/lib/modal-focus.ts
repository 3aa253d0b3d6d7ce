/**
 * Keyboard focus for a modal dialog: Tab and Shift+Tab cycle through the dialog's own controls
 * (the page behind an aria-modal dialog is out of reach for a screen reader, so focus must not
 * wander there), and when the dialog closes the focus goes back to where it was when it opened
 * (the button or the row that opened it), not to the top of the page.
 */
import { useEffect, useState, type KeyboardEvent as ReactKeyboardEvent, type RefObject } from 'react';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The dialog's controls a Tab can reach, in order. */
function focusables(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((e) => e.getClientRects().length > 0);
}

/**
 * Attach the returned handler as the dialog root's onKeyDown (`root` is its element). The focus
 * in place before the dialog mounted is restored when it unmounts.
 */
export function useModalFocus(root: RefObject<HTMLElement | null>): (e: ReactKeyboardEvent) => void {
  // Read while rendering the dialog for the first time: before an autoFocus inside it moves the focus.
  const [opener] = useState<HTMLElement | null>(() => {
    const before = document.activeElement;
    return before instanceof HTMLElement && before !== document.body ? before : null;
  });
  useEffect(() => {
    // A dialog whose content takes no focus itself (autoFocus) gets it on its first control.
    const el = root.current;
    if (el && !el.contains(document.activeElement)) focusables(el)[0]?.focus({ preventScroll: true });
    return () => {
      const back = opener;
      // Later, so the dialog has left the page; only when the focus is not already somewhere chosen.
      queueMicrotask(() => {
        const now = document.activeElement;
        if (back && back.isConnected && (now === null || now === document.body)) back.focus({ preventScroll: true });
      });
    };
  }, [root, opener]);
  return (e) => {
    if (e.key !== 'Tab' || !root.current) return;
    const all = focusables(root.current);
    if (all.length === 0) {
      e.preventDefault();
      return;
    }
    const first = all[0]!;
    const last = all[all.length - 1]!;
    // The focus outside the dialog, or on an element Tab does not reach (a card of tabIndex -1
    // that took the focus to scroll): Shift+Tab would leave from there, so both ends wrap.
    const active = document.activeElement;
    const off = !all.includes(active as HTMLElement);
    if (e.shiftKey && (active === first || off)) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && (active === last || off)) {
      e.preventDefault();
      first.focus();
    }
  };
}
