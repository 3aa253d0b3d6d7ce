import { describe, expect, it } from 'vitest';
import type { CandidateView, QueryView } from '../../shared/contract';
import { baselineOf, liveProgress, msPerLabel } from './progress';

const cand = (id: string, position: number, label: string | null, rank?: number): CandidateView =>
  ({ id, position, label, question: null, sharedTerms: [], runs: rank === undefined ? {} : { r: { rank, score: 1 / rank } }, others: {} }) as unknown as CandidateView;

const view = (labels: Array<string | null>, progress: QueryView['progress']): QueryView =>
  ({ pool: 'p', scheme: 'binary', queryId: 'q', query: null, index: 0, total: 2, blind: true, runNames: [], guidelines: '', progress, candidates: labels.map((l, i) => cand(`c${i}`, i, l)) }) as QueryView;

describe('live progress', () => {
  it('moves with every label given on screen', () => {
    const v = view([null, null, null], { doneQueries: 0, totalQueries: 2, labeledPairs: 0, totalPairs: 6 });
    const base = baselineOf(v);
    expect(liveProgress(v, base, 0).labeledPairs).toBe(0);
    expect(liveProgress(v, base, 1).labeledPairs).toBe(1);
    expect(liveProgress(v, base, 2).labeledPairs).toBe(2);
    const done = liveProgress(v, base, 3);
    expect(done.labeledPairs).toBe(3);
    expect(done.doneQueries).toBe(1);
  });
  it('does not count twice what the snapshot already holds, and goes down on clear', () => {
    const v = view(['1', '0', '1'], { doneQueries: 1, totalQueries: 2, labeledPairs: 5, totalPairs: 6 });
    const base = baselineOf(v);
    expect(liveProgress(v, base, 3)).toMatchObject({ labeledPairs: 5, doneQueries: 1 });
    expect(liveProgress(v, base, 2)).toMatchObject({ labeledPairs: 4, doneQueries: 0 });
  });
  it('pace caps breaks and needs two labels', () => {
    expect(msPerLabel([1000])).toBeNull();
    expect(msPerLabel([0, 2000, 4000])).toBe(2000);
    expect(msPerLabel([0, 1_000_000])).toBe(120_000);
  });
});
