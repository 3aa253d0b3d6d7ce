import { describe, expect, it } from 'vitest';
import { meanAveragePrecision, permutationImportance } from './permutation-importance';
import { Rng } from './rng';

describe('within-query permutation importance', () => {
  const rng = new Rng(5);
  const lists = Array.from({ length: 30 }, () => {
    const rel = [1, 0, 0, 0, 0, 0, 0, 0];
    return { rows: rel.map((y) => [y + 0.1 * rng.next(), rng.next(), 0.3]), rel };
  });
  const byFirst = (r: ArrayLike<number>) => r[0];

  it('MAP of the lists (AP = 0 without relevant candidates)', () => {
    expect(meanAveragePrecision(lists, byFirst)).toBe(1);
    expect(meanAveragePrecision([{ rows: [[1], [0]], rel: [0, 0] }], byFirst)).toBe(0);
    expect(meanAveragePrecision([{ rows: [[0], [1]], rel: [1, 0] }], byFirst)).toBe(0.5);
  });

  it('the feature that decides the ranking is the important one; unused features score 0', () => {
    const imp = permutationImportance(lists, byFirst, ['answer', 'noise', 'constant'], { repeats: 3, seed: 2 });
    expect(imp.map((x) => x.feature)).toEqual(['answer', 'noise', 'constant']);
    expect(imp[0].importance).toBeGreaterThan(0.4);
    expect(imp[1].importance).toBe(0);
    expect(imp[2].importance).toBe(0);
  });
});
