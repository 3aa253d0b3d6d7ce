/**
 * The Review screen's pool state kept label by label (kept-state.ts): after every step of random
 * sequences — votes, "?", clears, undos, rulings (given here and imported), notes, bursts of
 * several labels, labels of another pool, annotators joining an open pool, role, assignment and
 * rule changes — the kept state equals a whole read (loadPoolState), Map order included; and a
 * step that only labels reads none of the pool's labels again.
 */
import { describe, expect, it, vi } from 'vitest';
import { mulberry32 } from '../stats/random';
import { scratchWorkspaces } from '../workspace/scratch-workspaces';
import type { Workspace } from '../workspace/workspace';
import { KeptPoolState, MAX_APPLIED_EVENTS } from './kept-state';
import { loadPoolState, type PoolState } from './state';
import { assignPool, setAggregation, setAnnotatorRole } from './store';

const scratch = scratchWorkspaces('qpairs-kept-state-');

const QUERIES = 25;
const DEPTH = 5;
const VOTERS = ['alice', 'bob', 'carol'];

/** Pools "p" (QUERIES × DEPTH, assigned to alice and bob unless open) and "other"; judy and kim judge. */
function workspace(seed: number, assigned: boolean): Workspace {
  const rand = mulberry32(seed);
  const ws = scratch.fresh(`w${seed}-${assigned}`);
  ws.transaction(() => {
    ws.createPool({ name: 'p', scheme: 'binary', blind: true });
    ws.createPool({ name: 'other', scheme: 'binary', blind: true });
    for (const who of VOTERS) ws.ensureAnnotator(who, 'annotator');
    ws.ensureAnnotator('judy', 'judge');
    ws.ensureAnnotator('kim', 'judge');
    for (let q = 0; q < QUERIES; q++) {
      const cands = Array.from({ length: DEPTH }, (_, c) => `c${q}-${c}`);
      for (const id of [`q${q}`, ...cands]) ws.upsertQuestion({ id, source: 'test', title: id, body: id });
      ws.addPoolQuery('p', `q${q}`, cands);
      if (q < 3) ws.addPoolQuery('other', `q${q}`, cands);
      for (const c of cands) for (const who of ['alice', 'bob']) if (rand() < 0.6) ws.addLabel({ pool: 'p', queryId: `q${q}`, candidateId: c, annotator: who, value: rand() < 0.5 ? '1' : '0', origin: 'test' });
    }
  });
  if (assigned) assignPool(ws, 'p', ['alice', 'bob'], null);
  return ws;
}

/** The state as JSON, Maps as their entries in order. */
function snapshot(s: PoolState): string {
  return JSON.stringify({
    ...s,
    plan: { ...s.plan, perQueryAnnotators: s.plan.perQueryAnnotators ? [...s.plan.perQueryAnnotators] : null },
    byKey: [...s.byKey],
    labels: [...s.labels].map(([a, m]) => [a, [...m]]),
  });
}

describe('the Review screen’s pool state, kept label by label', () => {
  it('equals a whole read after every step of random sequences, and a step of labels only reads no labels again', () => {
    for (const [seed, assigned] of [
      [1, true],
      [2, false],
      [3, true],
      [4, false],
    ] as const) {
      const rand = mulberry32(seed * 7919);
      const ws = workspace(seed, assigned);
      const kept = new KeptPoolState(ws);
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
      const pair = (): { pool: string; queryId: string; candidateId: string } => {
        const q = Math.floor(rand() * QUERIES);
        return { pool: 'p', queryId: `q${q}`, candidateId: `c${q}-${Math.floor(rand() * DEPTH)}` };
      };
      const seqs: number[] = [];
      const reads = vi.spyOn(ws, 'currentLabels');
      kept.get('p');
      let labelSteps = 0;
      let updated = 0;
      for (let step = 0; step < 150; step++) {
        const what = rand();
        let labelsOnly = true;
        const label = (annotator: string, value: string | null, origin = 'ui'): void => {
          const seq = ws.addLabel({ ...pair(), annotator, value, origin });
          if (seq !== null) seqs.push(seq);
        };
        if (what < 0.3) label(pick(VOTERS), pick(['1', '0', '1', '0', '?', null]));
        else if (what < 0.4) {
          // A burst of labels between two reads.
          const n = 2 + Math.floor(rand() * 6);
          for (let i = 0; i < n; i++) label(pick(VOTERS), pick(['1', '0', '?', null]));
        } else if (what < 0.55) label(pick(['judy', 'kim']), pick(['1', '0', '?', null]), pick(['ui', 'ui', 'import:rulings.csv']));
        else if (what < 0.65 && seqs.length) ws.undoLabel(seqs.splice(Math.floor(rand() * seqs.length), 1)[0]!);
        else if (what < 0.72) ws.setLabelNote({ ...pair(), annotator: pick(VOTERS), note: pick(['why', '']) });
        else if (what < 0.77) ws.addLabel({ pool: 'other', queryId: 'q1', candidateId: `c1-${Math.floor(rand() * DEPTH)}`, annotator: pick(VOTERS), value: pick(['1', '0']), origin: 'ui' });
        else if (what < 0.8) label('dave', pick(['1', '0'])); // a new annotator (a new name: a role is added)
        else if (what < 0.83) {
          labelsOnly = false;
          setAnnotatorRole(ws, pick(['carol', 'kim']), pick(['annotator', 'judge']));
        } else if (what < 0.85) {
          labelsOnly = false;
          setAggregation(ws, 'p', pick(['adjudicated', 'majority', 'unanimous']));
        } else if (what < 0.87 && assigned) {
          labelsOnly = false;
          assignPool(ws, 'p', pick([['alice', 'bob'], ['alice', 'bob', 'carol'], ['bob', 'alice']]), rand() < 0.5 ? null : 1, 1 + Math.floor(rand() * 3));
        } else label(pick(VOTERS), pick(['1', '0']));
        const before = reads.mock.calls.length;
        const kept1 = snapshot(kept.get('p'));
        const whole = reads.mock.calls.length - before;
        expect(kept1, `seed ${seed}, step ${step}`).toBe(snapshot(loadPoolState(ws, 'p')));
        // Read again with nothing committed: the same state, no read.
        const again = reads.mock.calls.length;
        expect(snapshot(kept.get('p'))).toBe(kept1);
        expect(reads.mock.calls.length).toBe(again);
        if (what >= 0.77 && what < 0.8) continue; // dave's first label adds a person (and may join the open pool): a whole read
        if (labelsOnly) {
          labelSteps++;
          if (whole === 0) updated++;
        }
      }
      // Labels alone never read the pool again, except when they change who annotates an open pool (an annotator's first or last label).
      if (assigned) expect(updated, `seed ${seed}`).toBe(labelSteps);
      else expect(updated, `seed ${seed}`).toBeGreaterThan(labelSteps * 0.8);
      expect(labelSteps).toBeGreaterThan(80);
      reads.mockRestore();
    }
  });

  it('reads the pool again after more label events than it applies (an import), and while a long write is journaled', () => {
    const ws = workspace(5, true);
    const kept = new KeptPoolState(ws);
    kept.get('p');
    const reads = vi.spyOn(ws, 'currentLabels');
    ws.addLabel({ pool: 'p', queryId: 'q0', candidateId: 'c0-0', annotator: 'alice', value: '?', origin: 'ui' });
    kept.get('p');
    expect(reads).toHaveBeenCalledTimes(0);
    ws.db.prepare(`INSERT INTO import_journal(id, token, pid, host, started, what, state, seqs) VALUES (1, 't', ?, 'h', '2026-01-01', 'import', 'running', '{}')`).run(process.pid);
    ws.addLabel({ pool: 'p', queryId: 'q0', candidateId: 'c0-1', annotator: 'alice', value: '?', origin: 'import:x' });
    expect(snapshot(kept.get('p'))).toBe(snapshot(loadPoolState(ws, 'p')));
    expect(reads).toHaveBeenCalledTimes(2);
    // The journal cleared (the import taken back): the state read meanwhile is not updated, it is read again.
    ws.db.prepare(`DELETE FROM labels WHERE origin = 'import:x'`).run();
    ws.db.prepare(`DELETE FROM import_journal`).run();
    expect(snapshot(kept.get('p'))).toBe(snapshot(loadPoolState(ws, 'p')));
    expect(reads).toHaveBeenCalledTimes(4);
    // More events than it applies: one whole read.
    ws.transaction(() => {
      for (let i = 0; i <= MAX_APPLIED_EVENTS; i++) ws.addLabel({ pool: 'p', queryId: `q${i % QUERIES}`, candidateId: `c${i % QUERIES}-${i % DEPTH}`, annotator: 'bob', value: i % 2 ? '1' : '0', restate: true, origin: 'ui' });
    });
    expect(snapshot(kept.get('p'))).toBe(snapshot(loadPoolState(ws, 'p')));
    expect(reads).toHaveBeenCalledTimes(6);
    reads.mockRestore();
  });
});
