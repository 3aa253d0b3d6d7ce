/**
 * Issue 23, item 3 — blind means blind: walks every command an annotator may call (every entry of
 * the role table at level `annotator`) on a blind pool, and every event that reaches them, and
 * fails on anything from which the pool's order could be rebuilt: an engine rank or score, a run,
 * the retriever's position of a candidate, or a ranker's score value (MARKERS.score) anywhere.
 */
import { describe, expect, it } from 'vitest';
import { commandArgs, commandRoles, ContractError, type CommandName, type EventName } from '../../shared/contract';
import type { Engine } from './engine';
import { MARKERS, useTeamEngine } from './test-team';

let engine: Engine;
useTeamEngine('qpairs-blind-walk-', (e) => (engine = e));

const ALICE = { annotator: 'alice', local: false } as const;

/** Every annotator-level command with arguments aimed at the blind pool "sealed". */
function argsFor(command: CommandName, seq: number): Record<string, unknown> | undefined {
  const A: Partial<Record<CommandName, Record<string, unknown>>> = {
    'app.info': {},
    'workspace.stats': {},
    'job.cancel': { jobId: 'job-1' },
    'job.status': { jobId: 'job-1' },
    'pool.list': {},
    'pool.progress': { pool: 'sealed' },
    'annotator.list': {},
    'annotate.query': { pool: 'sealed', annotator: 'alice', queryId: 'q1' },
    'annotate.navigate': { pool: 'sealed', annotator: 'alice', from: 'q1', direction: 'next' },
    'annotate.queries': { pool: 'sealed', annotator: 'alice' },
    'label.set': { pool: 'sealed', queryId: 'q2', candidateId: 'c2', annotator: 'alice', value: '2' },
    'label.undo': { seq, annotator: 'alice' },
    'live.status': { pool: 'sealed' },
    'eval.order': { pool: 'sealed' },
    'eval.pool': { pool: 'sealed' },
    'eval.query': { pool: 'sealed', queryId: 'q1' },
    'pool.assignment': { pool: 'sealed', annotator: 'alice' },
    'questions.search': { text: 'title of q1 body of q1 about laptops', limit: 10 },
    'question.show': { id: 'c2' },
  };
  return A[command];
}

/** Paths in a value that could rebuild the pool order. */
function orderLeaks(value: unknown, at = '$'): string[] {
  const out: string[] = [];
  const walk = (v: unknown, p: string, parentKey: string | null, index: number | null): void => {
    if (Array.isArray(v)) {
      v.forEach((x, i) => walk(x, `${p}[${i}]`, parentKey, i));
      return;
    }
    if (!v || typeof v !== 'object') return;
    // A place in a pool that is not blind (question.show lists every pool) may show its order.
    if ((v as { blind?: unknown }).blind === false) return;
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      const q = `${p}.${k}`;
      if (/^(score|scores|rank|ranks|retrieverRank|bm25)$/i.test(k)) out.push(`${q} (${k})`);
      else if ((k === 'runs' || k === 'runNames') && x && typeof x === 'object' && Object.keys(x).length > 0) out.push(`${q} (rankers)`);
      else if (k === 'candidatePosition' && x !== null) out.push(`${q} (retriever position)`);
      else if (k === 'position' && parentKey === 'candidates' && x !== index) out.push(`${q} = ${String(x)} at display index ${index}`);
      walk(x, q, k, null);
    }
  };
  walk(value, at, null, null);
  const blindOnly = JSON.stringify(value ?? null, (_k, x: unknown) => (x && typeof x === 'object' && (x as { blind?: unknown }).blind === false ? undefined : x));
  if ((blindOnly ?? '').includes(MARKERS.score)) out.push(`${at} carries a ranker's score value`);
  return out;
}

describe('blind means blind: what an annotator of a blind pool can reach', () => {
  it('every annotator-level command and every event carries no rank, score, run or retriever position', async () => {
    const heard: Array<{ event: EventName; payload: unknown }> = [];
    const off = engine.hub.onAny((event, payload) => {
      if (engine.canSee(ALICE, event, payload as never)) heard.push({ event, payload });
    });
    const own = (await engine.invoke('label.set', { pool: 'sealed', queryId: 'q2', candidateId: 'c1', annotator: 'alice', value: '3' }, ALICE)) as { seq: number };
    // Others act meanwhile: the owner, a judge and another annotator, and a job.
    await engine.invoke('label.set', { pool: 'sealed', queryId: 'q1', candidateId: 'c3', annotator: 'bob', value: '5' }, { annotator: 'bob', local: false });
    await engine.invoke('review.settle', { pool: 'sealed', judge: 'carol', queryId: 'q1', candidateId: 'c3', value: '1' }, { annotator: 'carol', local: false });
    await engine.invoke('pool.set', { pool: 'open', blind: false });

    const annotatorCommands = (Object.keys(commandArgs) as CommandName[]).filter((c) => commandRoles[c] === 'annotator');
    const outcomes: string[] = [];
    for (const command of annotatorCommands) {
      const args = argsFor(command, own.seq);
      expect(args, `the walk has arguments for ${command}`).toBeDefined();
      try {
        const result = await engine.invoke(command, args, ALICE);
        outcomes.push(`${command}: ok`);
        expect(orderLeaks(result, command), command).toEqual([]);
      } catch (e) {
        if (!(e instanceof ContractError)) throw e;
        outcomes.push(`${command}: ${e.code}`);
        expect(orderLeaks({ message: e.message }, command), command).toEqual([]);
      }
    }
    off();
    // What she may run answers; metrics and the live model stay refused.
    expect(outcomes).toContain('annotate.query: ok');
    expect(outcomes).toContain('questions.search: ok');
    expect(outcomes).toContain('eval.pool: forbidden');
    expect(heard.length).toBeGreaterThan(0);
    for (const h of heard) expect(orderLeaks(h.payload, h.event), h.event).toEqual([]);
  });

  it('the display index is per annotator: each sees the candidates in an order of their own, positions 0…n−1', async () => {
    const view = async (who: 'alice' | 'bob', q: string): Promise<string[]> => {
      const v = (await engine.invoke('annotate.query', { pool: 'sealed', annotator: who, queryId: q }, { annotator: who, local: false })) as { candidates: Array<{ id: string; position: number }> };
      expect(v.candidates.map((c) => c.position)).toEqual(v.candidates.map((_, i) => i));
      return v.candidates.map((c) => c.id);
    };
    // Six queries of eight candidates: the chance that both see the same order in all of them by luck is negligible.
    engine.ws.transaction(() => {
      for (let i = 0; i < 8; i++) engine.ws.upsertQuestion({ id: `d${i}`, source: 'test', title: `t${i}`, body: 'b' });
      engine.ws.createPool({ name: 'wide', scheme: 'binary', blind: true });
      for (let q = 0; q < 6; q++) engine.ws.addPoolQuery('wide', `d${q}`, [0, 1, 2, 3, 4, 5, 6, 7].filter((i) => i !== q).map((i) => `d${i}`));
    });
    const orders = async (who: 'alice' | 'bob'): Promise<string> => {
      const out: string[] = [];
      for (let q = 0; q < 6; q++) {
        const v = (await engine.invoke('annotate.query', { pool: 'wide', annotator: who, queryId: `d${q}` }, { annotator: who, local: false })) as { candidates: Array<{ id: string; position: number }> };
        expect(v.candidates.map((c) => c.position)).toEqual(v.candidates.map((_, i) => i));
        out.push(v.candidates.map((c) => c.id).join(','));
      }
      return out.join(';');
    };
    expect(await orders('alice')).not.toBe(await orders('bob'));
    await view('alice', 'q1');
    // The owner (not blind to pool order) still sees the retriever's positions in an open pool.
    const open = (await engine.invoke('annotate.query', { pool: 'open', annotator: 'alice', queryId: 'q1' })) as { candidates: Array<{ position: number; runs: object }> };
    expect(open.candidates.map((c) => c.position)).toEqual([0, 1, 2]);
  });

  it('an annotator cannot rebuild a ranking by asking limit 1, 2, 3…: each limit gives the first by title of one set', async () => {
    type Found = { results: Array<{ id: string }> };
    const text = 'title of q2 body of q2 about laptops';
    const best = (await engine.invoke('questions.search', { text, limit: 1 })) as Found;
    expect(best.results.map((r) => r.id)).toEqual(['q2']); // the owner: best first
    const set = ((await engine.invoke('questions.search', { text, limit: 50 }, ALICE)) as Found).results.map((r) => r.id);
    expect(set).toHaveLength(5);
    for (let k = 1; k <= set.length; k++) {
      const r = (await engine.invoke('questions.search', { text, limit: k }, ALICE)) as Found;
      expect(r.results.map((x) => x.id)).toEqual(set.slice(0, k));
    }
    expect(set[0]).toBe('c1'); // by title, not the best match
  });

  it('an annotator’s search comes back as a set: by title, without scores', async () => {
    const r = (await engine.invoke('questions.search', { text: 'laptops', limit: 10 }, ALICE)) as { results: Array<{ title: string; score?: number }>; ranked?: boolean };
    expect(r.ranked).toBe(false);
    expect(r.results.every((x) => x.score === undefined)).toBe(true);
    expect(r.results.map((x) => x.title)).toEqual([...r.results.map((x) => x.title)].sort((a, b) => a.localeCompare(b)));
    const owner = (await engine.invoke('questions.search', { text: 'laptops', limit: 10 })) as { results: Array<{ score?: number }> };
    expect(owner.results.every((x) => typeof x.score === 'number')).toBe(true);
  });
});
