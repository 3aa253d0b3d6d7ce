/** Whether a key event's target takes text (screen shortcuts must leave it alone). */
export function isTypingTarget(t: EventTarget | null): boolean {
  const el = t as HTMLElement | null;
  if (!el || !el.tagName) return false;
  const tag = el.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') {
    const type = (el as HTMLInputElement).type;
    return !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(type);
  }
  return el.isContentEditable;
}

/** The keys that scroll a text the reader focused (Tab) instead of moving a screen's cursor. */
const SCROLL_KEYS: ReadonlySet<string> = new Set(['ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End', ' ']);

/**
 * Whether a key press scrolls a question's text the reader reached with Tab (a query's or
 * candidate's body, class query-body, focusable because it scrolls): the arrows, Page Up/Down,
 * Home/End and Space scroll it there, as in the guidelines, rather than moving the cursor of a
 * list the focus is not on (letters, digits and the rest still act on the screen).
 */
export function isScrollKeyInText(e: Pick<KeyboardEvent, 'key' | 'target'>): boolean {
  const el = e.target as HTMLElement | null;
  return !!el?.classList?.contains('query-body') && SCROLL_KEYS.has(e.key);
}

/**
 * Whether Enter or Space on a key event's target works a control (a button, link, tab, summary,
 * checkbox, …): a screen's own Enter/Space keys must leave that press to the control — the Close
 * of the list of keys, a candidate's title, a Retry reached with Tab.
 */
export function isActivationTarget(t: EventTarget | null): boolean {
  const el = t as HTMLElement | null;
  if (!el || !el.tagName) return false;
  const tag = el.tagName;
  if (tag === 'BUTTON' || tag === 'SUMMARY' || (tag === 'A' && el.hasAttribute('href'))) return true;
  if (tag === 'INPUT') return ['checkbox', 'radio', 'button', 'submit', 'reset'].includes((el as HTMLInputElement).type);
  const role = el.getAttribute('role');
  return role !== null && ['button', 'link', 'tab', 'menuitem', 'checkbox', 'radio', 'switch', 'option'].includes(role);
}
