/**
 * Her own event numbers (own-seq.ts) and the labels a live retrain did not train on (live-since.ts)
 * are kept and brought forward over the label events appended since, not read from the first event
 * on every label: the answers stay those of a read from scratch through relabels, undos, other
 * annotators' labels, retrain marks with pairs left out, labels deleted (an import undone), another
 * connection's labels, a large batch of labels and a transaction rolled back.
 */
import { describe, expect, it } from 'vitest';
import { statementsDuring } from '../workspace/test-statements';
import { Workspace } from '../workspace/workspace';
import { labelsNotTrainedOn, markRetrained } from '../training/live-store';
import { livePoolEachTest } from '../training/live-test-pool';
import { globalSeq, ownSeq } from './own-seq';

let ws: Workspace;
livePoolEachTest('qpairs-label-counts-', (fresh) => (ws = fresh));

let flip = 0;
/** A label event on pair (query i, candidate j) by `who` (each a new value, so each is an event). */
const label = (who: string, i: number, j: number, on: Workspace = ws): number => on.addLabel({ pool: 'p', queryId: `q${i}`, candidateId: `c${i}-${j}`, annotator: who, value: String(flip++ % 3), origin: 'ui' })!;

/** Read from scratch, as before they were kept: her count of events up to seq, and her n-th event. */
const countAfresh = (who: string, seq: number): number =>
  ws.db.prepare(`SELECT count(*) FROM labels WHERE pool_id IN (SELECT id FROM pools) AND annotator_id = (SELECT id FROM annotators WHERE name = ?) AND seq <= ?`).pluck().get(who, seq) as number;
const nthAfresh = (who: string, n: number): number | null =>
  (ws.db.prepare(`SELECT seq FROM labels WHERE pool_id IN (SELECT id FROM pools) AND annotator_id = (SELECT id FROM annotators WHERE name = ?) ORDER BY seq LIMIT 1 OFFSET ?`).pluck().get(who, n - 1) as number | undefined) ?? null;
const sinceAfresh = (afterSeq: number): { pairs: number; fresh: number } =>
  ws.db
    .prepare(
      `WITH fresh AS (SELECT query_id AS q, candidate_id AS c FROM labels WHERE pool_id = (SELECT id FROM pools WHERE name = 'p') AND seq > :after)
       SELECT (SELECT count(*) FROM fresh) AS fresh, (SELECT count(*) FROM (SELECT q, c FROM fresh
         UNION SELECT query_id, candidate_id FROM live_uncovered WHERE pool_id = (SELECT id FROM pools WHERE name = 'p') AND query_id IN (SELECT q FROM fresh))) AS pairs`,
    )
    .get({ after: afterSeq }) as { pairs: number; fresh: number };
const mark = (): number => ws.db.prepare(`SELECT coalesce(max(last_label_seq), 0) FROM live_training`).pluck().get() as number;

/** Every answer as read from scratch: her number for each event (and one past the newest), her n-th event, the live count. */
function expectAsAfresh(who: string): void {
  const newest = ws.db.prepare(`SELECT coalesce(max(seq), 0) FROM labels`).pluck().get() as number;
  // The newest first (the label path), then the others, newest to oldest and back.
  const seqs = [newest, ...Array.from({ length: newest }, (_, i) => newest - i), newest + 5];
  for (const s of seqs) expect(ownSeq(ws, who, s), `${who} at ${s}`).toBe(countAfresh(who, s));
  const mine = countAfresh(who, newest);
  for (const n of [mine, 1, ...Array.from({ length: mine + 1 }, (_, i) => mine + 1 - i)]) expect(globalSeq(ws, who, n), `${who}'s event ${n}`).toBe(nthAfresh(who, n));
  expect(labelsNotTrainedOn(ws, 'p', mark())).toEqual(sinceAfresh(mark()));
}

describe('counts over the label history, kept and brought forward', () => {
  it('give the answers of a read from scratch through every kind of change', () => {
    ws.db.prepare(`INSERT INTO live_training(pool_id, enabled, every_labels, idle_seconds, models, train_pools) SELECT id, 1, 20, 60, '["fused"]', '[]' FROM pools WHERE name = 'p'`).run();
    for (let j = 0; j < 3; j++) label('alice', 0, j);
    expectAsAfresh('alice');
    // Her relabels and another annotator's labels in between.
    label('alice', 0, 1);
    label('bob', 0, 1);
    label('bob', 1, 2);
    label('alice', 1, 0);
    expectAsAfresh('alice');
    expectAsAfresh('bob');
    // An undo: an event putting the label back (cleared).
    ws.addLabel({ pool: 'p', queryId: 'q1', candidateId: 'c1-0', annotator: 'alice', value: null, origin: 'undo:8' });
    expectAsAfresh('alice');
    // A retrain's mark, leaving out pairs of queries still being labeled; then those queries labeled on, and new ones.
    const upTo = label('alice', 2, 0);
    markRetrained(ws, 'p', upTo - 1, null, [['q0', 'c0-0'], ['q0', 'c0-2'], ['q1', 'c1-2'], ['q2', 'c2-0']]);
    expectAsAfresh('alice');
    label('bob', 0, 3);
    label('alice', 0, 2);
    label('alice', 2, 0);
    label('alice', 3, 1);
    expectAsAfresh('alice');
    label('gold', 1, 2);
    expectAsAfresh('alice');
    // Labels deleted (as an import's undo deletes its labels), then more.
    ws.db.prepare(`DELETE FROM labels WHERE seq IN (?, ?)`).run(2, upTo);
    expectAsAfresh('alice');
    label('alice', 3, 3);
    expectAsAfresh('alice');
    // Another connection's labels (another process, the import connection).
    const other = Workspace.open(ws.path);
    label('alice', 3, 2, other);
    label('bob', 2, 2, other);
    other.close();
    expectAsAfresh('alice');
    expectAsAfresh('bob');
    // A batch of labels in one transaction (an import of labels): asked inside it too.
    ws.db.transaction(() => {
      for (let k = 0; k < 6000; k++) label(k % 3 === 0 ? 'bob' : 'alice', k % 4, (k >> 2) % 4);
      expect(ownSeq(ws, 'alice', 1e9)).toBe(countAfresh('alice', 1e9));
      expect(labelsNotTrainedOn(ws, 'p', mark())).toEqual(sinceAfresh(mark()));
    })();
    expectAsAfresh('alice');
    // Labels in a transaction rolled back, read inside it: nothing of them is kept.
    try {
      ws.db.transaction(() => {
        label('alice', 0, 0);
        label('alice', 1, 1);
        expect(ownSeq(ws, 'alice', 1e9)).toBe(countAfresh('alice', 1e9));
        expect(labelsNotTrainedOn(ws, 'p', mark())).toEqual(sinceAfresh(mark()));
        throw new Error('roll back');
      })();
    } catch {
      // rolled back
    }
    label('alice', 2, 3);
    expectAsAfresh('alice');
  });

  it('a label then her number and the live count read only the events since the last answer, not the history from its first', () => {
    for (let k = 0; k < 40; k++) label(k % 2 ? 'alice' : 'bob', k % 4, (k >> 2) % 4);
    expectAsAfresh('alice');
    const read = statementsDuring(ws, () => {
      for (let k = 0; k < 5; k++) {
        const seq = label('alice', k % 4, 1);
        expect(ownSeq(ws, 'alice', seq)).toBe(countAfresh('alice', seq));
        expect(labelsNotTrainedOn(ws, 'p', 0)).toEqual(sinceAfresh(0));
      }
    });
    const onLabels = read.filter((sql) => /FROM labels/.test(sql));
    // Her count from her first event, and the pool's label events from the mark on, are not read again.
    expect(onLabels.filter((sql) => /seq <= \?/.test(sql) && !/seq > \?/.test(sql))).toEqual([]);
    expect(onLabels.filter((sql) => /WITH fresh AS/.test(sql))).toEqual([]);
    expect(onLabels.length).toBeGreaterThan(0);
  });
});
