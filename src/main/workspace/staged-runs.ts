/**
 * Runs stored out of sight (migration 15). A model's scores of a pool are written in chunks, each
 * its own short transaction, so that the engine acknowledges labels between them; until the last
 * chunk is in, the run's row has `staged` set and a placeholder name, and every reader of runs
 * leaves it out (`staged IS NULL`). One short transaction then swaps it in (Workspace.swapStagedRun)
 * and sets the run it replaces aside the same way; the set-aside run's scores are then deleted in
 * chunks too. Runs deleted (a model's, with the model: Workspace.deleteRunsInChunks) are set aside
 * the same way in one short transaction and their scores deleted in chunks after it. A cancel or a failure deletes the staged rows; a crash or kill leaves them to the next
 * writable open of the workspace (cleanStagedRuns), once their process is gone.
 *
 * `staged` holds the writer (JSON StagingOwner): its process, host and a token, so that an open by
 * another process while it writes (the CLI beside serve mode) leaves its rows alone.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { Db } from './db';
import { writerAlive } from './undo-journal';

/** Pairs per transaction when a run is stored or deleted in chunks (60,000 pairs: 12 chunks of ~40 ms). */
export const STAGE_CHUNK = 5000;

export interface StagingOwner {
  token: string;
  pid: number;
  host: string;
  started: string;
  /** The run's name once swapped in (or the name it had, for a run set aside). */
  run: string;
  /** Being stored; set aside by the run that replaced it; set aside to be deleted (its model deleted). */
  state: 'storing' | 'replaced' | 'deleted';
}

/** Tokens of this process's stagings still under way (writerAlive asks them for this process's rows). */
const liveTokens = new Set<string>();

export function newStagingOwner(run: string): StagingOwner {
  const owner: StagingOwner = { token: randomUUID(), pid: process.pid, host: os.hostname(), started: new Date().toISOString(), run, state: 'storing' };
  liveTokens.add(owner.token);
  return owner;
}

/** The staging is over (its rows are swapped in or deleted, or left for the next open to delete). */
export function releaseStagingOwner(owner: StagingOwner): void {
  liveTokens.delete(owner.token);
}

/** The name a staged or set-aside run has meanwhile: no reader asks for it, and it never clashes with a run's (pool, name). */
export function placeholderName(owner: StagingOwner): string {
  return `(${owner.state}) ${owner.token}`;
}

/**
 * Deletes up to `limit` scores of a staged or set-aside run, and the run's row once none are left
 * (a run everyone reads is never touched). True when the run is gone. Runs in the caller's transaction.
 */
export function dropStagedStep(db: Db, runId: number, limit: number = STAGE_CHUNK): boolean {
  const staged = db.prepare(`SELECT 1 FROM runs WHERE id = ? AND staged IS NOT NULL`).get(runId);
  if (!staged) return true;
  const n = db
    .prepare(
      `DELETE FROM run_scores WHERE run_id = ? AND (query_id, candidate_id) IN
         (SELECT query_id, candidate_id FROM run_scores WHERE run_id = ? LIMIT ?)`,
    )
    .run(runId, runId, limit).changes;
  if (n >= limit) return false;
  db.prepare(`DELETE FROM runs WHERE id = ? AND staged IS NOT NULL`).run(runId);
  return true;
}

function ownerOf(json: string): StagingOwner | null {
  try {
    const o = JSON.parse(json) as Partial<StagingOwner>;
    return typeof o.token === 'string' && typeof o.pid === 'number' && typeof o.host === 'string' ? (o as StagingOwner) : null;
  } catch {
    return null;
  }
}

/**
 * Deletes the staged and set-aside runs whose process is gone (a crash or kill mid-way), each
 * chunk its own transaction: called by every writable Workspace.open, or, when it leaves them (recovery 'later': the CLI,
 * serve mode, the app), once the workspace's lock is held (Workspace.recoverLeftWrites). A row whose writer cannot be
 * read is deleted too (no QPairs wrote it so). Returns the runs deleted.
 */
export function cleanStagedRuns(db: Db): number {
  const dead = deadStagedRuns(db);
  for (const id of dead) while (!db.transaction(() => dropStagedStep(db, id)).immediate());
  return dead.length;
}

/** The staged and set-aside runs whose process is gone (what cleanStagedRuns deletes); reads only. */
export function deadStagedRuns(db: Db): number[] {
  let rows: Array<{ id: number; staged: string }>;
  try {
    rows = db.prepare(`SELECT id, staged FROM runs WHERE staged IS NOT NULL`).all() as Array<{ id: number; staged: string }>;
  } catch {
    return []; // a workspace opened at a schema before migration 15 (tests of older migrations): nothing staged
  }
  return rows.filter((r) => {
    const owner = ownerOf(r.staged);
    return !(owner && writerAlive(owner, liveTokens));
  }).map((r) => r.id);
}
