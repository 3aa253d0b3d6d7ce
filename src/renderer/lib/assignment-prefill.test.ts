import { describe, expect, it } from 'vitest';
import type { AssignmentView } from '../../shared/contract';
import { assignmentPrefill } from './assignment-prefill';

function plan(over: Partial<AssignmentView>): AssignmentView {
  return { pool: 'p', mode: 'open', perQuery: null, seed: null, annotators: [], judges: [], progress: [], ...over } as AssignmentView;
}

describe('assignmentPrefill', () => {
  it('fills names, overlap, K and seed from a per-query plan', () => {
    expect(assignmentPrefill(plan({ mode: 'per-query', perQuery: 3, seed: 7, annotators: ['ann1', 'ann2', 'ann3'] }), 'p', null, null)).toEqual({
      names: 'ann1, ann2, ann3',
      mode: 'k',
      k: 3,
      seed: 7,
    });
  });

  it('fills an open pool with no names and everyone on every query', () => {
    expect(assignmentPrefill(plan({ annotators: ['someone who labeled'] }), 'p', null, null)).toEqual({ names: '', mode: 'full' });
  });

  it('fills nothing once the user has edited the form for this pool (a read that came back late)', () => {
    expect(assignmentPrefill(plan({}), 'p', null, 'p')).toBeNull();
    // An edit made for another pool does not stop this pool's fill.
    expect(assignmentPrefill(plan({}), 'p', null, 'q')).toEqual({ names: '', mode: 'full' });
  });

  it('fills nothing for a read of another pool or a pool already filled', () => {
    expect(assignmentPrefill(plan({ pool: 'q' }), 'p', null, null)).toBeNull();
    expect(assignmentPrefill(plan({}), 'p', 'p', null)).toBeNull();
    expect(assignmentPrefill(null, 'p', null, null)).toBeNull();
    expect(assignmentPrefill(plan({}), null, null, null)).toBeNull();
  });
});
