/**
 * Runs stored in chunks out of sight (migration 15, staged-runs.ts): a reader between two chunks
 * sees the old run whole and nothing of the new one; a cancel, a failure or a crash leaves nothing
 * behind; the stored scores are replaceRun's. And the pool's label version reads an index.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { CancelledError, WorkspaceFromFutureError } from '../errors';
import { openWorkspace } from './db';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations';
import { scratchWorkspaces } from './scratch-workspaces';
import { Workspace } from './workspace';

const scratch = scratchWorkspaces('qpairs-staged-runs-');

const Q = 6;
const C = 5;

/** A pool `p` of Q queries × C candidates with the run `m` (scores `old`) and the run `bm25`. */
function poolWithRun(ws: Workspace): void {
  ws.transaction(() => {
    ws.createPool({ name: 'p' });
    for (let q = 0; q < Q; q++) ws.addPoolQuery('p', `q${q}`, Array.from({ length: C }, (_, c) => `c${q}_${c}`));
    ws.replaceRun('p', 'bm25', 'retriever', {}, rowsOf(() => 7));
    ws.replaceRun('p', 'm', 'model', { v: 'old' }, rowsOf((q, c) => q * 10 + c));
  });
}

function rowsOf(score: (q: number, c: number) => number): Array<readonly [string, string, number]> {
  const rows: Array<readonly [string, string, number]> = [];
  for (let q = 0; q < Q; q++) for (let c = 0; c < C; c++) rows.push([`q${q}`, `c${q}_${c}`, score(q, c)]);
  return rows;
}

/** What every reader of runs says of the pool (a pool's runs, kinds, configs, scores, counts). */
function view(ws: Workspace): unknown {
  const runs = ws.listRuns('p');
  return {
    runs: runs.map((r) => ({ name: r.name, kind: r.kind, pairs: r.pairs })),
    kinds: ws.runKinds('p'),
    config: ws.runConfig('p', 'm'),
    scores: runs.map((r) => [...ws.runScores(r.id)].map(([q, m]) => [q, [...m]])),
    poolRuns: ws.pool('p').runs,
    statsRuns: ws.stats().runs,
  };
}

function leftovers(ws: Workspace): { staged: number; scores: number } {
  return {
    staged: ws.db.prepare(`SELECT count(*) FROM runs WHERE staged IS NOT NULL`).pluck().get() as number,
    // Scores of runs no reader sees (every run readers see is counted by listRuns).
    scores: (ws.db.prepare(`SELECT count(*) FROM run_scores`).pluck().get() as number) - ws.listRuns('p').reduce((n, r) => n + r.pairs, 0),
  };
}

describe('a run stored in chunks', () => {
  it('is out of sight until whole: between chunks this connection and another see the old run, then the new one at once', async () => {
    const ws = scratch.fresh('w');
    poolWithRun(ws);
    const before = view(ws);
    const other = Workspace.open(ws.path, { readonly: true });
    try {
      const otherBefore = view(other);
      expect(otherBefore).toEqual(before);
      let chunks = 0;
      const seen: unknown[] = [];
      const stamp = ws.changeStamp();
      const stamps: string[] = [];
      const write = async <T,>(f: () => T): Promise<T> => {
        const out = f();
        chunks++;
        seen.push(view(ws), view(other));
        stamps.push(ws.changeStamp());
        return out;
      };
      const pairs = await ws.replaceRunInChunks('p', 'm', 'model', { v: 'new' }, [...rowsOf((q, c) => -(q * 10 + c)), ['q0', 'c0_1', Number.NaN]], { chunk: 7, write });
      expect(pairs).toBe(Q * C);
      // The staging row and 5 chunks of scores (the readers saw the old run after each), the swap,
      // then the old run's 30 scores deleted out of sight in 5 chunks (the readers saw the new run).
      const swap = 1 + Math.ceil((Q * C + 1) / 7);
      expect(chunks).toBe(swap + 1 + Math.ceil((Q * C + 1) / 7));
      for (let i = 0; i < swap; i++) expect(seen[2 * i + 1]).toEqual(before);
      for (let i = 0; i < swap; i++) expect(seen[2 * i]).toEqual(before);
      // Nothing a reader sees changed before the swap: results keyed by the change stamp stay valid.
      expect(stamps.slice(0, swap)).toEqual(Array(swap).fill(stamp));
      expect(stamps[swap]).not.toBe(stamp);
      const after = view(ws);
      for (let i = swap; i < chunks; i++) expect([seen[2 * i], seen[2 * i + 1]]).toEqual([after, after]);
      expect(stamps.slice(swap)).toEqual(Array(chunks - swap).fill(stamps[swap]));
      expect(view(other)).toEqual(after);
      expect(ws.runConfig('p', 'm')).toEqual({ v: 'new' });
      expect(leftovers(ws)).toEqual({ staged: 0, scores: 0 });
    } finally {
      other.close();
    }
  });

  it('stores the same scores replaceRun does (non-finite ones left out), in place of the old run or as a new one', async () => {
    const ws = scratch.fresh('w');
    poolWithRun(ws);
    const rows = [...rowsOf((q, c) => Math.sin(q * 7 + c) * 1e6), ['q1', 'c1_2', Number.POSITIVE_INFINITY] as const];
    const chunked = await ws.replaceRunInChunks('p', 'm', 'model', { v: 2 }, rows, { chunk: 4 });
    const fresh = await ws.replaceRunInChunks('p', 'n', 'model', { v: 3 }, rows.slice(0, 9), { chunk: 4 });
    const other = scratch.fresh('x');
    poolWithRun(other);
    expect(other.replaceRun('p', 'm', 'model', { v: 2 }, rows)).toBe(chunked);
    other.replaceRun('p', 'n', 'model', { v: 3 }, rows.slice(0, 9));
    expect(fresh).toBe(9);
    expect(view(ws)).toEqual(view(other));
    expect(ws.listRuns('p').map((r) => r.name)).toEqual(['bm25', 'm', 'n']);
  });

  it('cancelled mid-way: CancelledError, the old run intact, nothing staged left', async () => {
    const ws = scratch.fresh('w');
    poolWithRun(ws);
    const before = view(ws);
    const ac = new AbortController();
    let calls = 0;
    const write = async <T,>(f: () => T): Promise<T> => {
      const out = f();
      if (++calls === 3) ac.abort();
      return out;
    };
    await expect(ws.replaceRunInChunks('p', 'm', 'model', {}, rowsOf(() => 1), { chunk: 4, write, signal: ac.signal })).rejects.toBeInstanceOf(CancelledError);
    expect(view(ws)).toEqual(before);
    expect(leftovers(ws)).toEqual({ staged: 0, scores: 0 });
  });

  it('failing mid-way (a chunk) or at the swap (the check before it): the error, the old run intact, nothing staged left', async () => {
    const ws = scratch.fresh('w');
    poolWithRun(ws);
    const before = view(ws);
    let calls = 0;
    const write = async <T,>(f: () => T): Promise<T> => {
      if (++calls === 3) throw new Error('disk full');
      return f();
    };
    await expect(ws.replaceRunInChunks('p', 'm', 'model', {}, rowsOf(() => 1), { chunk: 4, write })).rejects.toThrow('disk full');
    expect(view(ws)).toEqual(before);
    expect(leftovers(ws)).toEqual({ staged: 0, scores: 0 });
    await expect(
      ws.replaceRunInChunks('p', 'm', 'model', {}, rowsOf(() => 1), {
        chunk: 4,
        beforeSwap: () => {
          throw new Error('model changed');
        },
      }),
    ).rejects.toThrow('model changed');
    expect(view(ws)).toEqual(before);
    expect(leftovers(ws)).toEqual({ staged: 0, scores: 0 });
    // The pool deleted while its run was stored: refused at the swap, nothing left.
    let n = 0;
    const deleting = async <T,>(f: () => T): Promise<T> => {
      const out = f();
      if (++n === 2) ws.db.prepare(`DELETE FROM pools WHERE name = 'p'`).run();
      return out;
    };
    await expect(ws.replaceRunInChunks('p', 'm', 'model', {}, rowsOf(() => 1), { chunk: 4, write: deleting })).rejects.toThrow();
    expect(ws.db.prepare(`SELECT count(*) FROM runs`).pluck().get()).toBe(0);
    expect(ws.db.prepare(`SELECT count(*) FROM run_scores`).pluck().get()).toBe(0);
  });

  it('interrupted by a crash: out of sight meanwhile, kept while its process runs, deleted by the next writable open once it is gone', async () => {
    const ws = scratch.fresh('w');
    poolWithRun(ws);
    const before = view(ws);
    // A staging that stops after its third chunk, as a killed process's would.
    let calls = 0;
    const stalled = ws.replaceRunInChunks('p', 'm', 'model', {}, rowsOf(() => 1), {
      chunk: 4,
      write: <T,>(f: () => T): Promise<T> => (++calls <= 3 ? Promise.resolve(f()) : new Promise<T>(() => {})),
    });
    void stalled;
    // Until the fourth write is asked for (the three before it done), however slow the machine.
    while (calls <= 3) await new Promise((r) => setTimeout(r, 5));
    expect(leftovers(ws)).toEqual({ staged: 1, scores: 8 });
    // Its process (this one) still runs: a writable open leaves its rows alone.
    Workspace.open(ws.path).close();
    expect(leftovers(ws)).toEqual({ staged: 1, scores: 8 });
    // Written by a process that is gone now.
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const pid = Number(gone.stdout);
    expect(pid).toBeGreaterThan(0);
    ws.db.prepare(`UPDATE runs SET staged = json_set(staged, '$.pid', ?) WHERE staged IS NOT NULL`).run(pid);
    expect(view(ws)).toEqual(before);
    // A read-only open cannot delete them; readers still see the old run only.
    const ro = Workspace.open(ws.path, { readonly: true });
    expect(view(ro)).toEqual(before);
    ro.close();
    expect(leftovers(ws)).toEqual({ staged: 1, scores: 8 });
    // An open that leaves recovery to the holder of the lock (the CLI, serve mode, the app) deletes them only when told to.
    const later = Workspace.open(ws.path, { recovery: 'later' });
    expect(later.recoveryDue).toBe(true);
    expect(leftovers(ws)).toEqual({ staged: 1, scores: 8 });
    later.recoverLeftWrites();
    expect(later.recoveryDue).toBe(false);
    later.close();
    expect(leftovers(ws)).toEqual({ staged: 0, scores: 0 });
    const next = Workspace.open(ws.path);
    expect(view(next)).toEqual(before);
    next.close();
    expect(leftovers(ws)).toEqual({ staged: 0, scores: 0 });
    expect(view(ws)).toEqual(before);
  });
});

describe('runs deleted in chunks', () => {
  it('leave every reader at once, in one short write; their scores are then deleted in chunks out of sight, and the result is a plain delete\'s', async () => {
    const ws = scratch.fresh('w');
    poolWithRun(ws);
    const plain = scratch.fresh('x');
    poolWithRun(plain);
    plain.transaction(() => {
      plain.deleteRun('p', 'm');
      plain.deleteRun('p', 'bm25');
    });
    const other = Workspace.open(ws.path, { readonly: true });
    try {
      const stamp = ws.changeStamp();
      const seen: unknown[] = [];
      const stamps: string[] = [];
      let inPick = false;
      const write = async <T,>(f: () => T): Promise<T> => {
        const out = f();
        seen.push(view(ws), view(other));
        stamps.push(ws.changeStamp());
        return out;
      };
      const r = await ws.deleteRunsInChunks(
        () => {
          inPick = ws.db.inTransaction;
          return { result: 'picked', runs: [{ pool: 'p', name: 'm' }, { pool: 'p', name: 'bm25' }, { pool: 'p', name: 'none' }] };
        },
        { chunk: 7, write },
      );
      expect(r).toBe('picked');
      expect(inPick).toBe(true);
      // One write sets both aside; then each run's 30 scores are deleted 7 at a time (5 writes each).
      expect(seen).toHaveLength(2 * (1 + 5 + 5));
      const after = view(plain);
      for (const v of seen) expect(v).toEqual(after);
      expect(stamps[0]).not.toBe(stamp);
      expect(new Set(stamps)).toEqual(new Set([stamps[0]]));
      expect(view(ws)).toEqual(after);
      expect(ws.db.prepare(`SELECT count(*) FROM runs`).pluck().get()).toBe(0);
      expect(ws.db.prepare(`SELECT count(*) FROM run_scores`).pluck().get()).toBe(0);
    } finally {
      other.close();
    }
  });

  it('interrupted by a crash: nothing visible meanwhile, deleted by the next writable open once its process is gone', async () => {
    const ws = scratch.fresh('w');
    poolWithRun(ws);
    const plain = scratch.fresh('x');
    poolWithRun(plain);
    plain.deleteRun('p', 'm');
    const after = view(plain);
    let calls = 0;
    void ws.deleteRunsInChunks(() => ({ result: null, runs: [{ pool: 'p', name: 'm' }] }), {
      chunk: 4,
      write: <T,>(f: () => T): Promise<T> => (++calls <= 3 ? Promise.resolve(f()) : new Promise<T>(() => {})),
    });
    // Until the fourth write is asked for (the three before it done), however slow the machine.
    while (calls <= 3) await new Promise((r) => setTimeout(r, 5));
    expect(view(ws)).toEqual(after);
    expect(leftovers(ws)).toEqual({ staged: 1, scores: Q * C - 8 });
    // Its process (this one) still runs: a writable open leaves its rows alone.
    Workspace.open(ws.path).close();
    expect(leftovers(ws)).toEqual({ staged: 1, scores: Q * C - 8 });
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    ws.db.prepare(`UPDATE runs SET staged = json_set(staged, '$.pid', ?) WHERE staged IS NOT NULL`).run(Number(gone.stdout));
    const next = Workspace.open(ws.path);
    expect(view(next)).toEqual(after);
    next.close();
    expect(leftovers(ws)).toEqual({ staged: 0, scores: 0 });
  });

  it('a pick that throws changes nothing', async () => {
    const ws = scratch.fresh('w');
    poolWithRun(ws);
    const before = view(ws);
    await expect(
      ws.deleteRunsInChunks(() => {
        ws.deleteRun('p', 'bm25');
        throw new Error('no such model');
      }),
    ).rejects.toThrow('no such model');
    expect(view(ws)).toEqual(before);
    expect(leftovers(ws)).toEqual({ staged: 0, scores: 0 });
  });
});

describe('several runs stored in chunks', () => {
  it('are swapped in together, with what beforeSwap writes, in one transaction: the same runs replaceRun stores', async () => {
    const ws = scratch.fresh('w');
    poolWithRun(ws);
    ws.db.exec(`CREATE TABLE notes(x TEXT)`);
    const plain = scratch.fresh('x');
    poolWithRun(plain);
    const a = rowsOf((q, c) => q - c);
    const b = rowsOf((q, c) => q * c);
    plain.transaction(() => {
      plain.replaceRun('p', 'm', 'live', { v: 'a' }, a);
      plain.replaceRun('p', 'n', 'live', { v: 'b' }, b);
    });
    const before = view(ws);
    const seen: Array<{ view: unknown; names: string[]; notes: number }> = [];
    const write = async <T,>(f: () => T): Promise<T> => {
      const out = f();
      seen.push({ view: view(ws), names: ws.runKinds('p').map((r) => r.name), notes: ws.db.prepare(`SELECT count(*) FROM notes`).pluck().get() as number });
      return out;
    };
    const pairs = await ws.replaceRunsInChunks(
      'p',
      [
        { name: 'm', kind: 'live', config: { v: 'a' }, rows: a },
        { name: 'n', kind: 'live', config: { v: 'b' }, rows: b },
      ],
      { chunk: 8, write, beforeSwap: () => ws.db.prepare(`INSERT INTO notes VALUES ('curve point')`).run() },
    );
    expect(pairs).toEqual([Q * C, Q * C]);
    // Each run staged (a row, then 4 chunks), the swap, then the old m's scores deleted in 4 chunks.
    const swap = 2 * (1 + 4);
    expect(seen).toHaveLength(swap + 1 + 4);
    for (const s of seen.slice(0, swap)) expect(s).toEqual({ view: before, names: ['bm25', 'm'], notes: 0 });
    for (const s of seen.slice(swap)) expect(s).toMatchObject({ names: ['bm25', 'm', 'n'], notes: 1 });
    expect(view(ws)).toEqual(view(plain));
    expect(ws.runConfig('p', 'n')).toEqual({ v: 'b' });
    expect(ws.listRuns('p').map((r) => [r.name, r.kind, r.pairs])).toEqual(plain.listRuns('p').map((r) => [r.name, r.kind, r.pairs]));
    expect(leftovers(ws)).toEqual({ staged: 0, scores: 0 });
  });

  it('a failure at the swap keeps every old run and what beforeSwap wrote out', async () => {
    const ws = scratch.fresh('w');
    poolWithRun(ws);
    ws.db.exec(`CREATE TABLE notes(x TEXT)`);
    const before = view(ws);
    await expect(
      ws.replaceRunsInChunks(
        'p',
        [
          { name: 'm', kind: 'live', config: {}, rows: rowsOf(() => 1) },
          { name: 'n', kind: 'live', config: {}, rows: rowsOf(() => 2) },
        ],
        {
          chunk: 8,
          beforeSwap: () => {
            ws.db.prepare(`INSERT INTO notes VALUES ('curve point')`).run();
            throw new Error('pool changed');
          },
        },
      ),
    ).rejects.toThrow('pool changed');
    expect(view(ws)).toEqual(before);
    expect(ws.db.prepare(`SELECT count(*) FROM notes`).pluck().get()).toBe(0);
    expect(leftovers(ws)).toEqual({ staged: 0, scores: 0 });
  });
});

describe('migration 15', () => {
  it("the pool's label version and the queries changed since read the labels_pool_seq index, not the pool's labels", () => {
    const ws = scratch.fresh('w');
    poolWithRun(ws);
    for (let q = 0; q < Q; q++) ws.addLabel({ pool: 'p', queryId: `q${q}`, candidateId: `c${q}_0`, annotator: 'alice', value: '1', origin: 'test' });
    // The statements labelVersion runs, as it runs them.
    const stmt = vi.spyOn(ws, 'stmt');
    ws.labelVersion('p', 3);
    const sqls = stmt.mock.calls.map((c) => c[0]).filter((sql) => /FROM labels/.test(sql));
    stmt.mockRestore();
    expect(sqls).toHaveLength(2);
    for (const sql of sqls) {
      const args = Array<number>(sql.split('?').length - 1).fill(1);
      const plan = (ws.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as Array<{ detail: string }>).map((r) => r.detail).join('; ');
      expect(plan, sql).toMatch(/^SEARCH labels USING (COVERING )?INDEX labels_pool_seq \(pool_id=\?/);
    }
    expect(ws.labelVersion('p', 3)).toEqual({ version: 6, queries: ['q3', 'q4', 'q5'] });
  });

  it('a workspace of schema 15 or later opened by a QPairs that knows up to 14 is refused, the file untouched', () => {
    const ws = scratch.fresh('w');
    poolWithRun(ws);
    ws.close();
    expect(SCHEMA_VERSION).toBeGreaterThanOrEqual(15);
    const bytes = readFileSync(ws.path);
    expect(() => openWorkspace(ws.path, { migrations: MIGRATIONS.slice(0, 14) })).toThrow(WorkspaceFromFutureError);
    expect(readFileSync(ws.path).equals(bytes)).toBe(true);
  });
});
