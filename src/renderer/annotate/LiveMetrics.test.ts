import { describe, expect, it } from 'vitest';
import { inSampleNote, selectedOnNote, skippedNote } from './LiveMetrics';

describe('the live panel says which labeled queries its figures leave out', () => {
  it('under convention skip, the queries without a similar candidate (AskUbuntu dev: 11 of 200)', () => {
    expect(skippedNote({ convention: 'skip', withoutRelevant: 11 })).toBe(' — 11 without a similar candidate left out (convention skip)');
  });
  it('nothing when none is left out, or under zero (they count 0 there)', () => {
    expect(skippedNote({ convention: 'skip', withoutRelevant: 0 })).toBeNull();
    expect(skippedNote({ convention: 'zero', withoutRelevant: 7 })).toBeNull();
  });
});

describe('the live panel flags a model run trained on the labeled queries, as Evaluate does', () => {
  it('says how many of the counted queries the model trained on', () => {
    expect(inSampleNote({ overlap: { trainedOn: 3, of: 5, sameId: 3, sameText: 0, nearDuplicate: 0 } })).toBe('(trained on 3 of these 5: not held out)');
    expect(inSampleNote({ overlap: null })).toBe('(trained before its training queries were recorded: maybe in-sample)');
  });
  it('nothing for a run that is no model, or a model that saw none of them', () => {
    expect(inSampleNote({})).toBeNull();
    expect(inSampleNote({ overlap: { trainedOn: 0, of: 5, sameId: 0, sameText: 0, nearDuplicate: 0 } })).toBeNull();
  });
});

describe('the live panel flags a model run chosen on the labeled queries (its dev pool), as Evaluate does', () => {
  it('says so beside its figures, for its own dev pool or a feature run model\'s', () => {
    expect(selectedOnNote('dae', { selectedOn: { by: 'dev', model: 'dae' } })).toBe('(chosen on these queries (its dev pool: the version kept scored best here): optimistic, not held out)');
    expect(selectedOnNote('fz', { selectedOn: { by: 'dev', model: 'dae' } })).toBe("(chosen on these queries (its feature run dae's dev pool: the version kept scored best here): optimistic, not held out)");
  });
  it('nothing for a run chosen elsewhere', () => {
    expect(selectedOnNote('tf', {})).toBeNull();
  });
});
