import { describe, expect, it } from 'vitest';
import { reviewJudge } from './judge';

describe('reviewJudge', () => {
  const judges = ['judy', 'kim'];

  it('a judge with a token acts only as themself', () => {
    expect(reviewJudge({ role: 'judge', locked: 'kim', stored: 'judy', self: 'kim', judges })).toEqual({ judge: 'kim', choosable: false });
  });

  it('an owner with a token who is not a judge picks any judge, starting on the first (never on their own name)', () => {
    expect(reviewJudge({ role: 'owner', locked: 'olga', stored: '', self: 'olga', judges })).toEqual({ judge: 'judy', choosable: true });
    expect(reviewJudge({ role: 'owner', locked: 'olga', stored: 'kim', self: 'olga', judges })).toEqual({ judge: 'kim', choosable: true });
    expect(reviewJudge({ role: 'owner', locked: 'olga', stored: 'olga', self: 'olga', judges })).toEqual({ judge: 'judy', choosable: true });
  });

  it('an owner who is a judge starts as themself; a remembered judge who is no longer one is not used', () => {
    expect(reviewJudge({ role: 'owner', locked: 'kim', stored: '', self: 'kim', judges })).toEqual({ judge: 'kim', choosable: true });
    expect(reviewJudge({ role: 'owner', locked: null, stored: 'carol', self: 'me', judges })).toEqual({ judge: 'judy', choosable: true });
  });

  it('no judges, or the list not loaded yet: no judge (the screen says so, and asks for no queue)', () => {
    expect(reviewJudge({ role: 'owner', locked: 'olga', stored: '', self: 'olga', judges: [] })).toEqual({ judge: '', choosable: true });
    expect(reviewJudge({ role: 'owner', locked: null, stored: 'judy', self: 'me', judges: null })).toEqual({ judge: '', choosable: true });
  });
});
