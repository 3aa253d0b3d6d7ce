import { describe, expect, it } from 'vitest';
import {
  estimatedJaccard,
  exactJaccard,
  findOverlap,
  fingerprint,
  RECENT_TEXTS,
  groupedFolds,
  minhashSignature,
  nearDuplicateClusters,
  normaliseQuestionText,
  shingleHashes,
  bandRows,
  NEAR_DUPLICATE_JACCARD,
} from './index';
import { QPairsError } from '../errors';

const words = (n: number, prefix = 'w') => Array.from({ length: n }, (_, i) => `${prefix}${i}`).join(' ');

describe('text normalisation and shingles', () => {
  it('lowercases, strips punctuation and collapses whitespace', () => {
    expect(normaliseQuestionText('  Visa?  Renewal!', 'How long\n\ttakes it… (QID)')).toBe('visa renewal how long takes it qid');
    expect(normaliseQuestionText('Café', 'ｆｕｌｌ-width')).toBe('café full width');
    expect(normaliseQuestionText('', '')).toBe('');
  });

  it('hashes word 3-shingles, sorted and without repeats', () => {
    const s = shingleHashes('a b c d a b c');
    // a b c | b c d | c d a | d a b | a b c (again)
    expect(s).toHaveLength(4);
    expect([...s]).toEqual([...s].sort((x, y) => x - y));
    expect(shingleHashes('one two')).toHaveLength(1);
    expect(shingleHashes('')).toHaveLength(0);
    expect(shingleHashes('a b c', 1)).toHaveLength(3);
    // Word order counts: the same words in another order are other shingles.
    expect(exactJaccard(shingleHashes('a b c d'), shingleHashes('d c b a'))).toBe(0);
  });

  it('exact Jaccard of shingle sets', () => {
    const a = shingleHashes(words(12)); // 10 shingles
    const b = shingleHashes(words(11)); // 9 of them
    expect(exactJaccard(a, a)).toBe(1);
    expect(exactJaccard(a, b)).toBeCloseTo(9 / 10, 12);
    expect(exactJaccard(a, shingleHashes(words(12, 'x')))).toBe(0);
    expect(exactJaccard(new Uint32Array(0), new Uint32Array(0))).toBe(0);
  });
});

describe('MinHash', () => {
  it('estimates Jaccard: 1 for equal sets, near the truth otherwise, seeded', () => {
    const a = shingleHashes(words(400));
    const b = shingleHashes(words(400).replace(/w(\d*)5 /g, 'v$15 ')); // every tenth word changed
    const truth = exactJaccard(a, b);
    expect(truth).toBeGreaterThan(0.5);
    expect(truth).toBeLessThan(0.9);
    const sa = minhashSignature(a, 512, 7);
    const sb = minhashSignature(b, 512, 7);
    expect(estimatedJaccard(sa, sa)).toBe(1);
    expect(Math.abs(estimatedJaccard(sa, sb) - truth)).toBeLessThan(0.07); // > 3 standard errors
    expect(minhashSignature(a, 512, 7)).toEqual(sa);
    expect(minhashSignature(a, 512, 8)).not.toEqual(sa);
    expect(estimatedJaccard(minhashSignature(a), minhashSignature(shingleHashes(words(400, 'x'))))).toBeLessThan(0.05);
  });

  it('bands so that a pair at the threshold is found with probability ≥ 1 − 1e-9', () => {
    const r = bandRows(NEAR_DUPLICATE_JACCARD, 128);
    expect(r).toBe(5);
    expect((1 - 0.9 ** r) ** Math.floor(128 / r)).toBeLessThanOrEqual(1e-9);
    expect((1 - 0.9 ** (r + 1)) ** Math.floor(128 / (r + 1))).toBeGreaterThan(1e-9);
  });
});

describe('near-duplicate clusters', () => {
  const base = words(60);
  const near = base.replace('w30', 'changed'); // one word: 3 of 58 shingles differ → J = 55/61
  const item = (id: string, body: string, title = 'T') => ({ id, title, body });

  it('joins identical, same-text and near-duplicate questions, not different ones', () => {
    expect(exactJaccard(shingleHashes(normaliseQuestionText('T', base)), shingleHashes(normaliseQuestionText('T', near)))).toBeGreaterThanOrEqual(0.9);
    const c = nearDuplicateClusters([
      item('a', base),
      item('b', base.toUpperCase().replace(/ /g, ',  ')), // same normalised text
      item('c', near),
      item('d', words(60, 'x')),
      item('e', ''),
      item('f', '', ''),
      item('g', '', ''), // empty texts are not "the same text"
      item('a', 'the same id again, other text'),
    ]);
    expect(c.get('a')).toBe(c.get('b'));
    expect(c.get('a')).toBe(c.get('c'));
    expect(c.get('d')).not.toBe(c.get('a'));
    expect(c.get('f')).not.toBe(c.get('g'));
    expect(new Set(c.values()).size).toBe(5); // {a,b,c} {d} {e} {f} {g}
    expect([...c.values()]).toEqual([0, 0, 0, 1, 2, 3, 4]); // numbered by first appearance
  });

  it('is transitive: A≈B and B≈C cluster A with C although A and C are below the threshold', () => {
    const a = words(100);
    const b = a.replace('w20 ', 'z20 ');
    const cText = b.replace('w70 ', 'z70 ');
    const ac = exactJaccard(shingleHashes(normaliseQuestionText('', a)), shingleHashes(normaliseQuestionText('', cText)));
    const threshold = 0.92;
    expect(ac).toBeLessThan(threshold);
    const c = nearDuplicateClusters([item('A', a, ''), item('X', words(100, 'q'), ''), item('C', cText, ''), item('B', b, '')], { threshold });
    expect(c.get('A')).toBe(c.get('C'));
    expect(c.get('B')).toBe(c.get('A'));
    expect(c.get('X')).not.toBe(c.get('A'));
  });

  it('refuses a threshold outside (0, 1]', () => {
    expect(() => nearDuplicateClusters([], { threshold: 0 })).toThrow(QPairsError);
    expect(() => findOverlap([], [], { threshold: 1.5 })).toThrow(/\(0, 1\]/);
  });

  it('handles 2,000 questions in many near-duplicate groups exactly', () => {
    const items = [];
    for (let g = 0; g < 500; g++) {
      const text = words(40, `g${g}_`);
      items.push(item(`q${g}`, text), item(`r${g}`, text.replace(`g${g}_10 `, 'edit ')), item(`s${g}`, `${text} thanks`), item(`t${g}`, words(40, `h${g}_`)));
    }
    const c = nearDuplicateClusters(items);
    expect(new Set(c.values()).size).toBe(1000);
    for (let g = 0; g < 500; g++) {
      expect(c.get(`r${g}`)).toBe(c.get(`q${g}`));
      expect(c.get(`s${g}`)).toBe(c.get(`q${g}`));
      expect(c.get(`t${g}`)).not.toBe(c.get(`q${g}`));
    }
  });
});

describe('findOverlap', () => {
  it('names the strongest reason for each evaluated question that training holds', () => {
    const t = [
      { id: 't1', title: 'Visa renewal', body: words(60) },
      { id: 't2', title: 'Beach', body: words(60, 'b') },
      { id: 'shared', title: 'x', body: 'y' },
      { id: 't3', title: 'Visa renewal', body: words(60).replace('w15', 'z') },
    ];
    const e = [
      { id: 'e1', title: 'VISA renewal!', body: words(60) }, // same text as t1
      { id: 'e2', title: 'Visa renewal', body: words(60).replace('w15', 'zz') }, // near t1 and t3
      { id: 'shared', title: 'other', body: 'text' },
      { id: 'e4', title: 'Something', body: words(60, 'other') },
      { id: 'e5', title: '', body: '' },
    ];
    const m = findOverlap(t, e);
    expect(m.map((x) => [x.query, x.reason, x.trainingId])).toEqual([
      ['e1', 'same-text', 't1'],
      ['e2', 'near-duplicate', 't1'],
      ['shared', 'same-id', 'shared'],
    ]);
    expect(m[0]!.jaccard).toBe(1);
    expect(m[1]!.jaccard).toBeGreaterThanOrEqual(0.9);
    expect(m[1]!.jaccard).toBeLessThan(1);
    expect(m[2]!.jaccard).toBe(0);
    expect(findOverlap(t, e, { threshold: 1 }).map((x) => x.query)).toEqual(['e1', 'shared']);
  });
});

describe('grouped folds', () => {
  const clusterOf = new Map<string, number>();
  // 30 clusters of sizes 1..4.
  let id = 0;
  for (let c = 0; c < 30; c++) for (let j = 0; j <= c % 4; j++) clusterOf.set(`q${id++}`, c);

  it('never splits a cluster, covers every id once, and balances item counts', () => {
    const folds = groupedFolds(clusterOf, 5, 1);
    expect(folds).toHaveLength(5);
    const all = folds.flat();
    expect(all.sort()).toEqual([...clusterOf.keys()].sort());
    const foldOfCluster = new Map<number, number>();
    folds.forEach((f, i) =>
      f.forEach((q) => {
        const c = clusterOf.get(q)!;
        expect(foldOfCluster.get(c) ?? i).toBe(i);
        foldOfCluster.set(c, i);
      }),
    );
    const sizes = folds.map((f) => f.length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(4);
  });

  it('is seeded: the same seed gives the same folds, another seed others', () => {
    expect(groupedFolds(clusterOf, 5, 1)).toEqual(groupedFolds(clusterOf, 5, 1));
    expect(groupedFolds(clusterOf, 5, 2)).not.toEqual(groupedFolds(clusterOf, 5, 1));
  });

  it('refuses more folds than clusters, and fewer than 2', () => {
    expect(() => groupedFolds(clusterOf, 31, 1)).toThrow(/--cv 31 needs at least 31 groups .* only 30/);
    expect(() => groupedFolds(clusterOf, 1, 1)).toThrow(QPairsError);
    expect(groupedFolds(clusterOf, 30, 1).every((f) => new Set(f.map((q) => clusterOf.get(q))).size === 1)).toBe(true);
    // One training query: said in the singular (it read "the 1 training queries form only 1").
    expect(() => groupedFolds(new Map([['q1', 0]]), 2, 1)).toThrow(/^--cv 2 needs at least 2 groups of distinct questions, but there is only 1 training query$/);
  });
});

describe('fingerprints of recent texts', () => {
  it('are kept: the same text under another id is not fingerprinted again, and reads as computed', () => {
    const item = { id: 'a', title: 'Visa renewal kept', body: words(40, 'kept') };
    const first = fingerprint(item);
    const again = fingerprint({ ...item, id: 'b' });
    expect(again.id).toBe('b');
    expect(again.shingles).toBe(first.shingles); // the kept arrays, not a new computation
    expect(again.signature).toBe(first.signature);
    const text = normaliseQuestionText(item.title, item.body);
    expect(again.text).toBe(text);
    expect([...again.shingles]).toEqual([...shingleHashes(text)]);
    expect([...again.signature]).toEqual([...minhashSignature(shingleHashes(text))]);
    // Another title or body is another text.
    expect(fingerprint({ ...item, body: `${item.body} more` }).shingles).not.toBe(first.shingles);
  });

  it(`are kept for the last ${RECENT_TEXTS} texts only`, () => {
    const oldest = { id: 'o', title: 'the oldest text', body: words(20, 'old') };
    const kept = fingerprint(oldest).shingles;
    for (let i = 0; i < RECENT_TEXTS; i++) fingerprint({ id: `x${i}`, title: `filler ${i}`, body: '' });
    const later = fingerprint(oldest);
    expect(later.shingles).not.toBe(kept);
    expect([...later.shingles]).toEqual([...kept]);
    // A text used again stays: it is the newest once more.
    const recent = fingerprint({ id: 'r', title: 'used again', body: '' }).shingles;
    for (let i = 0; i < RECENT_TEXTS; i++) {
      fingerprint({ id: `y${i}`, title: `more filler ${i}`, body: '' });
      if (i === RECENT_TEXTS / 2) expect(fingerprint({ id: 'r2', title: 'used again', body: '' }).shingles).toBe(recent);
    }
    expect(fingerprint({ id: 'r3', title: 'used again', body: '' }).shingles).toBe(recent);
  });
});
