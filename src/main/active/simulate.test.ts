import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../stats/random';
import { apsOf, type ActiveQuery } from './pool-model';
import { QUERY_ORDERS } from './query-order';
import { fullMaps, simulateAnnotator } from './simulate';
import { kendallTau, rankerStanding } from './ranker-decision';

/**
 * A pool where most queries cannot separate the rankers: on 48 of 60 queries both rankers return the
 * same order; on 12, ranker 0 puts the relevant candidates first and ranker 1 last.
 */
function lopsidedPool(): { queries: ActiveQuery[]; gold: boolean[][] } {
  const rnd = mulberry32(5);
  const queries: ActiveQuery[] = [];
  const gold: boolean[][] = [];
  for (let i = 0; i < 60; i++) {
    const rel = Array.from({ length: 10 }, () => rnd() < 0.3);
    const good = [...rel.keys()].sort((a, b) => Number(rel[b]) - Number(rel[a]) || a - b);
    const identity = [...rel.keys()];
    const informative = i % 5 === 0;
    queries.push({ id: `q${i}`, size: 10, rankings: informative ? [good, [...good].reverse()] : [identity, identity] });
    gold.push(rel);
  }
  return { queries, gold };
}

describe('simulateAnnotator', () => {
  const { queries, gold } = lopsidedPool();

  it('every order ends with every label and the full-label order', () => {
    for (const order of QUERY_ORDERS) {
      if (order === 'decide-rankers-mtc') continue; // candidate-level: simulate-candidates.ts (certified.test.ts)
      const r = simulateAnnotator(queries, gold, order, { seed: 3 });
      expect(r.totalLabels).toBe(600);
      expect(r.labelsToOrder).not.toBeNull();
      expect(r.labelsToOrder!).toBeLessThanOrEqual(600);
    }
  });

  it('decide-rankers decides the better ranker with fewer labels than random when most queries cannot tell them apart', () => {
    const mean = (order: 'random' | 'decide-rankers') => {
      let s = 0;
      for (let seed = 1; seed <= 12; seed++) {
        const r = simulateAnnotator(queries, gold, order, { seed });
        expect(r.decidedCorrectly).toBe(true);
        s += r.labelsToDecide!;
      }
      return s / 12;
    };
    const random = mean('random');
    const decide = mean('decide-rankers');
    expect(decide).toBeLessThan(0.8 * random);
  });

  it('with every query labeled the standing is the full-label MAPs, exact, and decided', () => {
    const maps = fullMaps(queries, gold);
    expect(maps[0]).toBeGreaterThan(maps[1]!);
    const draws = queries.map((q, i) => ({ aps: apsOf(q, gold[i]!), p: 0.5 }));
    const standing = rankerStanding(draws, queries.length);
    expect(standing.maps.map((m) => m.mean)).toEqual(maps);
    expect(standing.maps.every((m) => m.se === 0)).toBe(true);
    expect(standing.best).toBe(0);
    expect(standing.decided).toBe(true);
  });
});

describe('kendallTau', () => {
  it('1 for the same order, −1 reversed, ties count as neither', () => {
    expect(kendallTau([1, 2, 3], [10, 20, 30])).toBe(1);
    expect(kendallTau([1, 2, 3], [3, 2, 1])).toBe(-1);
    expect(kendallTau([1, 1, 2], [1, 2, 3])).toBeCloseTo(2 / 3, 12);
  });
});

describe('RankLogitModel', () => {
  it('learns which ranker to trust: P(relevant) follows the informative ranker, not the other', async () => {
    const { RankLogitModel, RelevanceModel } = await import('./pool-model');
    const rnd = mulberry32(9);
    const model = new RankLogitModel();
    const buckets = new RelevanceModel();
    // Ranker 0 puts the relevant candidates first; ranker 1 orders at random.
    const make = (): { q: ActiveQuery; rel: boolean[] } => {
      const rel = Array.from({ length: 10 }, () => rnd() < 0.3);
      const good = [...rel.keys()].sort((a, b) => Number(rel[b]) - Number(rel[a]) || a - b);
      const noise = [...rel.keys()].sort(() => rnd() - 0.5);
      return { q: { id: 'q', size: 10, rankings: [good, noise] }, rel };
    };
    for (let i = 0; i < 30; i++) {
      const { q, rel } = make();
      model.observe(q, rel);
      buckets.observe(q, rel);
    }
    let logLoss = 0;
    let bucketLoss = 0;
    for (let i = 0; i < 30; i++) {
      const { q, rel } = make();
      const p = model.predict(q);
      const b = buckets.predict(q);
      rel.forEach((r, c) => {
        logLoss -= Math.log(r ? p[c]! : 1 - p[c]!);
        bucketLoss -= Math.log(r ? b[c]! : 1 - b[c]!);
      });
    }
    expect(logLoss).toBeLessThan(0.7 * bucketLoss);
  });
});
