/**
 * Issue 24: each dataset's own evaluation convention by default. A pool remembers its source's
 * convention (SemEval imports zero, AskUbuntu pools skip, own pools the owner's choice, default
 * zero); `qpairs eval` without --convention uses it and says so, and the published figures come
 * out: SemEval-2016 3B dev search-engine MAP 71.35 (the official scorer), AskUbuntu dev
 * bm25-lucene MAP 52.03 (Lei et al. 2016).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCliOk } from './test-cli';
import { dataset } from '../../../tests/datasets';
import { Engine } from '../engine/engine';
import { Workspace } from '../workspace/workspace';
import type { PoolEvaluation } from '../../shared/contract';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-cli-convention-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const ok = runCliOk;

/** The MAP figure of a run in eval's table. */
const mapOf = (out: string, run: string): string => new RegExp(`^${run}\\s+\\d+\\s+([\\d.]+)`, 'm').exec(out)?.[1] ?? `no ${run} row in:\n${out}`;

describe('eval uses the pool’s own convention unless told', () => {
  it('SemEval dev: zero → 71.35; AskUbuntu dev: skip → 52.03; each says which it used', { timeout: 60_000 }, async () => {
    const w = path.join(dir, 'W.qpairs');
    await ok('init', w);
    await ok('import', w, '--format', 'semeval', dataset('semeval2016-task3/SemEval2016-Task3-CQA-QL-dev.xml'), '--pool', 'dev');
    await ok('import', w, '--format', 'askubuntu-pool', dataset('askubuntu/dev.txt'), '--pool', 'au-dev');
    const dev = await ok('eval', w, '--pool', 'dev');
    expect(dev).toContain("convention zero (the pool's; --convention overrides)");
    expect(mapOf(dev, 'search-engine')).toBe('71.35');
    const au = await ok('eval', w, '--pool', 'au-dev');
    expect(au).toContain("convention skip (the pool's; --convention overrides)");
    expect(mapOf(au, 'bm25-lucene')).toBe('52.03');
    // The header says the table counts 189 of the 200 queries (it said "200 of 200 queries counted" alone).
    expect(au).toContain('200 of 200 queries counted');
    expect(au).toContain('11 of them have no similar candidate: left out of the metrics (convention skip), which count 189');
    // --convention still overrides, and says it was the caller's choice.
    const skip = await ok('eval', w, '--pool', 'dev', '--convention', 'skip');
    expect(skip).toMatch(/convention skip, ties/);
    expect(mapOf(skip, 'search-engine')).toBe('82.97');
    const json = JSON.parse(await ok('eval', w, '--pool', 'au-dev', '--json')) as PoolEvaluation;
    expect(json).toMatchObject({ convention: 'skip', conventionChosenBy: 'pool' });
    const pools = JSON.parse(await ok('pool', 'list', w, '--json')) as Array<{ name: string; convention: string }>;
    expect(Object.fromEntries(pools.map((p) => [p.name, p.convention]))).toEqual({ dev: 'zero', 'au-dev': 'skip' });
  });

  it('own pools: zero by default, the owner’s choice at creation or later; the app’s eval.pool follows it', async () => {
    const ws = Workspace.create(path.join(dir, 'own.qpairs'));
    ws.transaction(() => {
      for (const id of ['q1', 'q2', 'a', 'b']) ws.upsertQuestion({ id, source: 's', title: `t ${id}`, body: '' });
    });
    ws.createPool({ name: 'mine', scheme: 'binary' });
    ws.createPool({ name: 'theirs', scheme: 'binary', convention: 'skip' });
    for (const p of ['mine', 'theirs']) {
      ws.addPoolQuery(p, 'q1', ['a', 'b']);
      ws.addPoolQuery(p, 'q2', ['a', 'b']);
      const run = ws.ensureRun(p, 'r', 'test');
      for (const q of ['q1', 'q2']) for (const [c, s] of [['a', 2], ['b', 1]] as const) ws.setRunScore(run, q, c, s);
      // q1: b relevant (AP 0.5); q2: nothing relevant (AP 0 under zero, left out under skip).
      for (const [q, c, v] of [['q1', 'a', '0'], ['q1', 'b', '1'], ['q2', 'a', '0'], ['q2', 'b', '0']] as const) ws.addLabel({ pool: p, queryId: q, candidateId: c, annotator: 'gold', value: v, origin: 'test' });
    }
    const engine = new Engine(ws, { transport: 'electron' });
    try {
      const mine = (await engine.invoke('eval.pool', { pool: 'mine' })) as PoolEvaluation;
      expect(mine).toMatchObject({ convention: 'zero', conventionChosenBy: 'pool' });
      expect(mine.runs.r!.MAP).toBeCloseTo(0.25);
      const theirs = (await engine.invoke('eval.pool', { pool: 'theirs' })) as PoolEvaluation;
      expect(theirs).toMatchObject({ convention: 'skip', conventionChosenBy: 'pool' });
      expect(theirs.runs.r!.MAP).toBeCloseTo(0.5);
      expect(await engine.invoke('eval.pool', { pool: 'theirs', convention: 'zero' })).toMatchObject({ convention: 'zero', conventionChosenBy: 'caller' });
      await engine.invoke('pool.set', { pool: 'mine', convention: 'skip' });
      expect(((await engine.invoke('eval.pool', { pool: 'mine' })) as PoolEvaluation).runs.r!.MAP).toBeCloseTo(0.5);
      const ws2 = engine.ws;
      expect(ws2.pool('mine').convention).toBe('skip');
    } finally {
      engine.close();
    }
  });
});
