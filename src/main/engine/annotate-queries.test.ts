import { describe, expect, it } from 'vitest';
import type { AnnotateQueryItem, QueryView } from '../../shared/contract';
import type { Engine } from './engine';
import { useTeamEngine } from './test-team';

let engine: Engine;
useTeamEngine('qpairs-queries-', (e) => (engine = e));

describe('annotate.queries (the go-to list)', () => {
  it("lists the annotator's queries in order with titles, positions as annotate.query gives them, and what is done", async () => {
    const alice = { annotator: 'alice', local: false };
    const list = (await engine.invoke('annotate.queries', { pool: 'sealed', annotator: 'alice' }, alice)) as AnnotateQueryItem[];
    expect(list).toEqual([
      { id: 'q1', index: 0, title: 'title of q1', done: true },
      { id: 'q2', index: 1, title: 'title of q2', done: true },
    ]);
    await engine.invoke('label.set', { pool: 'sealed', queryId: 'q2', candidateId: 'c1', annotator: 'alice', value: null }, alice);
    const after = (await engine.invoke('annotate.queries', { pool: 'sealed', annotator: 'alice' }, alice)) as AnnotateQueryItem[];
    expect(after.map((q) => q.done)).toEqual([true, false]);
    const view = (await engine.invoke('annotate.query', { pool: 'sealed', annotator: 'alice', queryId: 'q2' }, alice)) as QueryView;
    expect(view.index).toBe(after[1]!.index);
    await expect(engine.invoke('annotate.queries', { pool: 'sealed', annotator: 'bob' }, alice)).rejects.toMatchObject({ code: 'forbidden' });
    await expect(engine.invoke('annotate.queries', { pool: 'nope', annotator: 'alice' }, alice)).rejects.toMatchObject({ code: 'not-found' });
  });

  it('under k annotators per query, only the assigned ones, indexed among them', async () => {
    await engine.invoke('pool.assign', { pool: 'sealed', annotators: ['alice', 'bob'], perQuery: 1, seed: 3 });
    const a = (await engine.invoke('annotate.queries', { pool: 'sealed', annotator: 'alice' })) as AnnotateQueryItem[];
    const b = (await engine.invoke('annotate.queries', { pool: 'sealed', annotator: 'bob' })) as AnnotateQueryItem[];
    expect([...a, ...b].map((q) => q.id).sort()).toEqual(['q1', 'q2']);
    expect(a.map((q) => q.index)).toEqual(a.map((_, i) => i));
  });
});
