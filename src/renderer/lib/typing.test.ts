import { describe, expect, it } from 'vitest';
import { isActivationTarget, isScrollKeyInText, isTypingTarget } from './typing';

/** A stand-in for an element: its tag, attributes and (for inputs) type. */
function el(tagName: string, attrs: Record<string, string> = {}, type?: string): EventTarget {
  return { tagName, type, isContentEditable: false, hasAttribute: (n: string) => n in attrs, getAttribute: (n: string) => attrs[n] ?? null } as unknown as EventTarget;
}

describe('isActivationTarget', () => {
  it('is true for controls Enter or Space work', () => {
    expect(isActivationTarget(el('BUTTON'))).toBe(true);
    expect(isActivationTarget(el('A', { href: '#x' }))).toBe(true);
    expect(isActivationTarget(el('SUMMARY'))).toBe(true);
    expect(isActivationTarget(el('INPUT', {}, 'checkbox'))).toBe(true);
    expect(isActivationTarget(el('DIV', { role: 'tab' }))).toBe(true);
    expect(isActivationTarget(el('SPAN', { role: 'button' }))).toBe(true);
  });
  it('is false for the page, a table, a text field or a link without href', () => {
    expect(isActivationTarget(null)).toBe(false);
    expect(isActivationTarget(el('BODY'))).toBe(false);
    expect(isActivationTarget(el('TABLE', { tabindex: '-1' }))).toBe(false);
    expect(isActivationTarget(el('A'))).toBe(false);
    expect(isActivationTarget(el('INPUT', {}, 'text'))).toBe(false);
    expect(isTypingTarget(el('INPUT', {}, 'text'))).toBe(true);
  });
});

describe('isScrollKeyInText', () => {
  it('leaves the arrows, Page Up/Down, Home/End and Space to a focused question body, and only those keys', () => {
    const withClasses = (...names: string[]): EventTarget => ({ classList: { contains: (c: string) => names.includes(c) } }) as unknown as EventTarget;
    const body = withClasses('query-body', 'review-body');
    const other = withClasses('candidates');
    for (const key of ['ArrowUp', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End', ' ']) {
      expect(isScrollKeyInText({ key, target: body }), key).toBe(true);
      expect(isScrollKeyInText({ key, target: other }), key).toBe(false);
    }
    for (const key of ['j', 'k', '1', '?', 'Enter', 'n']) expect(isScrollKeyInText({ key, target: body }), key).toBe(false);
    expect(isScrollKeyInText({ key: 'ArrowDown', target: null })).toBe(false);
  });
});
