import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AGGREGATE, type StatView } from '../../shared/gold';
import type { LabelScheme } from '../../shared/labels';
import { agreementReport, bootstrapByQuery, fleissKappa, gwetAC1, krippendorffAlpha, percentAgreement, type RatingTable } from '../agreement';
import { evaluatePool } from '../engine/evaluate';
import { runImport } from '../engine/work';
import { holm } from '../stats';
import { readFixture } from '../stats/testing';
import { Workspace } from '../workspace/workspace';
import { openWorkspaceDb } from '../workspace/db';
import { MIGRATIONS, SCHEMA_VERSION } from '../workspace/migrations';
import { dataset } from '../../../tests/datasets';
import {
  aggregationSummary,
  assignPool,
  assignmentView,
  comparePoolRuns,
  defaultLabelSource,
  getAggregation,
  loadPoolState,
  poolAgreement,
  reviewPair,
  reviewQueue,
  setAggregation,
  setAnnotatorRole,
  addAnnotator,
} from '.';

let dir: string;
let ws: Workspace;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-gold-'));
  ws = Workspace.create(path.join(dir, 'g.qpairs'));
});
afterEach(() => {
  ws.close();
  rmSync(dir, { recursive: true, force: true });
});

function label(pool: string, q: string, c: string, annotator: string, value: string | null): void {
  ws.addLabel({ pool, queryId: q, candidateId: c, annotator, value, origin: 'test' });
}

function run(pool: string, name: string, scores: Record<string, Record<string, number>>): void {
  const id = ws.ensureRun(pool, name, 'test');
  for (const [q, m] of Object.entries(scores)) for (const [c, s] of Object.entries(m)) ws.setRunScore(id, q, c, s);
}

const TOL = 1e-9;
function close(actual: StatView, expected: number | null, what: string): void {
  if (expected === null) expect(actual.value, what).toBeNull();
  else {
    expect(actual.value, what).not.toBeNull();
    expect(Math.abs(actual.value! - expected), `${what}: ${actual.value} vs ${expected}`).toBeLessThanOrEqual(TOL);
  }
}

describe('migration 2', () => {
  it('upgrades a schema-1 workspace: pools keep their data and get the adjudicated rule', () => {
    const p = path.join(dir, 'v1.qpairs');
    const db = openWorkspaceDb(p, { create: true, migrations: MIGRATIONS.slice(0, 1) });
    db.prepare(`INSERT INTO pools(name, scheme, created) VALUES ('old', 'likert5', '2024-01-01')`).run();
    db.close();
    const up = Workspace.open(p);
    try {
      expect(up.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(up.pool('old')).toMatchObject({ scheme: 'likert5', aggregation: 'adjudicated', aggregation_threshold: 0 });
      up.addPoolQuery('old', 'q', ['c']);
      assignPool(up, 'old', ['a', 'b'], 1, 3);
      expect(up.db.prepare(`SELECT count(*) AS n FROM pool_assignments`).get()).toEqual({ n: 1 });
      expect(() => up.db.prepare(`UPDATE pools SET aggregation = 'vote'`).run()).toThrow(/CHECK/);
    } finally {
      up.close();
    }
  });
});

describe('agreement over a pool', () => {
  const cases: Array<[string, LabelScheme]> = [
    ['likert5.json', 'likert5'],
    ['semeval_3way.json', 'semeval3'],
    ['binary_missing.json', 'binary'],
  ];
  for (const [file, scheme] of cases) {
    it(`rebuilds the ${file} fixture from the label history and matches the reference values`, () => {
      const fx = readFixture('agreement', file);
      ws.createPool({ name: 'p', scheme });
      const byQuery = new Map<string, string[]>();
      for (const it of fx.items) byQuery.set(it.queryId, [...(byQuery.get(it.queryId) ?? []), it.id]);
      for (const [q, cs] of byQuery) ws.addPoolQuery('p', q, cs);
      ws.transaction(() => {
        for (const it of fx.items) {
          it.labels.forEach((l: number | string | null, j: number) => {
            if (l !== null) label('p', it.queryId, it.id, fx.annotators[j], String(l));
          });
        }
      });
      // An unsure label is a missing label, as in the fixture.
      const extra = fx.items.find((it: { labels: unknown[] }) => it.labels[0] === null);
      if (extra) label('p', extra.queryId, extra.id, fx.annotators[0], '?');

      const v = poolAgreement(ws, 'p', { annotators: fx.annotators, bootstrap: 50, seed: 3 });
      const e = fx.expected;
      expect(v.items).toBe(fx.items.length);
      close(v.percentAgreement, e.percentAgreement, 'percent');
      close(v.fleissKappa, e.fleissKappa.value, 'fleiss');
      close(v.krippendorffAlpha.nominal, e.krippendorffAlpha.nominal, 'alpha nominal');
      close(v.krippendorffAlpha.ordinal, e.krippendorffAlpha.ordinal, 'alpha ordinal');
      close(v.krippendorffAlpha.interval, e.krippendorffAlpha.interval, 'alpha interval');
      close(v.gwetAC1, e.gwetAC1, 'AC1');
      expect(v.pairs.map((p) => [p.a, p.b, p.items])).toEqual(e.pairs.map((p: { a: string; b: string; items: number }) => [p.a, p.b, p.items]));
      v.pairs.forEach((p, k) => {
        const x = e.pairs[k];
        close(p.cohenKappa, x.cohenKappa, 'kappa');
        close(p.cohenKappaLinear, x.cohenKappaLinear, 'linear');
        close(p.cohenKappaQuadratic, x.cohenKappaQuadratic, 'quadratic');
        close(p.psa, x.psa, 'psa');
        expect(p.confusion).toEqual(x.confusion);
      });
      // Same as the pure functions on the table (categories as stored strings).
      const table: RatingTable = {
        categories: fx.categories.map(String),
        annotators: fx.annotators,
        items: fx.items.map((it: { id: string; queryId: string; labels: unknown[] }) => ({ ...it, labels: it.labels.map((l) => (l === null ? null : String(l))) })),
      };
      if (scheme === 'likert5') table.scale = fx.categories;
      const r = agreementReport(table, { resamples: 50, seed: 3 });
      expect(v.pairs.map((p) => p.ci95)).toEqual(r.pairs.map((p) => p.ci95));
      // Per-query disagreements name every annotator's label.
      const dq = v.perQuery.find((q) => q.disagreements.length > 0)!;
      expect(Object.keys(dq.disagreements[0]!.labels).length).toBeGreaterThanOrEqual(2);
      // Agreement over time ends at the whole pool.
      const last = v.overTime.at(-1)!;
      expect(last.queries).toBe(v.queries);
      close(last.fleissKappa, e.fleissKappa.value, 'fleiss over time');
      expect(v.ci95.fleissKappa).toEqual(bootstrapByQuery(table, (t) => fleissKappa(t), { resamples: 50, seed: 3 }));
      expect(v.ci95.krippendorffAlpha).toEqual(bootstrapByQuery(table, (t) => krippendorffAlpha(t), { resamples: 50, seed: 3 }));
      expect(v.ci95.krippendorffAlphaOrdinal).toEqual(bootstrapByQuery(table, (t) => krippendorffAlpha(t, 'ordinal'), { resamples: 50, seed: 3 }));
      expect(v.ci95.krippendorffAlphaInterval).toEqual(bootstrapByQuery(table, (t) => krippendorffAlpha(t, 'interval'), { resamples: 50, seed: 3 }));
      expect(v.ci95.percentAgreement).toEqual(bootstrapByQuery(table, (t) => percentAgreement(t), { resamples: 50, seed: 3 }));
      expect(v.ci95.fleissKappa.value![0]).toBeLessThanOrEqual(fleissKappa(table).value!);
      expect(v.ci95.gwetAC1.value![1]).toBeGreaterThanOrEqual(gwetAC1(table).value!);
      expect(krippendorffAlpha(table, 'interval').value).toBeCloseTo(v.krippendorffAlpha.interval.value!, 12);
    });
  }

  it('undefined statistics carry a reason; two annotators give Cohen over time', () => {
    ws.createPool({ name: 'p' });
    ws.addPoolQuery('p', 'q1', ['a', 'b']);
    ws.addPoolQuery('p', 'q2', ['c', 'd']);
    for (const c of ['a', 'b']) {
      label('p', 'q1', c, 'x', '1');
      label('p', 'q1', c, 'y', '1');
    }
    label('p', 'q2', 'c', 'x', '0');
    label('p', 'q2', 'c', 'y', '1');
    const v = poolAgreement(ws, 'p', { bootstrap: 20 });
    expect(v.annotators).toEqual(['x', 'y']);
    expect(v.overTime.map((p) => p.queries)).toEqual([1, 2]);
    expect(v.overTime[0]!.cohenKappa).toMatchObject({ value: null, reason: expect.any(String) });
    expect(v.overTime[0]!.percentAgreement.value).toBe(1);
    expect(v.overTime[1]!.percentAgreement.value).toBeCloseTo(2 / 3, 12);
    expect(() => poolAgreement(ws, 'p', { annotators: ['x', 'nobody'] })).toThrow(/no annotator named "nobody"/);
  });
});

describe('assignment, aggregate and review queue', () => {
  /** q1: a b c d ranked by r1 a>b>c>d and r2 d>c>b>a; q2: e f all agreed. */
  function twoAnnotatorPool(): void {
    ws.createPool({ name: 'p' });
    ws.addPoolQuery('p', 'q1', ['a', 'b', 'c', 'd']);
    ws.addPoolQuery('p', 'q2', ['e', 'f']);
    run('p', 'r1', { q1: { a: 4, b: 3, c: 2, d: 1 }, q2: { e: 2, f: 1 } });
    run('p', 'r2', { q1: { a: 1, b: 2, c: 3, d: 4 }, q2: { e: 1, f: 2 } });
    assignPool(ws, 'p', ['x', 'y'], null);
    const labels: Record<string, [string, string]> = { a: ['1', '1'], b: ['1', '0'], c: ['0', '0'], d: ['0', '1'] };
    for (const [c, [vx, vy]] of Object.entries(labels)) {
      label('p', 'q1', c, 'x', vx);
      label('p', 'q1', c, 'y', vy);
    }
    for (const c of ['e', 'f']) {
      label('p', 'q2', c, 'x', c === 'e' ? '1' : '0');
      label('p', 'q2', c, 'y', c === 'e' ? '1' : '0');
    }
    addAnnotator(ws, 'judy', 'judge');
  }

  it('orders disagreements by the most they can move MAP (Σ runs |ΔAP| / queries) and shrinks as the judge settles', () => {
    twoAnnotatorPool();
    const q = reviewQueue(ws, 'p', 'judy');
    expect(q).toMatchObject({ total: 2, settled: 0, remaining: 2, rule: 'adjudicated', values: ['1', '0'] });
    expect(q.items.map((i) => i.candidateId)).toEqual(['d', 'b']);
    // d: r1 AP 0.75 vs 1, r2 0.75 vs 0.25 → (0.25 + 0.5) / 2 queries
    const d = reviewPair(ws, 'p', 'judy', q.items[0]!.queryId, 'd');
    expect(d.apChange.r1).toBeCloseTo(0.25, 12);
    expect(d.apChange.r2).toBeCloseTo(0.5, 12);
    expect(q.items[0]!.impact).toBeCloseTo(0.375, 12);
    // b: r1 no change, r2 (1/3 + 1/2)/2 vs 1/4
    expect(q.items[1]!.impact).toBeCloseTo((5 / 12 - 1 / 4) / 2, 12);
    expect(q.items[0]!.labels).toEqual([{ annotator: 'x', value: '0' }, { annotator: 'y', value: '1' }]);

    label('p', 'q1', 'd', 'judy', '1');
    const q2 = reviewQueue(ws, 'p', 'judy');
    expect(q2).toMatchObject({ total: 2, settled: 1, remaining: 1 });
    expect(q2.items.map((i) => i.candidateId)).toEqual(['b']);
    // d now relevant in the aggregate: r1 (1+1+3/4)/3 vs 3/4, r2 (1+2/3+3/4)/3 vs 3/4.
    expect(q2.items[0]!.impact).toBeCloseTo((11 / 12 - 3 / 4 + (29 / 36 - 3 / 4)) / 2, 12);
    expect(reviewQueue(ws, 'p', 'judy', { includeSettled: true }).items.map((i) => [i.candidateId, i.settled?.value ?? null])).toEqual([
      ['d', '1'],
      ['b', null],
    ]);

    // Only judges, not the pool's own annotators, may review.
    expect(() => reviewQueue(ws, 'p', 'x')).toThrow(/not a judge/);
    setAnnotatorRole(ws, 'x', 'judge');
    expect(() => reviewQueue(ws, 'p', 'x')).toThrow(/annotates pool "p"/);
    expect(() => reviewQueue(ws, 'p', 'nobody')).toThrow(/no annotator named/);
  });

  it('the aggregate follows the rule and feeds eval; gold stays the default when present', () => {
    twoAnnotatorPool();
    expect(defaultLabelSource(ws, 'p')).toBe(AGGREGATE);
    let s = aggregationSummary(loadPoolState(ws, 'p'));
    expect(s).toMatchObject({ rule: 'adjudicated', pairs: 6, labeled: 6, resolved: 4, unresolved: 2, disagreements: 2, settled: 0 });
    expect(s.distribution).toEqual({ '1': 2, '0': 2 });
    label('p', 'q1', 'b', 'judy', '0');
    label('p', 'q1', 'd', 'judy', '1');
    s = aggregationSummary(loadPoolState(ws, 'p'));
    expect(s).toMatchObject({ resolved: 6, unresolved: 0, settled: 2, byStatus: { agreed: 4, adjudicated: 2 } });

    const ev = evaluatePool(ws, { pool: 'p', convention: 'skip', ties: 'pool-order', threshold: 1 });
    expect(ev.annotator).toBe(AGGREGATE);
    // Aggregate q1: a, d relevant. r1 a,b,c,d → (1 + 2/4)/2; r2 d,c,b,a → (1 + 2/4)/2. q2: e relevant; r1 1, r2 1/2.
    expect(ev.runs.r1!.MAP).toBeCloseTo((0.75 + 1) / 2, 12);
    expect(ev.runs.r2!.MAP).toBeCloseTo((0.75 + 0.5) / 2, 12);
    const x = evaluatePool(ws, { pool: 'p', annotator: 'x', convention: 'skip', ties: 'pool-order', threshold: 1 });
    expect(x.annotator).toBe('x');

    // Unanimous ignores the judge: q1 b and d unresolved again.
    setAggregation(ws, 'p', 'unanimous');
    expect(aggregationSummary(loadPoolState(ws, 'p'))).toMatchObject({ resolved: 4, unresolved: 2 });
    expect(reviewQueue(ws, 'p', 'judy').note).toMatch(/ignores judges/);
    // Majority with two annotators: ties stay unresolved unless judged.
    setAggregation(ws, 'p', 'majority');
    expect(aggregationSummary(loadPoolState(ws, 'p'))).toMatchObject({ resolved: 6, byStatus: { adjudicated: 2 } });

    label('p', 'q1', 'a', 'gold', '1');
    expect(defaultLabelSource(ws, 'p')).toBe('gold');
  });

  it('mean rule on a Likert pool with three annotators', () => {
    ws.createPool({ name: 'l', scheme: 'likert5' });
    ws.addPoolQuery('l', 'q', ['a', 'b', 'c']);
    const votes: Record<string, string[]> = { a: ['2', '-1', '0'], b: ['1', '-1', '0'], c: ['-2', '-2', '-2'] };
    for (const [c, vs] of Object.entries(votes)) vs.forEach((v, j) => label('l', 'q', c, `u${j}`, v));
    setAggregation(ws, 'l', 'mean');
    const st = loadPoolState(ws, 'l');
    expect(st.pairs.map((e) => [e.candidateId, e.resolution.value, e.resolution.mean])).toEqual([
      ['a', '1', 1 / 3],
      ['b', '0', 0],
      ['c', '-2', -2],
    ]);
    setAggregation(ws, 'l', 'mean', -0.5);
    expect(loadPoolState(ws, 'l').pairs.map((e) => e.resolution.value)).toEqual(['1', '1', '-2']);
  });

  it('mean rule on a binary pool: switching to it takes 0.5, so one "similar" of three does not make a pair relevant', () => {
    ws.createPool({ name: 'bm', scheme: 'binary' });
    ws.addPoolQuery('bm', 'q', ['a', 'b', 'c']);
    const votes: Record<string, string[]> = { a: ['1', '0', '0'], b: ['1', '1', '0'], c: ['1', '1', '1'] };
    for (const [c, vs] of Object.entries(votes)) vs.forEach((v, j) => label('bm', 'q', c, `u${j}`, v));
    // Before: the stored threshold of another rule (0) came along, and 1, 0, 0 (mean 0.33) was relevant.
    expect(setAggregation(ws, 'bm', 'mean')).toEqual({ rule: 'mean', threshold: 0.5 });
    expect(loadPoolState(ws, 'bm').pairs.map((e) => [e.candidateId, e.resolution.value])).toEqual([
      ['a', '0'],
      ['b', '1'],
      ['c', '1'],
    ]);
    // A threshold given is kept, also when the rule is set again without one; a switch away and back takes the default again.
    setAggregation(ws, 'bm', 'mean', 0);
    setAggregation(ws, 'bm', 'mean');
    expect(loadPoolState(ws, 'bm').threshold).toBe(0);
    setAggregation(ws, 'bm', 'majority');
    expect(setAggregation(ws, 'bm', 'mean').threshold).toBe(0.5);
    // A threshold with another rule did nothing and was lost at the next switch to mean: it is refused, nothing changes.
    setAggregation(ws, 'bm', 'majority');
    expect(() => setAggregation(ws, 'bm', 'majority', 2)).toThrow(/applies to the mean rule only.*pool "bm" would use rule majority/);
    expect(getAggregation(ws, 'bm')).toEqual({ rule: 'majority', threshold: 0.5 });
    // A threshold outside the scheme's grades made every voted pair relevant (below the lowest) or none (at the highest or above): refused, nothing changes.
    expect(() => setAggregation(ws, 'bm', 'mean', -0.5)).toThrow(/threshold -0\.5 would make every voted pair similar in pool "bm": its binary grades run from 0 to 1/);
    expect(() => setAggregation(ws, 'bm', 'mean', 1)).toThrow(/threshold 1 would make no pair similar in pool "bm".*from 0 up to \(not including\) 1/);
    expect(getAggregation(ws, 'bm')).toEqual({ rule: 'majority', threshold: 0.5 });
    ws.createPool({ name: 'lk5', scheme: 'likert5' });
    expect(() => setAggregation(ws, 'lk5', 'mean', 2)).toThrow(/no pair similar.*likert5 grades run from -2 to 2/);
    expect(setAggregation(ws, 'lk5', 'mean', -2)).toEqual({ rule: 'mean', threshold: -2 });
    ws.createPool({ name: 'gr', scheme: 'graded' });
    expect(setAggregation(ws, 'gr', 'mean', 7)).toEqual({ rule: 'mean', threshold: 7 }); // graded: any integer grade
  });

  it('k annotators per query: only assignees vote, each sees their own progress', () => {
    ws.createPool({ name: 'k' });
    for (let i = 0; i < 6; i++) ws.addPoolQuery('k', `q${i}`, [`c${i}a`, `c${i}b`]);
    assignPool(ws, 'k', ['a', 'b', 'c'], 2, 5);
    const view = assignmentView(ws, 'k', 'a');
    expect(view).toMatchObject({ mode: 'per-query', perQuery: 2, seed: 5, annotators: ['a', 'b', 'c'] });
    expect(view.progress.map((p) => p.assignedQueries)).toEqual([4, 4, 4]);
    expect(view.queries).toHaveLength(4);
    const st = loadPoolState(ws, 'k');
    const q = view.queries![0]!;
    const other = ['a', 'b', 'c'].find((n) => !st.plan.perQueryAnnotators!.get(q)!.includes(n))!;
    label('k', q, `c${q.slice(1)}a`, 'a', '1');
    label('k', q, `c${q.slice(1)}b`, 'a', '0');
    label('k', q, `c${q.slice(1)}a`, other, '0'); // not assigned: does not vote
    const e = loadPoolState(ws, 'k').pairs.find((x) => x.queryId === q && x.candidateId.endsWith('a'))!;
    expect(e.votes.map((v) => v.annotator)).toEqual(['a']);
    expect(e.complete).toBe(false);
    expect(assignmentView(ws, 'k').progress.find((p) => p.annotator === 'a')).toMatchObject({ doneQueries: 1, labeledPairs: 2, assignedPairs: 8 });
    expect(view.assigned).toBe(true);
    // Someone the pool does not assign gets the plan, marked so, with no queries and no progress row.
    expect(assignmentView(ws, 'k', 'zed')).toMatchObject({ mode: 'per-query', annotators: ['a', 'b', 'c'], assigned: false, queries: [] });
    expect(assignmentView(ws, 'k', 'zed').progress.map((p) => p.annotator)).toEqual(['a', 'b', 'c']);
    expect(() => assignPool(ws, 'k', ['a', 'gold'], null)).toThrow(/gold role/);
    expect(() => assignPool(ws, 'k', ['a', '@aggregate'], null)).toThrow(/reserved/);
  });

  it('gold and system are reserved: no person gets those roles, and the gold or system sources stay what they are', () => {
    twoAnnotatorPool();
    for (const c of ['a', 'b']) label('p', 'q1', c, 'gold', '1');
    addAnnotator(ws, 'ref', 'system'); // a new label source may be added as such
    expect(defaultLabelSource(ws, 'p')).toBe('gold');
    // A person never becomes gold (their labels would become the pool's gold) or system.
    expect(() => setAnnotatorRole(ws, 'x', 'gold')).toThrow(/the role "gold" is reserved .*a person's role is annotator, judge, owner/);
    expect(() => setAnnotatorRole(ws, 'judy', 'system')).toThrow(/the role "system" is reserved/);
    expect(() => addAnnotator(ws, 'x', 'gold')).toThrow(/reserved/);
    // …nor does gold or a system source become a person.
    expect(() => setAnnotatorRole(ws, 'gold', 'annotator')).toThrow(/"gold" is not a person: it holds imported gold labels \(role gold\)/);
    expect(() => setAnnotatorRole(ws, 'gold', 'owner')).toThrow(/not a person/);
    expect(() => setAnnotatorRole(ws, 'ref', 'judge')).toThrow(/"ref" is not a person: it holds a reference system's labels/);
    expect(() => addAnnotator(ws, 'gold', 'judge')).toThrow(/not a person/);
    expect(ws.listAnnotators().map((a) => `${a.name}:${a.role}`)).toEqual(['x:annotator', 'y:annotator', 'judy:judge', 'gold:gold', 'ref:system']);
    // Unchanged roles and person roles still go through.
    expect(setAnnotatorRole(ws, 'gold', 'gold')).toBe('gold');
    expect(setAnnotatorRole(ws, 'x', 'owner')).toBe('owner');
    expect(setAnnotatorRole(ws, 'x', 'annotator')).toBe('annotator');
    expect(defaultLabelSource(ws, 'p')).toBe('gold');
  });
});

describe('comparing rankers on the AskUbuntu dev pool', () => {
  it('bm25-lucene vs a reversed and a random run: differences, CIs, p-values in [0, 1], Holm', async () => {
    await runImport(ws, 'askubuntu-pool', [dataset('askubuntu/dev.txt')]);
    const lucene = ws.listRuns('dev').find((r) => r.name === 'bm25-lucene')!;
    const scores = ws.runScores(lucene.id);
    const rev = ws.ensureRun('dev', 'reversed', 'test');
    const rnd = ws.ensureRun('dev', 'random', 'test');
    let seed = 12345;
    const next = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    ws.transaction(() => {
      for (const [q, m] of scores) {
        for (const [c, s] of m) {
          ws.setRunScore(rev, q, c, -s);
          ws.setRunScore(rnd, q, c, next());
        }
      }
    });
    const v = comparePoolRuns(ws, 'dev', { runs: ['bm25-lucene', 'reversed', 'random'], bootstrap: 300, permutations: 2000, seed: 9 });
    expect(v.annotator).toBe('gold');
    expect(v.queries).toBe(189);
    expect((100 * v.runs[0]!.mean.value!).toFixed(2)).toBe('52.03');
    expect(v.pairs.map((p) => `${p.a}-${p.b}`)).toEqual(['bm25-lucene-reversed', 'bm25-lucene-random', 'reversed-random']);
    for (const p of v.pairs) {
      for (const s of [p.pT, p.pPermutation, p.pHolmT, p.pHolmPermutation]) {
        expect(s.value).not.toBeNull();
        expect(s.value!).toBeGreaterThanOrEqual(0);
        expect(s.value!).toBeLessThanOrEqual(1);
      }
      expect(p.pHolmT.value!).toBeGreaterThanOrEqual(p.pT.value!);
      expect(p.ci95.value![0]).toBeLessThanOrEqual(p.meanDiff.value!);
      expect(p.ci95.value![1]).toBeGreaterThanOrEqual(p.meanDiff.value!);
    }
    const h = holm(v.pairs.map((p) => p.pT.value!));
    expect(v.pairs.map((p) => p.pHolmT.value)).toEqual(h.adjusted);
    expect(v.pairs[0]!.meanDiff.value!).toBeGreaterThan(0.1); // BM25 beats its reverse
    expect(v.pairs[0]!.rejectT).toBe(true);
    expect(v.pairs[0]!.rejectPermutation).toBe(true);
    // Deterministic for a seed; another metric.
    expect(comparePoolRuns(ws, 'dev', { runs: ['bm25-lucene', 'reversed', 'random'], bootstrap: 300, permutations: 2000, seed: 9 })).toEqual(v);
    const rr = comparePoolRuns(ws, 'dev', { runs: ['bm25-lucene', 'random'], metric: 'RR', bootstrap: 100, permutations: 100 });
    expect((100 * rr.runs[0]!.mean.value!).toFixed(2)).toBe('65.99');
    expect(() => comparePoolRuns(ws, 'dev', { runs: ['bm25-lucene'] })).toThrow(/two runs/);
    expect(() => comparePoolRuns(ws, 'dev', { runs: ['bm25-lucene', 'nope'] })).toThrow(/no run "nope"/);
  });
});
