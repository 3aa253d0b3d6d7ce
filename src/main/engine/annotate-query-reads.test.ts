/**
 * annotate.query reads what it shows (annotator-labels.ts): her current labels of the pool kept and
 * brought forward over the label events since, the pool's queries kept while only labels were
 * written, and the others' labels and the runs' scores of the query on screen alone. The answers stay
 * those of a read from scratch through relabels, cleared labels, undos, other annotators' labels,
 * labels deleted (an import undone), another connection's labels, a pool query added, runs replaced,
 * and transactions (read inside them; rolled back).
 */
import { describe, expect, it } from 'vitest';
import { statementsDuring } from '../workspace/test-statements';
import { Workspace } from '../workspace/workspace';
import { livePoolEachTest } from '../training/live-test-pool';
import { annotateQuery, poolProgress } from './annotate';
import { annotatorCurrent, KEPT_CURRENT_MAX, KEPT_QUERIES_MAX, poolQueriesKept, poolRunNames, queryCurrentLabels, queryRunScores } from './annotator-labels';

let ws: Workspace;
livePoolEachTest('qpairs-annotate-reads-', (fresh) => (ws = fresh));

let flip = 0;
/** A label event on pair (query i, candidate j) by `who`: a new value each time, or cleared (null). */
const label = (who: string, i: number, j: number, on: Workspace = ws, value: string | null = String(flip++ % 2)): number =>
  on.addLabel({ pool: 'p', queryId: `q${i}`, candidateId: `c${i}-${j}`, annotator: who, value, origin: 'ui' })!;

/** Her current labels read from scratch (Workspace.currentLabels), as annotatorCurrent gives them. */
function currentAfresh(who: string): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const l of ws.currentLabels('p', who)) {
    if (!out.has(l.queryId)) out.set(l.queryId, new Map());
    out.get(l.queryId)!.set(l.candidateId, l.value);
  }
  return out;
}
/** Everyone's current labels as Workspace.currentLabels read them before it grouped: each event kept when it is its pair's latest. */
const currentByLookup = (): unknown[] =>
  ws.db
    .prepare(
      `SELECT l.query_id AS queryId, l.candidate_id AS candidateId, a.name AS annotator, l.value, l.seq, l.origin
       FROM labels l JOIN annotators a ON a.id = l.annotator_id
       WHERE l.pool_id = (SELECT id FROM pools WHERE name = 'p')
         AND l.seq = (SELECT max(seq) FROM labels m WHERE m.pool_id = l.pool_id AND m.annotator_id = l.annotator_id
                      AND m.query_id = l.query_id AND m.candidate_id = l.candidate_id)
         AND l.value IS NOT NULL
       ORDER BY l.seq`,
    )
    .all();
const sorted = (m: Map<string, Map<string, string>>) => [...m].map(([q, c]) => [q, [...c].sort()] as const).sort((a, b) => a[0].localeCompare(b[0]));

function expectAsAfresh(): void {
  for (const who of ['alice', 'bob', 'nobody']) expect(sorted(annotatorCurrent(ws, 'p', who)), `${who}'s labels`).toEqual(sorted(currentAfresh(who)));
  expect(poolQueriesKept(ws, 'p')).toEqual(ws.poolQueries('p'));
  // Workspace.currentLabels, grouped along labels_current: as each event's pair's latest looked up gives them.
  expect(ws.currentLabels('p')).toEqual(currentByLookup());
  // pool.progress: each annotator (in the order of their labels) with her pairs and queries done.
  const everyone = ws.currentLabels('p');
  const names = [...new Set(everyone.map((l) => l.annotator))];
  expect(poolProgress(ws, 'p').annotators.map((x) => [x.annotator, x.labeledPairs, x.doneQueries])).toEqual(
    names.map((who) => {
      const mine = everyone.filter((l) => l.annotator === who);
      const done = ws.poolQueries('p').filter((q) => q.candidates.every((c) => mine.some((l) => l.queryId === q.queryId && l.candidateId === c))).length;
      return [who, mine.length, done];
    }),
  );
  for (const q of ws.poolQueries('p')) {
    const all = ws.currentLabels('p').filter((l) => l.queryId === q.queryId);
    expect(queryCurrentLabels(ws, 'p', q.queryId), `labels of ${q.queryId}`).toEqual(all.map((l) => ({ annotator: l.annotator, candidateId: l.candidateId, value: l.value })));
    const runs = ws.listRuns('p');
    expect(poolRunNames(ws, 'p')).toEqual(runs.map((r) => ({ id: r.id, name: r.name })));
    for (const r of runs) expect(queryRunScores(ws, r.id, q.queryId)).toEqual(ws.runScores(r.id).get(q.queryId) ?? new Map());
  }
  // The view itself: her labels, the others', progress and which query is next.
  const blind = ws.pool('p').blind;
  for (const who of ['alice', 'bob']) {
    const v = annotateQuery(ws, { pool: 'p', annotator: who }, null);
    const mine = currentAfresh(who);
    const queries = ws.poolQueries('p');
    const done = (q: { queryId: string; candidates: string[] }) => q.candidates.every((c) => mine.get(q.queryId)?.has(c));
    const next = queries.findIndex((q) => !done(q));
    expect(v.queryId, `${who}'s next query`).toBe(queries[next < 0 ? 0 : next]!.queryId);
    expect(v.progress).toEqual({
      doneQueries: queries.filter(done).length,
      totalQueries: queries.length,
      labeledPairs: [...mine.values()].reduce((s, m) => s + m.size, 0),
      totalPairs: queries.reduce((s, q) => s + q.candidates.length, 0),
    });
    const labels = ws.currentLabels('p').filter((l) => l.queryId === v.queryId);
    for (const c of v.candidates) {
      expect(c.label).toBe(mine.get(v.queryId)?.get(c.id) ?? null);
      // Blind: her own labels only, and no scores.
      const others = blind ? {} : Object.fromEntries(labels.filter((l) => l.candidateId === c.id && l.annotator !== who).map((l) => [l.annotator, l.value]));
      const scores = blind ? {} : Object.fromEntries(ws.listRuns('p').flatMap((r) => (ws.runScores(r.id).get(v.queryId)?.has(c.id) ? [[r.name, ws.runScores(r.id).get(v.queryId)!.get(c.id)]] : [])));
      expect(Object.fromEntries(Object.entries(c.runs).map(([n, x]) => [n, x.score]))).toEqual(scores);
      expect(c.others).toEqual(others);
      expect(Object.keys(c.others)).toEqual(Object.keys(others));
    }
  }
}

describe('annotate.query reads', () => {
  it('give the answers of a read from scratch through every kind of change', () => {
    ws.setPoolBlind('p', false);
    expectAsAfresh();
    for (let j = 0; j < 4; j++) label('alice', 0, j);
    label('bob', 0, 2);
    label('bob', 0, 1);
    expectAsAfresh();
    // Her relabel, a cleared label, an undo event, and a query emptied of her labels.
    label('alice', 0, 1);
    label('alice', 0, 3, ws, null);
    const back = label('alice', 1, 0);
    ws.addLabel({ pool: 'p', queryId: 'q1', candidateId: 'c1-0', annotator: 'alice', value: null, origin: `undo:${back}` });
    expectAsAfresh();
    // Runs: one stored, then replaced with other scores.
    ws.replaceRun('p', 'r1', 'bm25', {}, [['q0', 'c0-0', 2], ['q0', 'c0-1', 1], ['q1', 'c1-3', 5]]);
    expectAsAfresh();
    label('alice', 0, 3);
    ws.replaceRun('p', 'r1', 'bm25', {}, [['q0', 'c0-1', 3], ['q2', 'c2-0', 1]]);
    expectAsAfresh();
    // Labels deleted (as an import's undo deletes its labels), then more.
    ws.db.prepare(`DELETE FROM labels WHERE seq IN (SELECT seq FROM labels WHERE query_id = 'q0' ORDER BY seq DESC LIMIT 2)`).run();
    expectAsAfresh();
    label('alice', 1, 1);
    expectAsAfresh();
    // Another connection's labels (another process, the import connection).
    const other = Workspace.open(ws.path);
    label('alice', 0, 0, other, null);
    label('bob', 1, 1, other);
    other.close();
    expectAsAfresh();
    // A query added to the pool: her progress counts it.
    ws.upsertQuestion({ id: 'q9', source: 's', title: 'new', body: 'query' });
    ws.addPoolQuery('p', 'q9', ['c0-0', 'c1-0']);
    expectAsAfresh();
    for (const [i, j] of [[0, 0], [0, 3], [1, 0], [1, 1], [1, 2], [1, 3]] as const) label('alice', i, j);
    expectAsAfresh();
    // Labels in a transaction: asked inside it, then rolled back.
    try {
      ws.db.transaction(() => {
        label('alice', 2, 0);
        label('bob', 2, 1);
        expectAsAfresh();
        throw new Error('roll back');
      })();
    } catch {
      // rolled back
    }
    expectAsAfresh();
    label('alice', 2, 3);
    expectAsAfresh();
    // Blind again: the same labels, without the others' or the runs'.
    ws.setPoolBlind('p', true);
    label('bob', 2, 3);
    expectAsAfresh();
  });

  it('a view after a label reads the query on screen and her labels since, not the pool\'s labels or a run\'s every score', () => {
    ws.replaceRun('p', 'r1', 'bm25', {}, [['q0', 'c0-0', 2], ['q1', 'c1-3', 5]]);
    for (let k = 0; k < 40; k++) label(k % 2 ? 'alice' : 'bob', k % 4, (k >> 2) % 4);
    annotateQuery(ws, { pool: 'p', annotator: 'alice' }, null);
    const read = statementsDuring(ws, () => {
      for (let k = 0; k < 3; k++) {
        label('alice', k, 2);
        annotateQuery(ws, { pool: 'p', annotator: 'alice', queryId: `q${k}` }, null);
      }
    });
    const onLabels = read.filter((sql) => /FROM labels/.test(sql));
    // Every read of labels names the query on screen or starts after the events read before.
    expect(onLabels.filter((sql) => !/query_id = \?/.test(sql) && !/seq > \?/.test(sql))).toEqual([]);
    expect(onLabels.length).toBeGreaterThan(0);
    expect(read.filter((sql) => /FROM run_scores/.test(sql) && !/query_id = \?/.test(sql))).toEqual([]);
    // The pool's queries are not read again after labels.
    expect(read.filter((sql) => /FROM pool_queries q\s+LEFT JOIN pool_candidates/.test(sql))).toEqual([]);
  });

  it("a query relabeled many times: the others' labels of it are found by seeks per annotator and candidate, not by reading its every event", () => {
    ws.setPoolBlind('p', false);
    // alice relabels q0's pairs 200 times (a clear and an undo among them); bob labels two of them.
    for (let k = 0; k < 200; k++) label('alice', 0, k % 4);
    label('alice', 0, 2, ws, null);
    const back = label('alice', 0, 3);
    ws.addLabel({ pool: 'p', queryId: 'q0', candidateId: 'c0-3', annotator: 'alice', value: null, origin: `undo:${back}` });
    label('bob', 0, 1);
    label('bob', 0, 3);
    label('bob', 1, 0);
    expectAsAfresh();
    const read = statementsDuring(ws, () => queryCurrentLabels(ws, 'p', 'q0')).filter((sql) => /FROM labels/.test(sql));
    expect(read).toHaveLength(1);
    // Its plan, with the pool and the query bound by name or in order (as the statement names them).
    const args = /@pool/.test(read[0]!) ? [{ pool: ws.poolId('p'), query: 'q0' }] : [ws.poolId('p'), 'q0'];
    const plan = (ws.db.prepare(`EXPLAIN QUERY PLAN ${read[0]}`).all(...args) as Array<{ detail: string }>).map((r) => r.detail);
    const onLabels = plan.filter((d) => /\blabels\b|\bl\b USING/.test(d));
    // Each read of labels is one row: an index seek (the min/max of an id along labels_current) or an event by its seq.
    expect(onLabels.length).toBeGreaterThan(0);
    expect(onLabels.filter((d) => !/^SEARCH labels USING COVERING INDEX labels_current \(pool_id=\?/.test(d) && !/^SEARCH l USING INTEGER PRIMARY KEY \(rowid=\?\)/.test(d))).toEqual([]);
    expect(plan.filter((d) => /GROUP BY/.test(d))).toEqual([]);
  });

  it('keeps at most KEPT_CURRENT_MAX annotators\' labels and KEPT_QUERIES_MAX pools\' queries: the least recently used is dropped, and reads back the same answers', () => {
    const people = Array.from({ length: KEPT_CURRENT_MAX + 1 }, (_, k) => `a${k}`);
    people.forEach((who, k) => label(who, k % 4, k % 3));
    /** Her labels as annotatorCurrent gives them (checked against a read from scratch), and whether it read them from scratch. */
    const currentOf = (who: string): boolean => {
      let got: ReturnType<typeof annotatorCurrent> = new Map();
      const afresh = statementsDuring(ws, () => (got = annotatorCurrent(ws, 'p', who))).some((sql) => /GROUP BY annotator_id, query_id, candidate_id/.test(sql));
      expect(sorted(got), `${who}'s labels`).toEqual(sorted(currentAfresh(who)));
      return afresh;
    };
    // Each read once, a0 first: a0 is the least recently used when the last one is kept.
    for (const who of people) annotatorCurrent(ws, 'p', who);
    label('a0', 0, 1);
    label('a0', 0, 0, ws, null);
    label(people.at(-1)!, 2, 2);
    // The last is still kept (only her events since are read); a0 was dropped and is read from scratch, the same labels.
    expect(currentOf(people.at(-1)!)).toBe(false);
    expect(currentOf('a0')).toBe(true);
    // Read again, a0 is kept once more; a1 (now the least recently used) is the one dropped.
    label('a0', 1, 2);
    expect(currentOf('a0')).toBe(false);
    expect(currentOf('a1')).toBe(true);
    // A view of a dropped annotator: her labels and progress as from scratch.
    for (const who of people.slice(2, 4)) {
      const v = annotateQuery(ws, { pool: 'p', annotator: who, queryId: 'q0' }, null);
      expect(v.progress.labeledPairs).toBe([...currentAfresh(who).values()].reduce((n, m) => n + m.size, 0));
      expect(v.candidates.map((c) => c.label)).toEqual(v.candidates.map((c) => currentAfresh(who).get('q0')?.get(c.id) ?? null));
    }

    // Pools' queries: one pool more than kept, each read once; the first is read again, the latest is not.
    const pools = Array.from({ length: KEPT_QUERIES_MAX + 1 }, (_, k) => `p${k}`);
    for (const name of pools) {
      ws.createPool({ name, scheme: 'binary' });
      ws.addPoolQuery(name, 'q0', ['c0-0', `c0-${pools.indexOf(name) % 4}`]);
    }
    for (const name of pools) poolQueriesKept(ws, name);
    /** The pool's queries as poolQueriesKept gives them (checked against a read from scratch), and whether it read them from scratch. */
    const queriesOf = (pool: string): boolean => {
      let got: ReturnType<typeof poolQueriesKept> = [];
      const afresh = statementsDuring(ws, () => (got = poolQueriesKept(ws, pool))).some((sql) => /FROM pool_queries q\s+LEFT JOIN pool_candidates/.test(sql));
      expect(got, `${pool}'s queries`).toEqual(ws.poolQueries(pool));
      return afresh;
    };
    expect(queriesOf(pools.at(-1)!)).toBe(false);
    expect(queriesOf('p0')).toBe(true);
    expect(queriesOf('p0')).toBe(false);
  });

  it('pool.progress after a label reads each pair\'s latest event from the index, not every event with a lookup of its pair\'s latest', () => {
    for (let k = 0; k < 40; k++) label(k % 2 ? 'alice' : 'bob', k % 4, (k >> 2) % 4);
    poolProgress(ws, 'p');
    label('alice', 0, 1);
    const read = statementsDuring(ws, () => poolProgress(ws, 'p'));
    expect(read.filter((sql) => /FROM labels/.test(sql)).length).toBeGreaterThan(0);
    expect(read.filter((sql) => /SELECT max\(seq\) FROM labels m/.test(sql))).toEqual([]);
    expect(read.filter((sql) => /FROM pool_queries q\s+LEFT JOIN pool_candidates/.test(sql))).toEqual([]);
  });
});
