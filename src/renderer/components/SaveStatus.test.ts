/**
 * The top bar's save status in serve mode: a label the server has on hand but has not answered
 * for 20 s (busy: it waits behind a long write) read "cannot reach the engine, retrying", though
 * the server answered and was working on it. It now says the server is busy; still never "saved".
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { SaveStatus } from './SaveStatus';

const shown = (counts: { unsaved: number; failed: number; retrying: number; busy: number; unanswered?: number }): string =>
  renderToStaticMarkup(createElement(SaveStatus, { counts, onRetry: () => {} })).replace(/<[^>]+>/g, '');

describe('SaveStatus', () => {
  it('a server busy with the labels: says so, not "cannot reach", and not saved', () => {
    const text = shown({ unsaved: 2, failed: 0, retrying: 0, busy: 1 });
    expect(text).toBe('2 labels waiting to be saved — the server is busy (it answers, but has not saved them yet), waiting');
    expect(renderToStaticMarkup(createElement(SaveStatus, { counts: { unsaved: 1, failed: 0, retrying: 0, busy: 1 }, onRetry: () => {} }))).toContain('data-state="busy"');
    expect(shown({ unsaved: 1, failed: 0, retrying: 0, busy: 1 })).toMatch(/^1 label waiting to be saved — the server is busy \(it answers, but has not saved it yet\)/);
  });

  it('out of reach (a label being sent again) still reads as before', () => {
    expect(shown({ unsaved: 1, failed: 0, retrying: 1, busy: 0, unanswered: 0 })).toBe('1 label waiting to be saved — cannot reach the engine, retrying');
    expect(shown({ unsaved: 1, failed: 0, retrying: 0, busy: 0 })).toBe('saving…');
  });

  it('given up on for want of an answer (not even to whether the server has it): no answer, busy or out of reach — not "cannot reach"', () => {
    // The event stream may still be open: a server stuck in a long synchronous step answers nothing, yet is there.
    expect(shown({ unsaved: 2, failed: 0, retrying: 1, busy: 0, unanswered: 1 })).toBe('2 labels waiting to be saved — no answer from the server (busy, or out of reach), sending again');
  });
});
