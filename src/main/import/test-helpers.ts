/** Helpers for the importer tests (not part of the app). */
import Database from 'better-sqlite3';
import { createHash, randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LabelScheme } from '../../shared/labels';
import { Workspace } from '../workspace/workspace';

const made: string[] = [];

/** A fresh workspace file in the OS temp folder (removed by cleanupWorkspaces). */
export function tempWorkspace(): Workspace {
  const file = path.join(os.tmpdir(), `qpairs-import-test-${randomUUID()}.qpairs`);
  made.push(file);
  return Workspace.create(file);
}

/**
 * The pool tests/fixtures/import/run-good.txt scores (a run goes into an existing pool): q1 (c2, c1,
 * c3) and q2 (c4, c5), in the file's rank order.
 */
export function runPool(ws: Workspace, name: string, scheme: LabelScheme = 'binary'): void {
  ws.createPool({ name, scheme });
  ws.addPoolQuery(name, 'q1', ['c2', 'c1', 'c3']);
  ws.addPoolQuery(name, 'q2', ['c4', 'c5']);
}

/** A fresh temp folder for generated inputs. */
export function tempDir(): string {
  const dir = path.join(os.tmpdir(), `qpairs-import-in-${randomUUID()}`);
  mkdirSync(dir, { recursive: true });
  made.push(dir);
  return dir;
}

export function cleanupTemp(): void {
  for (const f of made.splice(0)) {
    for (const s of ['', '-wal', '-shm']) rmSync(f + s, { force: true, recursive: true });
  }
}

/** SHA-256 over every table's rows (sorted), including sqlite_sequence: equal iff the contents are equal, storage classes included (an INTEGER 5 is not a REAL 5.0). */
export function tablesChecksum(ws: Workspace, exclude: readonly string[] = []): string {
  const h = createHash('sha256');
  const tables = ws.db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name`).all() as Array<{ name: string }>;
  for (const { name } of tables) {
    if (exclude.includes(name)) continue;
    let rows: unknown[];
    try {
      // safeIntegers: an INTEGER reads as a bigint, a REAL as a number, so 5 and 5.0 differ (as in a dump).
      rows = ws.db.prepare(`SELECT * FROM "${name.replace(/"/g, '""')}"`).safeIntegers(true).raw().all();
    } catch {
      continue; // virtual tables of a module this build lacks
    }
    const lines = rows.map((r) => JSON.stringify(r, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : Buffer.isBuffer(v) ? v.toString('hex') : v)));
    lines.sort();
    h.update(`${name}\n${lines.join('\n')}\n`);
  }
  return h.digest('hex');
}

/**
 * Stats, a checksum of all tables, one of all tables but the imports audit, and the number of imports.
 * Neither checksum reads the undo journal: a finished import keeps its journal (for `import undo`)
 * until the next import begins, which replaces it whether it succeeds or not.
 */
export function snapshot(ws: Workspace): { stats: unknown; checksum: string; dataChecksum: string; imports: number } {
  const journal = ['import_journal', 'import_undo'];
  return { stats: ws.stats(), checksum: tablesChecksum(ws, journal), dataChecksum: tablesChecksum(ws, [...journal, 'imports']), imports: ws.listImports().length };
}

/**
 * `count` variants of `base`, each with 1–3 random edits (insert, delete or replace one character
 * by a piece of `alphabet`), from a seeded linear congruential generator: the same inputs every run.
 */
export function* seededEdits(base: string, alphabet: readonly string[], count: number, seed: number): Generator<string> {
  const rnd = (k: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % k;
  };
  for (let i = 0; i < count; i++) {
    let t = base;
    for (let e = 1 + rnd(3); e > 0; e--) {
      const at = rnd(t.length + 1);
      const op = rnd(3);
      const ch = alphabet[rnd(alphabet.length)]!;
      t = op === 0 ? t.slice(0, at) + ch + t.slice(at) : op === 1 ? t.slice(0, at) + t.slice(at + 1) : t.slice(0, at) + ch + t.slice(at + 1);
    }
    yield t;
  }
}

/**
 * The questions committed in a workspace file, read by a connection of its own (never the writer's uncommitted
 * rows) and not opened as a workspace (an open could roll an interrupted import back).
 */
export function committedQuestions(file: string): number {
  const raw = new Database(file, { readonly: true });
  try {
    return raw.prepare(`SELECT count(*) FROM questions`).pluck().get() as number;
  } finally {
    raw.close();
  }
}

/**
 * A copyMidway condition for an import into `file` (made before it starts): past half its progress, once another
 * connection sees more questions committed than when it was made — progress can run ahead of the commits, and a copy
 * taken on progress alone could hold none of the import's rows.
 */
export function pastHalfCommitted(file: string): (done: number, total: number, note?: string) => boolean {
  const before = committedQuestions(file);
  return (done, total, note) => note !== 'indexing' && done > total / 2 && committedQuestions(file) > before;
}

/**
 * A copy of a workspace's files (database + WAL, as a crash or another process would find them) at
 * `to`, made the first time `when` holds at a progress report of the work given `onProgress`; with
 * `abort`, the work is then cancelled through `signal` (a kill mid-way).
 */
export function copyMidway(
  ws: { path: string },
  to: string,
  when: (done: number, total: number, note?: string) => boolean,
  o: { abort?: boolean } = {},
): { signal?: AbortSignal; onProgress: (done: number, total: number, note?: string) => void; copied(): boolean } {
  const ac = o.abort ? new AbortController() : null;
  let copied = false;
  return {
    ...(ac ? { signal: ac.signal } : {}),
    onProgress: (done, total, note) => {
      if (copied || !when(done, total, note)) return;
      copyFileSync(ws.path, to);
      copyFileSync(`${ws.path}-wal`, `${to}-wal`);
      copied = true;
      ac?.abort();
    },
    copied: () => copied,
  };
}
