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
