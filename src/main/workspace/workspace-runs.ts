/**
 * The workspace's runs: rankers' scores of a pool's pairs (runs, run_scores), read with a cache,
 * written whole (replaceRun), or in chunks out of readers' sight and swapped in by one short
 * transaction (replaceRunInChunks, replaceRunsInChunks, deleteRunsInChunks; the staging itself in
 * staged-runs.ts). A layer of the Workspace class (workspace.ts lists them).
 */
import { QPairsError, throwIfAborted } from '../errors';
import type { RunInfo } from '../../shared/types';
import { dropStagedStep, newStagingOwner, placeholderName, releaseStagingOwner, STAGE_CHUNK, type StagingOwner } from './staged-runs';
import { now } from './workspace-types';
import { WorkspacePools } from './workspace-pools';

export abstract class WorkspaceRuns extends WorkspacePools {

  /** Records that this connection changed runs or run scores (cached scores are then reread). */
  touchRuns(): void {
    this.runWrites++;
  }

  /** Creates the run, or returns the existing one (its scores are then replaced pair by pair). */
  ensureRun(pool: string, name: string, kind: string, config: unknown = {}): number {
    this.touchRuns();
    const p = this.pool(pool);
    const r = this.stmt(`SELECT id FROM runs WHERE pool_id = ? AND name = ? AND staged IS NULL`).get(p.id, name) as { id: number } | undefined;
    if (r) return r.id;
    return Number(
      this.stmt(`INSERT INTO runs(pool_id, name, kind, config, created) VALUES (?, ?, ?, ?, ?)`).run(p.id, name, kind, JSON.stringify(config), now())
        .lastInsertRowid,
    );
  }

  setRunScore(runId: number, queryId: string, candidateId: string, score: number): void {
    if (!Number.isFinite(score)) throw new QPairsError(`score for ${queryId} → ${candidateId} is not a finite number`);
    this.touchRuns();
    this.stmt(
      `INSERT INTO run_scores(run_id, query_id, candidate_id, score) VALUES (?, ?, ?, ?)
       ON CONFLICT(run_id, query_id, candidate_id) DO UPDATE SET score = excluded.score`,
    ).run(runId, queryId, candidateId, score);
  }

  listRuns(pool: string): RunInfo[] {
    const p = this.pool(pool);
    return this.stmt(
      `SELECT r.id, @name AS pool, r.name, r.kind, r.created, (SELECT count(*) FROM run_scores s WHERE s.run_id = r.id) AS pairs
       FROM runs r WHERE r.pool_id = @pool AND r.staged IS NULL ORDER BY r.id`,
    ).all({ name: p.name, pool: p.id }) as RunInfo[];
  }

  /** A run's stored configuration (JSON), or null when the pool has no such run. */
  runConfig(pool: string, name: string): Record<string, unknown> | null {
    const r = this.stmt(`SELECT r.config FROM runs r JOIN pools p ON p.id = r.pool_id WHERE p.name = ? AND r.name = ? AND r.staged IS NULL`).get(pool, name) as { config: string } | undefined;
    return r ? (JSON.parse(r.config) as Record<string, unknown>) : null;
  }

  /** The queries a model's run scores out of fold (run config `outOfFold`, written by scorePool). */
  outOfFoldQueries(pool: string, name: string): Set<string> {
    const ids = this.runConfig(pool, name)?.outOfFold;
    return new Set(Array.isArray(ids) ? (ids as string[]) : []);
  }

  /** The names and kinds of a pool's runs (listRuns without counting their scores). */
  runKinds(pool: string): Array<{ name: string; kind: string }> {
    return this.stmt(`SELECT r.name, r.kind FROM runs r JOIN pools p ON p.id = r.pool_id WHERE p.name = ? AND r.staged IS NULL ORDER BY r.id`).all(pool) as Array<{ name: string; kind: string }>;
  }

  /**
   * A run's scores: queryId → (candidateId → score). Cached until the run data changes — through
   * this connection (touchRuns) or a commit by another one (externalVersion: SQLite's data_version) — since the
   * Evaluate screen rereads every run on each label. Treat the result as read-only.
   */
  runScores(runId: number): Map<string, Map<string, number>> {
    const key = `${this.externalVersion()}:${this.runWrites}`;
    const hit = this.runScoreCache.get(runId);
    if (hit && hit.key === key) return hit.scores;
    const out = new Map<string, Map<string, number>>();
    for (const r of this.stmt(`SELECT query_id, candidate_id, score FROM run_scores WHERE run_id = ?`).iterate(runId) as IterableIterator<{
      query_id: string;
      candidate_id: string;
      score: number;
    }>) {
      let m = out.get(r.query_id);
      if (!m) out.set(r.query_id, (m = new Map()));
      m.set(r.candidate_id, r.score);
    }
    this.runScoreCache.set(runId, { key, scores: out });
    return out;
  }

  /**
   * Replaces the pool's run `name` (kind and config as given) with these (query, candidate, score)
   * rows in one transaction; non-finite scores are left out. Returns the pairs stored.
   */
  replaceRun(pool: string, name: string, kind: string, config: unknown, rows: Iterable<readonly [string, string, number]>): number {
    let pairs = 0;
    this.transaction(() => {
      this.deleteRun(pool, name);
      const run = this.ensureRun(pool, name, kind, config);
      for (const [q, c, v] of rows) {
        if (!Number.isFinite(v)) continue;
        this.setRunScore(run, q, c, v);
        pairs++;
      }
    });
    return pairs;
  }

  /**
   * replaceRun without holding the workspace for the whole run: the rows are stored out of sight
   * (staged-runs.ts) in chunks of `chunk` pairs, each its own transaction run through `write` (the
   * engine passes its write gate, so labels queued meanwhile are acknowledged between chunks), the
   * thread given up between them; then one short transaction swaps the run in, replacing the pool's
   * run `name` (`beforeSwap` runs first inside it: a check that may still refuse, or writes that go
   * with the run, committed with the swap or not at all). Until then every
   * reader sees the old run, or none. A cancel (`signal`) or failure deletes what was staged and
   * leaves the old run as it was; a crash leaves it to the next writable open. The set-aside old
   * run's scores are deleted in chunks after the swap. Returns the pairs stored.
   */
  async replaceRunInChunks(
    pool: string,
    name: string,
    kind: string,
    config: unknown,
    rows: ReadonlyArray<readonly [string, string, number]>,
    o: ChunkedRunOptions = {},
  ): Promise<number> {
    const [pairs] = await this.replaceRunsInChunks(pool, [{ name, kind, config, rows }], o);
    return pairs!;
  }

  /**
   * replaceRunInChunks for several runs of a pool at once: each is stored out of sight in chunks, then
   * one short transaction swaps them all in (after `beforeSwap`), so readers see all the old runs or
   * all the new ones. Returns the pairs stored per run, in order.
   */
  async replaceRunsInChunks(
    pool: string,
    runs: ReadonlyArray<{ name: string; kind: string; config: unknown; rows: ReadonlyArray<readonly [string, string, number]> }>,
    o: ChunkedRunOptions = {},
  ): Promise<number[]> {
    const write = o.write ?? direct;
    const size = Math.max(1, o.chunk ?? STAGE_CHUNK);
    const owners = runs.map((r) => newStagingOwner(r.name));
    const staged: number[] = [];
    let replaced: number[] = [];
    const pairs = runs.map(() => 0);
    try {
      for (const [k, run] of runs.entries()) {
        const owner = owners[k]!;
        throwIfAborted(o.signal);
        const runId = await write(() =>
          this.unseen(() => {
            const p = this.pool(pool);
            return Number(
              this.stmt(`INSERT INTO runs(pool_id, name, kind, config, created, staged) VALUES (?, ?, ?, ?, ?, ?)`).run(
                p.id, placeholderName(owner), run.kind, JSON.stringify(run.config), now(), JSON.stringify(owner),
              ).lastInsertRowid,
            );
          }),
        );
        staged.push(runId);
        for (let i = 0; i < run.rows.length; i += size) {
          await yieldThread();
          throwIfAborted(o.signal);
          const part = run.rows.slice(i, i + size);
          pairs[k]! += await write(() => this.unseen(() => this.transaction(() => this.insertScores(runId, part))));
        }
      }
      await yieldThread();
      throwIfAborted(o.signal);
      replaced = await write(() =>
        this.transaction(() => {
          o.beforeSwap?.();
          const aside: number[] = [];
          for (const [k, run] of runs.entries()) {
            const old = this.swapStagedRun(staged[k]!, pool, run.name, owners[k]!);
            if (old !== null) aside.push(old);
          }
          return aside;
        }),
      );
      staged.length = 0;
    } catch (e) {
      for (const id of staged) await this.dropStaged(id, write, size).catch(() => {}); // else the next writable open deletes it
      owners.forEach(releaseStagingOwner);
      throw e;
    }
    try {
      for (const id of replaced) await this.dropStaged(id, write, size);
    } catch {
      // The old runs are out of sight already; the next writable open deletes what is left of them.
    } finally {
      owners.forEach(releaseStagingOwner);
    }
    return pairs;
  }

  /**
   * Deletes runs without holding the workspace for their scores: `pick` runs inside one short
   * transaction (through `write`) and names the runs to delete (it may write too: a model's row
   * deleted with its runs); they are set aside there, out of every reader's sight at once, and their
   * scores are then deleted in chunks, each its own transaction through `write`. A crash meanwhile
   * leaves nothing visible; the next writable open deletes the rest. Returns `pick`'s result.
   */
  async deleteRunsInChunks<T>(
    pick: () => { result: T; runs: ReadonlyArray<{ pool: string; name: string }> },
    o: { write?: <U>(f: () => U) => Promise<U>; chunk?: number } = {},
  ): Promise<T> {
    const write = o.write ?? direct;
    const size = Math.max(1, o.chunk ?? STAGE_CHUNK);
    const owners: StagingOwner[] = [];
    try {
      const { result, aside } = await write(() =>
        this.transaction(() => {
          const { result, runs } = pick();
          const aside: number[] = [];
          for (const r of runs) {
            const owner: StagingOwner = { ...newStagingOwner(r.name), state: 'deleted' };
            const old = this.setRunAside(this.pool(r.pool).id, r.name, owner);
            if (old === null) {
              releaseStagingOwner(owner);
              continue;
            }
            owners.push(owner);
            aside.push(old);
          }
          if (aside.length) this.touchRuns();
          return { result, aside };
        }),
      );
      try {
        for (const id of aside) await this.dropStaged(id, write, size);
      } catch {
        // Out of sight already; the next writable open deletes what is left.
      }
      return result;
    } finally {
      owners.forEach(releaseStagingOwner);
    }
  }

  private insertScores(runId: number, rows: ReadonlyArray<readonly [string, string, number]>): number {
    const insert = this.stmt(`INSERT INTO run_scores(run_id, query_id, candidate_id, score) VALUES (?, ?, ?, ?)
       ON CONFLICT(run_id, query_id, candidate_id) DO UPDATE SET score = excluded.score`);
    let n = 0;
    for (const [q, c, v] of rows) {
      if (!Number.isFinite(v)) continue;
      insert.run(runId, q, c, v);
      n++;
    }
    return n;
  }

  /**
   * Swaps the staged run `runId` in as the pool's run `name` (inside the caller's transaction): the
   * run of that name now, if any, is set aside out of sight (its id returned, for its scores to be
   * deleted), the staged one takes its name. Throws when the staged run is gone (its pool deleted).
   */
  private swapStagedRun(runId: number, pool: string, name: string, owner: StagingOwner): number | null {
    const p = this.pool(pool);
    const mine = this.stmt(`SELECT 1 FROM runs WHERE id = ? AND pool_id = ? AND staged IS NOT NULL`).get(runId, p.id);
    if (!mine) throw new QPairsError(`pool "${pool}" changed while run "${name}" was being stored: its scores were not stored`);
    const old = this.setRunAside(p.id, name, { ...owner, state: 'replaced' });
    this.stmt(`UPDATE runs SET name = ?, staged = NULL, created = ? WHERE id = ?`).run(name, now(), runId);
    this.touchRuns();
    return old;
  }

  /**
   * Sets the pool's run `name` (the one readers see) aside out of their sight, staged under `owner`
   * (a replaced or deleted run, whose scores are then deleted in chunks): its id, or null when the
   * pool has no such run. Inside the caller's transaction.
   */
  private setRunAside(poolId: number, name: string, owner: StagingOwner): number | null {
    const old = this.stmt(`SELECT id FROM runs WHERE pool_id = ? AND name = ? AND staged IS NULL`).get(poolId, name) as { id: number } | undefined;
    if (!old) return null;
    this.stmt(`UPDATE runs SET name = ?, staged = ? WHERE id = ?`).run(placeholderName(owner), JSON.stringify(owner), old.id);
    return old.id;
  }

  /** Deletes a staged or set-aside run in chunks (each its own transaction through `write`), out of sight. */
  private async dropStaged(runId: number, write: <T>(f: () => T) => Promise<T>, size: number): Promise<void> {
    while (!(await write(() => this.unseen(() => this.transaction(() => dropStagedStep(this.db, runId, size)))))) await yieldThread();
  }

  deleteRun(pool: string, name: string): boolean {
    const p = this.pool(pool);
    this.touchRuns();
    return this.stmt(`DELETE FROM runs WHERE pool_id = ? AND name = ? AND staged IS NULL`).run(p.id, name).changes > 0;
  }
}

/** How replaceRunInChunks and replaceRunsInChunks store: see replaceRunInChunks. */
export interface ChunkedRunOptions {
  write?: <T>(f: () => T) => Promise<T>;
  signal?: AbortSignal;
  chunk?: number;
  beforeSwap?: () => void;
}

/** A write run as it is (no write gate: the CLI, tests). */
function direct<T>(f: () => T): Promise<T> {
  return Promise.resolve().then(f);
}

/** Gives the thread up (to the requests and events that are waiting) before going on. */
function yieldThread(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
