/**
 * A big pool's gold state is read row by row and its entries share what many pairs hold alike (no
 * votes, no assignees, a resolution): these pin the entries' answers on the cases that sharing
 * touches, and that an export reads the pool's labels once.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { scratchWorkspaces } from '../workspace/scratch-workspaces';
import { Workspace } from '../workspace/workspace';
import { buildExport } from '../export';
import { addAnnotator, assignPool, loadPoolState, setAggregation, type PairEntry, type Vote } from '.';
import { defaultLabelSource, defaultLabelSourceIn } from './state';

const scratch = scratchWorkspaces('qpairs-compact-state-');
let ws: Workspace;
beforeEach(() => {
  ws = scratch.fresh('c');
});

const put = (pool: string, q: string, c: string, who: string, v: string | null, origin = 'ui'): number =>
  ws.addLabel({ pool, queryId: q, candidateId: c, annotator: who, value: v, origin })!;

/** What an entry answers, votes as annotator=value. */
function answers(e: PairEntry): object {
  const named = (vs: readonly Vote[]): string[] => vs.map((v) => `${v.annotator}=${v.value}`);
  return {
    pair: `${e.queryId}→${e.candidateId}`,
    assignees: [...e.assignees],
    votes: named(e.votes),
    unsure: named(e.unsure),
    complete: e.complete,
    judge: e.judge ? `${e.judge.annotator}=${e.judge.value}` : null,
    outdated: e.outdatedRuling ? `${e.outdatedRuling.annotator}=${e.outdatedRuling.value}` : null,
    resolution: { ...e.resolution },
  };
}

describe('a pool state whose entries share their empty lists and resolutions', () => {
  it('an assigned pool under majority: ties, "?", rulings, an outdated ruling, votes still to come', () => {
    ws.createPool({ name: 'p', scheme: 'binary' });
    for (const q of ['q1', 'q2']) ws.addPoolQuery('p', q, ['a', 'b', 'c', 'd', 'e']);
    assignPool(ws, 'p', ['alice', 'bob', 'carol'], null);
    addAnnotator(ws, 'judy', 'judge');
    setAggregation(ws, 'p', 'majority');
    // q1: a agreed, b a tie (1, 0) with carol unsure, c 0 + 0 + "?", d ruled then a vote changed, e unlabeled.
    for (const [c, votes] of [
      ['a', ['1', '1', '1']],
      ['b', ['1', '0', '?']],
      ['c', ['0', '0', '?']],
      ['d', ['1', '0', '0']],
    ] as const) votes.forEach((v, i) => put('p', 'q1', c, ['alice', 'bob', 'carol'][i]!, v));
    put('p', 'q1', 'b', 'judy', '1');
    put('p', 'q1', 'd', 'judy', '1');
    put('p', 'q1', 'd', 'carol', '1'); // after the ruling: outdated, 1 + 0 + 1 → majority 1
    // q2: two votes of three, alike.
    put('p', 'q2', 'a', 'alice', '1');
    put('p', 'q2', 'a', 'bob', '1');
    const s = loadPoolState(ws, 'p');
    const all = ['alice', 'bob', 'carol'];
    expect(s.pairs.slice(0, 6).map(answers)).toEqual([
      { pair: 'q1→a', assignees: all, votes: ['alice=1', 'bob=1', 'carol=1'], unsure: [], complete: true, judge: null, outdated: null, resolution: { value: '1', status: 'agreed' } },
      { pair: 'q1→b', assignees: all, votes: ['alice=1', 'bob=0'], unsure: ['carol=?'], complete: true, judge: 'judy=1', outdated: null, resolution: { value: '1', status: 'adjudicated' } },
      { pair: 'q1→c', assignees: all, votes: ['alice=0', 'bob=0'], unsure: ['carol=?'], complete: true, judge: null, outdated: null, resolution: { value: '0', status: 'majority' } },
      { pair: 'q1→d', assignees: all, votes: ['alice=1', 'bob=0', 'carol=1'], unsure: [], complete: true, judge: null, outdated: 'judy=1', resolution: { value: '1', status: 'majority' } },
      { pair: 'q1→e', assignees: all, votes: [], unsure: [], complete: false, judge: null, outdated: null, resolution: { value: null, status: 'unlabeled' } },
      { pair: 'q2→a', assignees: all, votes: ['alice=1', 'bob=1'], unsure: [], complete: false, judge: null, outdated: null, resolution: { value: '1', status: 'agreed' } },
    ]);
    // Shared answers cannot be changed through one entry: they are frozen.
    const [agreed, , , , unlabeled] = s.pairs;
    expect(Object.isFrozen(agreed!.resolution) && Object.isFrozen(unlabeled!.votes) && Object.isFrozen(agreed!.unsure)).toBe(true);
    expect(() => (unlabeled!.votes as Vote[]).push({ annotator: 'x', value: '1', seq: 1 })).toThrow(TypeError);
    expect(unlabeled!.votes).toEqual([]);
    // Every entry is the byKey entry of its pair, and equal to a fresh read's.
    for (const e of s.pairs) expect(s.byKey.get(`${e.queryId}\u0000${e.candidateId}`)).toBe(e);
    expect(loadPoolState(ws, 'p').pairs.map(answers)).toEqual(s.pairs.map(answers));
  });

  it('k annotators per query: a query added after the assignment has no one assigned, and its labels do not vote', () => {
    ws.createPool({ name: 'k', scheme: 'binary' });
    ws.addPoolQuery('k', 'q1', ['a']);
    assignPool(ws, 'k', ['alice', 'bob', 'carol'], 2);
    ws.addPoolQuery('k', 'q9', ['z']);
    const s0 = loadPoolState(ws, 'k');
    const [assigned] = s0.plan.perQueryAnnotators!.get('q1')!;
    put('k', 'q1', 'a', assigned!, '0');
    put('k', 'q9', 'z', 'alice', '1');
    const s = loadPoolState(ws, 'k');
    expect(s.pairs.map(answers)).toEqual([
      { pair: 'q1→a', assignees: [...s0.plan.perQueryAnnotators!.get('q1')!], votes: [`${assigned}=0`], unsure: [], complete: false, judge: null, outdated: null, resolution: { value: '0', status: 'agreed' } },
      { pair: 'q9→z', assignees: [], votes: [], unsure: [], complete: false, judge: null, outdated: null, resolution: { value: null, status: 'unlabeled' } },
    ]);
  });

  it('an open pool under mean keeps each pair\'s own mean; unanimous leaves a "?" unresolved', () => {
    ws.createPool({ name: 'o', scheme: 'likert5' });
    ws.addPoolQuery('o', 'q1', ['a', 'b', 'c']);
    put('o', 'q1', 'a', 'bob', '2');
    put('o', 'q1', 'a', 'alice', '1');
    put('o', 'q1', 'b', 'alice', '-1');
    put('o', 'q1', 'b', 'bob', '0');
    put('o', 'q1', 'c', 'alice', '?');
    setAggregation(ws, 'o', 'mean');
    const s = loadPoolState(ws, 'o');
    expect(s.annotators).toEqual(['bob', 'alice']);
    expect(s.pairs.map((e) => e.resolution)).toEqual([
      // Halfway between two grades: the lower.
      { value: '1', status: 'mean', mean: 1.5 },
      { value: '-1', status: 'mean', mean: -0.5 },
      { value: null, status: 'unresolved' },
    ]);
    setAggregation(ws, 'o', 'unanimous');
    expect(loadPoolState(ws, 'o').pairs.map((e) => e.resolution)).toEqual([
      { value: null, status: 'unresolved' },
      { value: null, status: 'unresolved' },
      { value: null, status: 'unresolved' },
    ]);
  });

  it('labels read row by row are the rows currentLabels lists, in its order', () => {
    ws.createPool({ name: 'p', scheme: 'binary' });
    ws.addPoolQuery('p', 'q1', ['a', 'b']);
    put('p', 'q1', 'a', 'alice', '1');
    put('p', 'q1', 'b', 'bob', '0');
    put('p', 'q1', 'a', 'alice', '0');
    put('p', 'q1', 'b', 'alice', '?');
    put('p', 'q1', 'b', 'bob', null);
    for (const who of [undefined, 'alice', 'bob', 'nobody']) {
      const rows: unknown[] = [];
      ws.currentLabels('p', who, (l) => rows.push({ ...l }));
      expect(rows).toEqual(ws.currentLabels('p', who));
    }
    expect(ws.currentLabels('p').map((l) => `${l.annotator}:${l.candidateId}=${l.value}`)).toEqual(['alice:a=0', 'alice:b=?']);
  });
});

describe('an export reads its pool\'s labels once', () => {
  it('the default label source comes from the state it read: the aggregate, gold, or gold of a pool nobody labeled', () => {
    for (const p of ['agg', 'gold', 'none']) {
      ws.createPool({ name: p, scheme: 'binary' });
      ws.addPoolQuery(p, 'q1', ['a', 'b']);
    }
    put('agg', 'q1', 'a', 'alice', '1');
    put('gold', 'q1', 'a', 'alice', '1');
    put('gold', 'q1', 'b', 'gold', '0', 'import:gold.txt');
    for (const p of ['agg', 'gold', 'none']) expect(defaultLabelSourceIn(loadPoolState(ws, p))).toBe(defaultLabelSource(ws, p));
    expect(['agg', 'gold', 'none'].map((p) => defaultLabelSource(ws, p))).toEqual(['@aggregate', 'gold', 'gold']);

    const reads = vi.spyOn(ws, 'currentLabels');
    const built = buildExport(ws, 'agg', 'jsonl', 'agg.jsonl', { version: 't', text: false });
    // Before, the default source read the whole pool's labels and state a second time (and gold's labels).
    expect(reads.mock.calls.map((c) => c[1] ?? null)).toEqual([null]);
    const rows = built.files[0]!.content.trim().split('\n').map((l) => JSON.parse(l) as { candidate_id: string; label: string });
    expect(rows.map((r) => `${r.candidate_id}=${r.label}`)).toEqual(['a=1', 'b=?']);
    reads.mockClear();
    const gold = buildExport(ws, 'gold', 'jsonl', 'gold.jsonl', { version: 't', text: false });
    expect(gold.files[0]!.content.trim().split('\n').map((l) => (JSON.parse(l) as { label: string }).label)).toEqual(['?', '0']);
    // gold's own labels, read for the labels written.
    expect(reads.mock.calls.map((c) => c[1] ?? null)).toEqual([null, 'gold']);
  });
});
