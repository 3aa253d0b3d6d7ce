import { describe, expect, it } from 'vitest';
import { planAssignment } from './assign';

const queries = Array.from({ length: 30 }, (_, i) => `q${i}`);

describe('planAssignment', () => {
  it('full overlap gives everyone every query', () => {
    const p = planAssignment(queries, ['a', 'b'], null);
    expect(p.size).toBe(30);
    expect([...p.values()].every((l) => l.join() === 'a,b')).toBe(true);
  });

  it('k per query: balanced, k distinct annotators each, reproducible by seed', () => {
    const ann = ['a', 'b', 'c', 'd'];
    const p = planAssignment(queries, ann, 2, 7);
    const load = new Map(ann.map((x) => [x, 0]));
    const pairs = new Set<string>();
    for (const l of p.values()) {
      expect(l).toHaveLength(2);
      expect(new Set(l).size).toBe(2);
      for (const x of l) load.set(x, load.get(x)! + 1);
      pairs.add(l.join('+'));
    }
    expect([...load.values()].every((n) => n === 15)).toBe(true);
    expect(pairs.size).toBeGreaterThan(2); // annotators are paired with different partners
    expect(planAssignment(queries, ann, 2, 7)).toEqual(p);
    expect(planAssignment(queries, ann, 2, 8)).not.toEqual(p);
  });

  it('rejects bad plans', () => {
    expect(() => planAssignment(queries, [], null)).toThrow(/at least one annotator/);
    expect(() => planAssignment(queries, ['a', 'a'], null)).toThrow(/twice/);
    expect(() => planAssignment(queries, ['a', 'b'], 3)).toThrow(/only 2 annotators/);
    expect(() => planAssignment(queries, ['a', 'b'], 0)).toThrow(/positive/);
  });
});
