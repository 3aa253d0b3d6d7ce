/**
 * Pool creation in the app and serve mode runs as a job of kind 'pool': the Pools screen's bar
 * follows its job.progress events and its Cancel sends job.cancel. pool.create used to run as a
 * plain request with neither, so on a large workspace the bar sat at 0 for the whole creation and
 * nothing could stop it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { JobDone, JobProgress } from '../../shared/contract';
import type { PoolInfo } from '../../shared/types';
import { Workspace } from '../workspace/workspace';
import { Engine } from './engine';

let dir: string;
let ws: Workspace;
let engine: Engine;
const QUESTIONS = 3000;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-pooljob-'));
  ws = Workspace.create(path.join(dir, 'w.qpairs'));
  const words = Array.from({ length: 400 }, (_, i) => `w${i.toString(36)}`);
  let s = 7;
  const rnd = (): number => ((s = (s * 1103515245 + 12345) % 2 ** 31), s / 2 ** 31);
  const text = (n: number): string => Array.from({ length: n }, () => words[Math.floor(rnd() * words.length)]).join(' ');
  ws.transaction(() => {
    for (let i = 1; i <= QUESTIONS; i++) ws.upsertQuestion({ id: `q${i}`, source: 't', title: text(6), body: text(30) });
  });
  engine = new Engine(ws, { transport: 'electron' });
});
afterAll(() => {
  engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('pool.create as a job', () => {
  it('reports its progress as job.progress events of kind pool, up to every query', async () => {
    const progress: JobProgress[] = [];
    const done: JobDone[] = [];
    const off1 = engine.on('job.progress', (p) => p.kind === 'pool' && progress.push(p));
    const off2 = engine.on('job.done', (d) => d.kind === 'pool' && done.push(d));
    try {
      const info = await engine.invoke('pool.create', { name: 'big', sample: { n: 1000, seed: 1 }, depth: 10 });
      expect(info).toMatchObject({ name: 'big', queries: 1000 });
      const retrieving = progress.filter((p) => p.message === "retrieving each query's BM25 top-10");
      expect(retrieving.length).toBeGreaterThan(0);
      expect(retrieving.at(-1)).toMatchObject({ done: 1000, total: 1000 });
      await new Promise((r) => setImmediate(r));
      expect(done).toEqual([expect.objectContaining({ jobId: progress[0]!.jobId, ok: true })]);
    } finally {
      off1();
      off2();
    }
  });

  it('stops at job.cancel, creates nothing and says it was cancelled', async () => {
    const done: JobDone[] = [];
    let cancelled: unknown = null;
    const off1 = engine.on('job.progress', (p) => {
      if (p.kind === 'pool' && p.message.startsWith('retrieving') && cancelled === null) cancelled = engine.invoke('job.cancel', { jobId: p.jobId });
    });
    const off2 = engine.on('job.done', (d) => d.kind === 'pool' && done.push(d));
    try {
      await expect(engine.invoke('pool.create', { name: 'stopped', sample: { n: 2000, seed: 2 }, depth: 10 })).rejects.toThrow(
        'pool creation cancelled: pool "stopped" was not created',
      );
      expect(await cancelled).toEqual({ cancelled: true });
      expect(((await engine.invoke('pool.list', {})) as Array<{ name: string }>).map((p) => p.name)).toEqual(['big']);
      await new Promise((r) => setImmediate(r));
      expect(done).toEqual([expect.objectContaining({ ok: false, cancelled: true })]);
    } finally {
      off1();
      off2();
    }
  });
});

/** Counts executions of the workspace's statements whose SQL matches `match`, until restored. */
function countExecutions(match: RegExp): { n: number; restore(): void } {
  const counter = { n: 0, restore: () => spy.mockRestore() };
  const stmt = ws.stmt.bind(ws);
  const spy = vi.spyOn(ws, 'stmt').mockImplementation((sql: string) => {
    const st = stmt(sql);
    if (!match.test(sql)) return st;
    return new Proxy(st, {
      get(target, key) {
        const v = Reflect.get(target, key, target) as unknown;
        if (typeof v !== 'function') return v;
        return (...args: unknown[]) => {
          if (key === 'get' || key === 'all' || key === 'run' || key === 'iterate') counter.n++;
          return (v as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  });
  return counter;
}

describe('pool creation lets labels through', () => {
  it('a label given while a pool is being created is acknowledged before the pool is', async () => {
    ws.transaction(() => {
      ws.createPool({ name: 'labeled', scheme: 'binary' });
      ws.addPoolQuery('labeled', 'q1', ['q2']);
    });
    const order: string[] = [];
    let labeled: Promise<unknown> | null = null;
    // Given once the retrieval has begun (its first progress report, at query 100 of 2,000).
    const off = engine.on('job.progress', (p) => {
      if (p.kind !== 'pool' || labeled || p.done === 0) return;
      order.push(`label given at query ${p.done}`);
      labeled = engine.invoke('label.set', { pool: 'labeled', annotator: 'ann', queryId: 'q1', candidateId: 'q2', value: '1' }).then(() => order.push('label acknowledged'));
    });
    try {
      await engine.invoke('pool.create', { name: 'many', sample: { n: 2000, seed: 2 }, depth: 10 }).then(() => order.push('pool created'));
      await labeled;
    } finally {
      off();
    }
    expect(order).toEqual(['label given at query 100', 'label acknowledged', 'pool created']);
    expect(ws.pool('many').queries).toBe(2000);
  });
});

describe('pool creation writes its queries without re-reading the whole pool for each', () => {
  it("reads the pool's counts and last query position a few times, not once per query, and keeps the pool's order", async () => {
    // pool() counts all of the pool's queries and pairs; the last position scans the pool's queries.
    const wholePool = countExecutions(/count\(\*\) FROM pool_candidates c WHERE c\.pool_id = p\.id|coalesce\(max\(position\), -1\) \+ 1 AS n FROM pool_queries/);
    let info: PoolInfo;
    try {
      info = (await engine.invoke('pool.create', { name: 'ordered', sample: { n: 400, seed: 3 }, depth: 5 })) as PoolInfo;
    } finally {
      wholePool.restore();
    }
    expect(info).toMatchObject({ queries: 400, pairs: 2000 });
    expect(wholePool.n).toBeLessThanOrEqual(10); // 6 now; 800 (two per query) before
    const queries = ws.db.prepare(`SELECT query_id, position FROM pool_queries WHERE pool_id = ? ORDER BY position`).all(info.id) as Array<{ query_id: string; position: number }>;
    expect(queries.map((q) => q.position)).toEqual(Array.from({ length: 400 }, (_, i) => i));
    const positions = ws.db.prepare(`SELECT group_concat(position) AS p FROM (SELECT query_id, position FROM pool_candidates WHERE pool_id = ? ORDER BY query_id, position) GROUP BY query_id`).pluck().all(info.id);
    expect(new Set(positions)).toEqual(new Set(['0,1,2,3,4']));
    // The candidates in BM25 order: the run's scores fall with the position.
    const inversions = ws.db
      .prepare(
        `SELECT count(*) FROM pool_candidates a JOIN pool_candidates b ON b.pool_id = a.pool_id AND b.query_id = a.query_id AND b.position = a.position + 1
         JOIN run_scores sa ON sa.query_id = a.query_id AND sa.candidate_id = a.candidate_id JOIN run_scores sb ON sb.query_id = b.query_id AND sb.candidate_id = b.candidate_id AND sb.run_id = sa.run_id
         JOIN runs r ON r.id = sa.run_id AND r.pool_id = a.pool_id WHERE a.pool_id = ? AND sb.score > sa.score`,
      )
      .pluck()
      .get(info.id);
    expect(inversions).toBe(0);
  });

  it('addPoolQueries appends new queries after the last and keeps existing candidates where they are', () => {
    ws.createPool({ name: 'appended', scheme: 'binary' });
    expect(ws.addPoolQueries('appended', [{ queryId: 'q1', candidates: ['q2', 'q3'] }, { queryId: 'q4', candidates: ['q4', 'q5'] }])).toBe(3);
    expect(ws.addPoolQueries('appended', [{ queryId: 'q6', candidates: ['q7'] }, { queryId: 'q1', candidates: ['q3', 'q8'] }])).toBe(2);
    const pid = ws.poolId('appended');
    expect(ws.db.prepare(`SELECT query_id, position FROM pool_queries WHERE pool_id = ? ORDER BY position`).all(pid)).toEqual([
      { query_id: 'q1', position: 0 },
      { query_id: 'q4', position: 1 },
      { query_id: 'q6', position: 2 },
    ]);
    expect(ws.db.prepare(`SELECT candidate_id FROM pool_candidates WHERE pool_id = ? AND query_id = 'q1' ORDER BY position`).pluck().all(pid)).toEqual(['q2', 'q3', 'q8']);
    expect(() => ws.addPoolQueries('nope', [])).toThrow('no pool named "nope"');
  });
});
