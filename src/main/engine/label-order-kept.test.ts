/**
 * A pool with the candidate labeling order (decide-rankers-mtc): annotate.query weighs the whole pool
 * to choose the next pair (label-order-candidates.ts). That pool-wide state is computed once per
 * change and shared by every annotator's view, her own labels come kept (annotator-labels.ts), and a
 * query she has done, asked for by id, needs no choice of pair. The views stay those a connection
 * reading everything from scratch gives.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { CandidateLedger } from '../active/candidate-order';
import { writePoolOrder } from '../active/draw-log';
import { statementsDuring } from '../workspace/test-statements';
import { scratchWorkspaces } from '../workspace/scratch-workspaces';
import { Workspace } from '../workspace/workspace';
import { annotateQuery } from './annotate';
import { fillThreeRunsPool } from './three-runs-pool';

const scratch = scratchWorkspaces('qpairs-order-kept-');
let ws: Workspace;
const Q = 6;
const C = 4;

beforeEach(() => {
  ws = scratch.fresh('w');
  fillThreeRunsPool(ws, { queries: Q, candidates: C });
  writePoolOrder(ws, 'p', 'decide-rankers-mtc', 3);
});

/** The view as a new connection, reading everything from scratch, gives it. */
function viewAfresh(annotator: string, queryId?: string): unknown {
  const other = Workspace.open(ws.path);
  try {
    return annotateQuery(other, { pool: 'p', annotator, ...(queryId ? { queryId } : {}) }, null);
  } finally {
    other.close();
  }
}
const view = (annotator: string, queryId?: string) => annotateQuery(ws, { pool: 'p', annotator, ...(queryId ? { queryId } : {}) }, null);
const label = (annotator: string, queryId: string, candidateId: string, value: string | null) => ws.addLabel({ pool: 'p', queryId, candidateId, annotator, value, origin: 'ui' });
/** The statements of `fn` that read labels of the whole pool (not of one query or one event, not only the events since a kept read). */
const poolWideLabelReads = (fn: () => void): string[] =>
  statementsDuring(ws, fn).filter((sql) => /FROM labels/.test(sql) && !/query_id = [?@]/.test(sql) && !/seq > \?/.test(sql) && !/WHERE seq = \?/.test(sql));

describe('annotate.query in a pool with the candidate order', () => {
  it('gives the views of a read from scratch through labels, relabels, cleared labels and the other annotator\'s labels', () => {
    for (let step = 0; step < 10; step++) {
      for (const who of ['alice', 'bob']) {
        const v = view(who);
        expect(v, `${who}'s view at step ${step}`).toEqual(viewAfresh(who));
        for (const q of ['q0', 'q3']) expect(view(who, q), `${who}'s view of ${q} at step ${step}`).toEqual(viewAfresh(who, q));
        if (!v.focus) continue;
        label(who, v.queryId, v.focus, step % 3 ? '1' : '0');
        if (step === 4) label(who, v.queryId, v.focus, null);
        if (step === 6) label(who, v.queryId, v.focus, '0');
      }
    }
  });

  it("the pool's state is computed once per change for everyone's views, and a query she has done is shown without it", () => {
    const first = view('alice');
    view('bob'); // his own labels are kept from now on (annotator-labels.ts)
    label('alice', first.queryId, first.focus!, '1');
    for (const c of ['q5c0', 'q5c1', 'q5c2', 'q5c3']) label('alice', 'q5', c, '0');
    // The first view after a change reads the pool; the other annotator's view after it does not, and is the same as from scratch.
    // (4 here; 7 while judgedPool also worked out orderedPool's relevance of fully labeled queries, which the choice of
    // pair does not use, reading the pool's labels for it again.)
    const reads = poolWideLabelReads(() => view('alice')).length;
    expect(reads).toBeGreaterThan(0);
    expect(reads).toBeLessThanOrEqual(4);
    let bob: unknown;
    expect(poolWideLabelReads(() => (bob = view('bob')))).toEqual([]);
    expect(bob).toEqual(viewAfresh('bob'));
    // After another label: alice's view of q5, which she has done, needs no choice of pair.
    label('bob', first.queryId, first.focus!, '0');
    let done: unknown;
    expect(poolWideLabelReads(() => (done = view('alice', 'q5')))).toEqual([]);
    expect(done).toEqual(viewAfresh('alice', 'q5'));
  });

  it("reads the pool's labels once, then brings them forward over label events: relabels, clears, an undo, a judge's ruling, another connection's labels, a rolled-back transaction", () => {
    ws.ensureAnnotator('jay', 'judge');
    const same = (step: string) => {
      for (const who of ['alice', 'bob']) {
        expect(view(who), `${who}'s view after ${step}`).toEqual(viewAfresh(who));
        expect(view(who, 'q3'), `${who}'s view of q3 after ${step}`).toEqual(viewAfresh(who, 'q3'));
      }
    };
    // Both annotators have labeled (open assignment: a first label in the pool makes an annotator, and reads it again).
    const first = view('alice');
    label('alice', first.queryId, first.focus!, '1');
    label('bob', first.queryId, first.focus!, '0');
    same('a disagreement');
    const changes: Array<[string, () => void]> = [
      ["a judge's ruling", () => label('jay', first.queryId, first.focus!, '1')],
      ['a label', () => { const v = view('alice'); label('alice', v.queryId, v.focus!, '1'); }],
      ['a relabel', () => label('bob', first.queryId, first.focus!, '1')],
      ['a cleared label', () => label('alice', first.queryId, first.focus!, null)],
      ['an undo of it', () => ws.undoLabel(Number((ws.stmt(`SELECT max(seq) AS s FROM labels`).get() as { s: number }).s))],
      ["another connection's labels", () => {
        const other = Workspace.open(ws.path);
        try {
          const v = annotateQuery(other, { pool: 'p', annotator: 'bob' }, null);
          other.addLabel({ pool: 'p', queryId: v.queryId, candidateId: v.focus!, annotator: 'bob', value: '0', origin: 'ui' });
          other.addLabel({ pool: 'p', queryId: 'q5', candidateId: 'q5c1', annotator: 'alice', value: '1', origin: 'ui' });
        } finally {
          other.close();
        }
      }],
      ['a rolled-back transaction', () => {
        expect(() => ws.transaction(() => {
          label('alice', 'q4', 'q4c0', '1');
          label('bob', 'q4', 'q4c0', '0');
          view('bob'); // read inside the transaction: nothing of it may be kept
          throw new Error('rolled back');
        })).toThrow('rolled back');
      }],
      ['labels after it', () => { const v = view('bob'); label('bob', v.queryId, v.focus!, '1'); label('alice', 'q4', 'q4c2', '0'); }],
    ];
    for (const [step, change] of changes) {
      view('alice');
      change();
      // The first view after the change reads nobody's labels of the whole pool (4 times before: the default source, the aggregate, everyone's) ...
      const everyones = vi.spyOn(ws, 'currentLabels');
      let reads: string[];
      try {
        reads = poolWideLabelReads(() => view('alice'));
        expect(everyones.mock.calls.filter((c) => c[1] === undefined), `everyone's labels read after ${step}`).toEqual([]);
      } finally {
        everyones.mockRestore();
      }
      // ... and no one's, but her own after another connection's commit or a rollback (annotator-labels.ts reads them from scratch then).
      expect(reads.length, `reads after ${step}`).toBe(step === "another connection's labels" || step === 'a rolled-back transaction' ? 1 : 0);
      same(step);
    }
  });

  it("the runs' rankings and the bounds with nothing judged are computed again only when something other than labels was written (here a run's scores)", () => {
    view('alice');
    const zero = vi.spyOn(CandidateLedger, 'zeroLabel');
    const scores = vi.spyOn(ws, 'runScores');
    try {
      for (let k = 0; k < 3; k++) {
        const v = view('alice');
        label('alice', v.queryId, v.focus!, k % 2 ? '1' : '0');
      }
      const bob = view('bob');
      expect(zero).not.toHaveBeenCalled();
      expect(scores).not.toHaveBeenCalled(); // the runs' rankings of the pool's queries are kept with them
      expect(bob).toEqual(viewAfresh('bob')); // (the new connection computes its own)
      // The run "good" now ranks every query's candidates the other way round: new bounds, the views as from scratch.
      const good = ws.ensureRun('p', 'good', 'test');
      ws.transaction(() => {
        for (let n = 0; n < Q * C; n++) ws.setRunScore(good, `q${Math.floor(n / C)}`, `q${Math.floor(n / C)}c${n % C}`, n % C);
      });
      zero.mockClear();
      const views = ['alice', 'bob'].map((who) => view(who));
      expect(zero).toHaveBeenCalledTimes(1);
      expect(scores).toHaveBeenCalledTimes(3); // each run's, once
      ['alice', 'bob'].forEach((who, k) => expect(views[k], who).toEqual(viewAfresh(who)));
    } finally {
      zero.mockRestore();
      scores.mockRestore();
    }
  });

  it("keeps the state of one pool only (~130 MB at 3,000 x 20 x 3 runs): another pool's view drops it, and it is computed again, the same", () => {
    ws.transaction(() => {
      ws.createPool({ name: 'p2', scheme: 'binary' });
      const run = ws.ensureRun('p2', 'good', 'test');
      for (let i = 0; i < Q; i++) {
        ws.addPoolQuery('p2', `q${i}`, [`q${i}c0`, `q${i}c1`]);
        ws.setRunScore(run, `q${i}`, `q${i}c0`, 1);
      }
    });
    writePoolOrder(ws, 'p2', 'decide-rankers-mtc', 5);
    const before = view('alice');
    expect(poolWideLabelReads(() => view('alice'))).toEqual([]);
    annotateQuery(ws, { pool: 'p2', annotator: 'alice' }, null);
    let again: unknown;
    expect(poolWideLabelReads(() => (again = view('alice'))).length).toBeGreaterThan(0);
    expect(again).toEqual(before);
  });
});
