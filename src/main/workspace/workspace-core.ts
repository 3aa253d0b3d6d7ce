/**
 * The workspace connection (layer 1 of 4 — core → corpus → pools → workspace.ts): the SQLite
 * handle opened read-write or read-only, cached statements, transactions, the meta table, and
 * noticing other connections' commits.
 */
import { existsSync } from 'node:fs';
import type { Statement } from 'better-sqlite3';
import { QPairsError } from '../errors';
import type { Db, OpenedDb } from './db';

export abstract class WorkspaceCore {
  private readonly stmts = new Map<string, Statement>();
  private savepoints = 0;
  /** Bumped by every write to runs through this connection (invalidates runScoreCache). */
  protected runWrites = 0;
  protected readonly runScoreCache = new Map<number, { key: string; scores: Map<string, Map<string, number>> }>();
  /** PRAGMA data_version when this connection last looked (see noticeExternalChanges). */
  private dataVersion: number;
  /** A data_version reading taken as an earlier one: the commits between changed nothing a reader computes (absorbExternalCommits). */
  private versionAlias: { from: number; to: number } | null = null;
  private readonly externalListeners = new Set<() => void>();
  readonly db: Db;
  /**
   * True when the workspace was opened read-only (it cannot be written, or `readonly` was
   * asked for): reading works, every write throws a QPairsError saying so.
   */
  readonly readonly: boolean;
  /** Why it is read-only (e.g. "the file is not writable"), else null. */
  readonly readonlyReason: string | null;
  /** The workspace schema this open upgraded the file from (QPairs versions before this one can no longer open it), else null. */
  readonly upgradedFrom: number | null;

  protected constructor(
    opened: OpenedDb,
    readonly path: string,
  ) {
    this.db = opened.db;
    this.readonly = opened.readonly;
    this.readonlyReason = opened.readonlyReason;
    this.upgradedFrom = opened.upgradedFrom ?? null;
    this.dataVersion = this.readDataVersion();
  }

  /**
   * The workspace's file when another connection (a worker's, read-only) can open it; null for an
   * in-memory workspace. Workers read heavy data there instead of this thread copying it to them.
   */
  fileForWorkers(): string | null {
    return this.path !== ':memory:' && this.path !== '' && existsSync(this.path) ? this.path : null;
  }

  /** The user-facing error for a write to a read-only workspace. */
  readonlyError(): QPairsError {
    return new QPairsError(`workspace ${this.path} is read-only (${this.readonlyReason ?? 'opened read-only'}): it cannot be changed`, {
      file: this.path,
    });
  }

  /**
   * Changes whenever anything is committed to the workspace, by this connection (SQLite's
   * total_changes()) or another one (data_version): a key for results computed from it.
   */
  changeStamp(): string {
    return `${this.externalVersion()}:${this.visibleChanges()}`;
  }

  /**
   * Changes whenever another connection commits (SQLite's PRAGMA data_version), save the commits this
   * one was told changed nothing it reads (absorbExternalCommits): with visibleChanges (this
   * connection's own writes), a key for results computed from the workspace.
   */
  externalVersion(): number {
    const v = this.readDataVersion();
    return this.versionAlias?.from === v ? this.versionAlias.to : v;
  }

  /**
   * Takes the other connections' commits since `before` (an externalVersion() read before they began)
   * as changing nothing a reader computes: the engine's own import that wrote no rows but its
   * bookkeeping (the undo journal's, and its imports audit row), while the process lock keeps other
   * writers out. Results keyed by externalVersion or changeStamp stay valid, and noticeExternalChanges
   * drops nothing for them.
   */
  absorbExternalCommits(before: number): void {
    if (!this.db.open) return;
    const v = this.readDataVersion();
    if (v !== before) this.versionAlias = { from: v, to: before };
    this.dataVersion = v;
  }

  /** Rows this connection changed that no reader sees (a run stored out of sight: staged-runs.ts). */
  private unseenChanges = 0;

  /**
   * The rows this connection inserted, updated or deleted (SQLite's total_changes()) save those no
   * reader sees: the chunks of a run stored out of sight change no result (stamps, live metrics).
   */
  visibleChanges(): number {
    return (this.stmt('SELECT total_changes() AS n').get() as { n: number }).n - this.unseenChanges;
  }

  /** Runs fn, whose row changes no reader sees (visibleChanges leaves them out). */
  protected unseen<T>(fn: () => T): T {
    const before = (this.stmt('SELECT total_changes() AS n').get() as { n: number }).n;
    try {
      return fn();
    } finally {
      this.unseenChanges += (this.stmt('SELECT total_changes() AS n').get() as { n: number }).n - before;
    }
  }

  private readDataVersion(): number {
    return this.db.pragma('data_version', { simple: true }) as number;
  }

  /**
   * Notices commits made by OTHER connections (another process, or the engine's own import
   * connection) since the last call, through SQLite's PRAGMA data_version, which changes only
   * then. When there were some, drops what this object caches (run scores) and calls the
   * listeners (onExternalChange: e.g. the engine's BM25 index), so the next use reloads; returns
   * whether there were. Cheap: call it before serving each request.
   */
  noticeExternalChanges(): boolean {
    if (!this.db.open) return false;
    const v = this.readDataVersion();
    if (v === this.dataVersion) return false;
    this.dataVersion = v;
    this.runScoreCache.clear();
    for (const fn of [...this.externalListeners]) fn();
    return true;
  }

  /**
   * Takes the commits another connection just made on this one's behalf as its own (a new pool written in steps on
   * a connection of its own, engine/pool-write.ts: no question or index changed): noticeExternalChanges will not
   * report them, so its listeners keep what they cache (the BM25 index: loading it again took seconds at 1M
   * questions). Call noticeExternalChanges before that write began, so that no other commit is taken for its.
   */
  adoptCommits(): void {
    if (!this.db.open) return;
    this.dataVersion = this.readDataVersion();
    this.runScoreCache.clear();
  }

  /** Calls fn whenever noticeExternalChanges finds another connection's commits; returns an unsubscribe. */
  onExternalChange(fn: () => void): () => void {
    this.externalListeners.add(fn);
    return () => this.externalListeners.delete(fn);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  /** A cached prepared statement. */
  stmt(sql: string): Statement {
    let s = this.stmts.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      if (this.readonly && !s.readonly) throw this.readonlyError();
      this.stmts.set(sql, s);
    }
    return s;
  }

  /**
   * Runs fn (synchronous reads) on one snapshot of the workspace: a deferred transaction, so what
   * another process commits meanwhile (serve mode labeling, an import's chunks) is either wholly
   * in what fn reads or wholly out of it. Inside a transaction already, fn just runs in it.
   */
  snapshot<T>(fn: () => T): T {
    return this.db.inTransaction ? fn() : this.db.transaction(fn).deferred();
  }

  /** Runs fn in one IMMEDIATE transaction (synchronous work only). */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  /**
   * Runs async fn inside one transaction: BEGIN IMMEDIATE, then COMMIT when fn resolves or
   * ROLLBACK when it throws, so a failure leaves nothing behind. Nested calls use a SAVEPOINT.
   * Nothing else may write through this connection while it runs, and other connections wait
   * for all of it: imports instead commit in bounded chunks that stay undoable (runUndoable in
   * undo-journal.ts), which falls back to this inside a transaction the caller opened.
   */
  async transactionAsync<T>(fn: () => Promise<T>): Promise<T> {
    const nested = this.db.inTransaction;
    const sp = `qp_${++this.savepoints}`;
    this.db.exec(nested ? `SAVEPOINT ${sp}` : 'BEGIN IMMEDIATE');
    try {
      const out = await fn();
      this.db.exec(nested ? `RELEASE ${sp}` : 'COMMIT');
      return out;
    } catch (e) {
      if (this.db.inTransaction) this.db.exec(nested ? `ROLLBACK TO ${sp}; RELEASE ${sp}` : 'ROLLBACK');
      throw e;
    }
  }

  getMeta(key: string): string | null {
    const r = this.stmt(`SELECT value FROM meta WHERE key = ?`).get(key) as { value: string } | undefined;
    return r?.value ?? null;
  }

  setMeta(key: string, value: string): void {
    this.stmt(`INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`).run(key, value);
  }
}
