/**
 * A live run is stored in short slices: each transaction writes at most LIVE_STAGE_CHUNK pairs, and a
 * label given while it is stored is written between two of them, not after the whole run.
 */
import { describe, expect, it } from 'vitest';
import { Workspace } from '../workspace/workspace';
import { LIVE_STAGE_CHUNK, storeLiveRuns } from './live-store';
import { livePoolEachTest } from './live-test-pool';

let ws: Workspace;
livePoolEachTest('qpairs-live-store-', (fresh) => (ws = fresh));

/** query → candidate → score: `n` pairs, 50 candidates a query. */
function scoresOf(n: number): Map<string, Map<string, number>> {
  const scores = new Map<string, Map<string, number>>();
  for (let i = 0; i < n; i++) {
    const q = `x${Math.floor(i / 50)}`;
    if (!scores.has(q)) scores.set(q, new Map());
    scores.get(q)!.set(`y${i}`, i / n);
  }
  return scores;
}

const totalChanges = (): number => ws.db.prepare(`SELECT total_changes()`).pluck().get() as number;

describe('storing a live run', () => {
  it('writes at most LIVE_STAGE_CHUNK pairs per transaction, and a label queued meanwhile is written between two of them', async () => {
    const pairs = 3 * LIVE_STAGE_CHUNK + 7;
    // The engine's write gate in miniature: writes run one after another, in the order asked.
    let tail: Promise<unknown> = Promise.resolve();
    const serial = <T>(f: () => T): Promise<T> => {
      const p = tail.then(f);
      tail = p.catch(() => {});
      return p;
    };
    const writes: Array<{ what: 'store' | 'label'; rows: number }> = [];
    let labelQueued = false;
    const write = <T>(f: () => T): Promise<T> =>
      serial(() => {
        const before = totalChanges();
        const r = f();
        writes.push({ what: 'store', rows: totalChanges() - before });
        // A label arrives while the first slice of scores is written.
        if (!labelQueued && writes.length === 2) {
          labelQueued = true;
          void serial(() => {
            ws.addLabel({ pool: 'p', queryId: 'q0', candidateId: 'c0-0', annotator: 'gold', value: '1', origin: 'test' });
            writes.push({ what: 'label', rows: 1 });
          });
        }
        return r;
      });
    const [stored] = await storeLiveRuns(ws, 'p', [{ runName: 'live-tfidf', model: 'tfidf', scores: scoresOf(pairs), labelPools: [] }], { write });
    expect(stored).toBe(pairs);
    expect(ws.listRuns('p').find((r) => r.name === 'live-tfidf')?.pairs).toBe(pairs);
    // The staging row, then the scores in slices, then the swap.
    const slices = writes.slice(1, -1).filter((w) => w.what === 'store');
    expect(slices.length).toBe(Math.ceil(pairs / LIVE_STAGE_CHUNK));
    for (const s of slices) expect(s.rows).toBeLessThanOrEqual(LIVE_STAGE_CHUNK);
    // The label was written right after the slice it arrived during, with the rest of the run still to come.
    expect(writes.map((w) => w.what).indexOf('label')).toBe(2);
  });
});
