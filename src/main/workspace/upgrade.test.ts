/**
 * Upgrades never hurt a workspace. tests/fixtures/workspaces/v<k>.qpairs.gz are workspaces written
 * by the commits that shipped workspace schema k, with their own CLI (make-fixtures.sh says which
 * commit and why; schemas 5, 9 and 11 were never shipped alone, 19 is today's, and v8a is schema 8
 * as first released, before migration 8 gained its live-training tables). Each is copied to a temp folder (the tracked file is
 * never opened) and opened by today's code:
 *
 * - as shipped, its schema is exactly today's migrations 1 … k (no released migration was edited;
 *   v8a is the one known exception, repaired by migration 9);
 * - it migrates to SCHEMA_VERSION; integrity_check says ok, foreign_key_check finds nothing;
 * - every row of every table it had (questions, pools, labels, runs, scores, models, …) is still
 *   there, unchanged — read with plain SQL before opening;
 * - its schema (tables, columns with types/defaults/keys, indexes, triggers, the SQL SQLite keeps)
 *   equals a freshly created workspace's;
 * - today's Workspace reads its pools, labels and stats.
 *
 * And refusals, each by its own error class, leaving the file byte-identical with no -wal/-shm left
 * behind: a newer schema (WorkspaceFromFutureError), a recorded version below its tables or above
 * them (WorkspaceSchemaMismatchError), through Workspace.open, the CLI and the wire mapping.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../cli/index';
import { QPairsError, WorkspaceFromFutureError, WorkspaceSchemaMismatchError } from '../errors';
import { toWireError } from '../serve/wire';
import { APPLICATION_ID, openWorkspace, openWorkspaceDb } from './db';
import { checkMigrationOrder, MIGRATIONS, SCHEMA_VERSION, type Migration } from './migrations';
import { lockFileOf } from './lock';
import { labelsNotTrainedOn, lastCopiesLeftOut, readCurve, readLiveSetting } from '../training/live-store';
import { findSchemaMismatch, schemaObjects } from './schema-check';
import { Workspace } from './workspace';
import { globalSeq, ownSeq } from '../engine/own-seq';
import { runImport } from '../engine/work';
import { undoableImport, undoLastImport } from './undo-last';
import { readUndoMarker } from './undo-progress';
import { loadPoolState } from '../gold/state';
import { setRoleWithNotes } from '../team/role-notes';

const FIXTURES = path.resolve(import.meta.dirname, '../../../tests/fixtures/workspaces');

interface Fixture {
  /** File stem: v<k>.qpairs.gz. */
  name: string;
  /** The schema version the file records. */
  version: number;
  /** The commit whose CLI wrote it (see make-fixtures.sh). */
  commit: string;
  /** Rows it holds, as make-fixtures.sh made them (checked, so that an empty fixture cannot pass). */
  rows: { questions: number; answers: number; pools: number; labels: number; runs: number; models: number };
}

const FIXTURE_LIST: readonly Fixture[] = [
  { name: 'v1', version: 1, commit: 'dee9751', rows: { questions: 33, answers: 0, pools: 2, labels: 124, runs: 4, models: 0 } },
  { name: 'v2', version: 2, commit: '324c40b', rows: { questions: 33, answers: 0, pools: 2, labels: 126, runs: 4, models: 0 } },
  { name: 'v3', version: 3, commit: '35349eb', rows: { questions: 33, answers: 0, pools: 2, labels: 126, runs: 5, models: 1 } },
  { name: 'v4', version: 4, commit: '0b173f6', rows: { questions: 33, answers: 300, pools: 2, labels: 126, runs: 5, models: 1 } },
  { name: 'v6', version: 6, commit: '63cb6e0', rows: { questions: 33, answers: 300, pools: 2, labels: 126, runs: 5, models: 1 } },
  { name: 'v7', version: 7, commit: '28552ee', rows: { questions: 33, answers: 300, pools: 2, labels: 126, runs: 5, models: 1 } },
  { name: 'v8a', version: 8, commit: 'd09e19f', rows: { questions: 33, answers: 300, pools: 2, labels: 126, runs: 5, models: 1 } },
  { name: 'v8', version: 8, commit: '3015ac8', rows: { questions: 33, answers: 300, pools: 2, labels: 126, runs: 5, models: 1 } },
  { name: 'v10', version: 10, commit: 'ff90cff', rows: { questions: 33, answers: 300, pools: 3, labels: 186, runs: 7, models: 1 } },
  { name: 'v12', version: 12, commit: '336fbe2', rows: { questions: 33, answers: 300, pools: 3, labels: 186, runs: 7, models: 1 } },
  { name: 'v13', version: 13, commit: 'd862929', rows: { questions: 33, answers: 300, pools: 4, labels: 203, runs: 9, models: 1 } },
  { name: 'v14', version: 14, commit: '6d96535', rows: { questions: 36, answers: 300, pools: 4, labels: 203, runs: 9, models: 1 } },
  { name: 'v15', version: 15, commit: 'f711238', rows: { questions: 36, answers: 300, pools: 4, labels: 203, runs: 9, models: 1 } },
  { name: 'v16', version: 16, commit: 'd948209', rows: { questions: 36, answers: 300, pools: 4, labels: 203, runs: 9, models: 1 } },
  { name: 'v17', version: 17, commit: '370eb6e', rows: { questions: 36, answers: 300, pools: 4, labels: 203, runs: 9, models: 1 } },
  { name: 'v18', version: 18, commit: '399be0e', rows: { questions: 36, answers: 300, pools: 4, labels: 203, runs: 9, models: 1 } },
  { name: 'v20', version: 20, commit: '0ff8ebb', rows: { questions: 36, answers: 300, pools: 4, labels: 204, runs: 9, models: 1 } },
];

/** Meta keys in which schema 10 kept a pool's candidate-level order; migration 12 moves them into pool_candidate_orders. */
const isLegacyOrderKey = (key: unknown): boolean => String(key).startsWith('pool_label_order.');

/** Tables that migration 8 gained after its first release (absent from v8a; migration 9 makes them). */
const ADDED_TO_MIGRATION_8 = ['live_training', 'live_curve'];

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-upgrade-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const sha = (p: string): string => createHash('sha256').update(readFileSync(p)).digest('hex');

/** The fixture unpacked into the temp folder (the tracked .gz is only read). */
function copyOf(f: Fixture, as = `${f.name}.qpairs`): string {
  const p = path.join(dir, as);
  writeFileSync(p, gunzipSync(readFileSync(path.join(FIXTURES, `${f.name}.qpairs.gz`))));
  return p;
}

/** SQL with comments dropped and whitespace collapsed (the text SQLite keeps, compared by meaning of layout). */
function normaliseSql(sql: string | null): string | null {
  return sql === null ? null : sql.replace(/--[^\n]*/g, '').replace(/\s+/g, ' ').replace(/\( /g, '(').replace(/ \)/g, ')').trim();
}

/**
 * What matters of a schema, in a stable order: every table, index and trigger with its SQL, and
 * every table's columns (name, declared type, NOT NULL, default, primary-key position, hidden/
 * generated) in column order. SQLite's own tables (sqlite_sequence) and rootpages are left out.
 */
function schemaOf(db: Database.Database): { objects: unknown[]; columns: Record<string, unknown[]> } {
  const objects = db
    .prepare(`SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY type, name`)
    .all() as Array<{ type: string; name: string; tbl_name: string; sql: string | null }>;
  const columns: Record<string, unknown[]> = {};
  for (const o of objects) {
    if (o.type === 'table') columns[o.name] = db.prepare(`SELECT name, type, "notnull", dflt_value, pk, hidden FROM pragma_table_xinfo(?)`).raw().all(o.name);
  }
  return { objects: objects.map((o) => ({ ...o, sql: normaliseSql(o.sql) })), columns };
}

/** A fresh workspace's schema after `migrations` (all of today's by default). */
function freshSchema(migrations: readonly Migration[] = MIGRATIONS): ReturnType<typeof schemaOf> {
  const db = openWorkspaceDb(':memory:', { migrations });
  try {
    return schemaOf(db);
  } finally {
    db.close();
  }
}

/** Every row of every table (SQLite's own left out), by table, with the table's columns as they are in `db`. */
function rowsOf(db: Database.Database): Map<string, { columns: string[]; rows: unknown[][] }> {
  const out = new Map<string, { columns: string[]; rows: unknown[][] }>();
  const tables = db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name`).pluck().all() as string[];
  for (const t of tables) {
    const columns = db.prepare(`SELECT * FROM "${t}" LIMIT 0`).columns().map((c) => c.name);
    out.set(t, { columns, rows: selectRows(db, t, columns) });
  }
  return out;
}

function selectRows(db: Database.Database, table: string, columns: readonly string[]): unknown[][] {
  const list = columns.map((c) => `"${c}"`).join(', ');
  const order = columns.map((_, i) => i + 1).join(', ');
  return db.prepare(`SELECT ${list} FROM "${table}" ORDER BY ${order}`).raw().all() as unknown[][];
}

/** Reads a file with plain SQL through a read-only connection (as a rollback-journal file, it leaves nothing behind). */
function readPlain<T>(p: string, fn: (db: Database.Database) => T): T {
  const db = new Database(p, { readonly: true, fileMustExist: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/** Sets a copy's recorded schema version with plain SQL (how a damaged or hand-edited file looks). */
function recordVersion(p: string, version: number): void {
  const db = new Database(p);
  db.pragma(`user_version = ${version}`);
  db.close();
}

/** The -wal/-shm files beside p. */
const sidecars = (p: string): string[] => readdirSync(path.dirname(p)).filter((n) => n.startsWith(path.basename(p) + '-'));

/** Expects opening p to throw `cls` and to leave the file byte-identical, with no -wal/-shm made. */
function expectRefused<E extends QPairsError>(p: string, cls: new (...args: never[]) => E, open: () => unknown = () => openWorkspace(p)): E {
  const before = sha(p);
  const beside = sidecars(p);
  let thrown: unknown = null;
  try {
    const r = open();
    if (r && typeof (r as { close?: unknown }).close === 'function') (r as { close(): void }).close();
    else (r as { db?: Database.Database } | undefined)?.db?.close();
  } catch (e) {
    thrown = e;
  }
  expect(thrown).toBeInstanceOf(cls);
  expect(sha(p)).toBe(before);
  expect(sidecars(p)).toEqual(beside);
  return thrown as E;
}

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { log: (s) => (out += s + '\n'), err: (s) => (err += s + '\n') });
  return { code, out, err };
}

describe('migration order', () => {
  it('MIGRATIONS run 1 … N without gaps (checked when the module loads) and SCHEMA_VERSION is N', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
    expect(checkMigrationOrder(MIGRATIONS)).toBe(MIGRATIONS.length);
    expect(SCHEMA_VERSION).toBe(MIGRATIONS.length);
  });

  it('a gap, a swap, a repeat or an empty list is refused before any file is touched', () => {
    const m = (version: number): Migration => ({ version, name: `m${version}`, sql: '' });
    expect(() => checkMigrationOrder([m(1), m(2), m(4)])).toThrow(/1 … N without gaps: entry 3 \("m4"\) is migration 4, expected 3/);
    expect(() => checkMigrationOrder([m(2), m(1)])).toThrow(/entry 1 .* is migration 2/);
    expect(() => checkMigrationOrder([m(1), m(1)])).toThrow(/entry 2 .* is migration 1/);
    expect(() => checkMigrationOrder([m(0), m(1)])).toThrow(/expected 1/);
    expect(() => checkMigrationOrder([])).toThrow(/empty/);
    const p = path.join(dir, 'w.qpairs');
    expect(() => openWorkspace(p, { create: true, migrations: [...MIGRATIONS, m(SCHEMA_VERSION + 2)] })).toThrow(/without gaps/);
    expect(existsSync(p)).toBe(false);
  });
});

describe.each(FIXTURE_LIST)('a workspace written by schema $version ($name, commit $commit)', (f) => {
  it('as shipped: its schema is exactly today’s migrations 1 … k (v8a: without the tables added to migration 8 later)', () => {
    const p = copyOf(f);
    const shipped = readPlain(p, (db) => ({ schema: schemaOf(db), version: db.pragma('user_version', { simple: true }), app: db.pragma('application_id', { simple: true }) }));
    expect(shipped.version).toBe(f.version);
    expect(shipped.app).toBe(APPLICATION_ID);
    const expected = freshSchema(MIGRATIONS.slice(0, f.version));
    if (f.name === 'v8a') {
      expected.objects = expected.objects.filter((o) => !ADDED_TO_MIGRATION_8.includes((o as { tbl_name: string }).tbl_name));
      for (const t of ADDED_TO_MIGRATION_8) delete expected.columns[t];
    }
    expect(shipped.schema).toEqual(expected);
  });

  it('opened by today’s code: migrated, integrity clean, every row kept, the schema of a fresh workspace', () => {
    const p = copyOf(f);
    const before = readPlain(p, rowsOf);
    const count = (t: string): number => before.get(t)?.rows.length ?? 0;
    expect({
      questions: count('questions'),
      answers: count('answers'),
      pools: count('pools'),
      labels: count('labels'),
      runs: count('runs'),
      models: count('models'),
    }).toEqual(f.rows);
    expect(count('run_scores')).toBeGreaterThan(0);
    expect(new Set(before.get('labels')!.rows.map((r) => r[before.get('labels')!.columns.indexOf('annotator_id')])).size).toBeGreaterThanOrEqual(4);

    const { db, readonly, upgradedFrom } = openWorkspace(p);
    try {
      expect(readonly).toBe(false);
      expect(upgradedFrom).toBe(f.version);
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(db.pragma('application_id', { simple: true })).toBe(APPLICATION_ID);
      expect(db.prepare(`SELECT value FROM meta WHERE key = 'schema_version'`).pluck().get()).toBe(String(SCHEMA_VERSION));
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.pragma('foreign_key_check')).toEqual([]);
      // Every row of every table, in the columns the fixture had (migrations only add columns).
      for (const [table, { columns, rows }] of before) {
        const dropped = table === 'pool_judge_since' && f.version === 20;
        const now = dropped ? [] : selectRows(db, table, columns);
        if (table === 'meta') {
          const drop = (rs: unknown[][]): unknown[][] => rs.filter((r) => r[0] !== 'schema_version' && !isLegacyOrderKey(r[0]));
          expect(drop(now), table).toEqual(drop(rows));
          expect(now.filter((r) => isLegacyOrderKey(r[0])), 'legacy order keys').toEqual([]);
        } else if (table === 'pools' && f.version === 10) {
          // Schema 10 never wrote pools.convention; migration 12 sets it for AskUbuntu pools (checked below).
          const keep = (rs: unknown[][]): unknown[][] => rs.map((r) => r.filter((_, i) => columns[i] !== 'convention'));
          expect(keep(now), table).toEqual(keep(rows));
        } else if (dropped) {
          // Migration 21 moves each mark of when a person began judging a pool into a span from it (checked in schema 20 → 21).
          const spans = db.prepare(`SELECT pool_id, annotator_id, after_seq FROM pool_judge_spans ORDER BY 1, 2, 3`).raw().all();
          expect(spans, table).toEqual(rows);
        } else {
          expect(now, table).toEqual(rows);
        }
      }
      expect(schemaOf(db)).toEqual(freshSchema());
    } finally {
      db.close();
    }

    // Today's Workspace reads it: pools with their settings, labels per annotator, stats.
    const ws = Workspace.open(p);
    try {
      expect(ws.upgradedFrom).toBeNull(); // upgraded above: this open changed nothing
      expect(ws.listPools().map((x) => x.name).sort()).toEqual(
        f.version >= 13 ? ['au', 'bm25', 'copies', 'semeval'] : f.version >= 10 ? ['au', 'bm25', 'semeval'] : ['bm25', 'semeval'],
      );
      expect(ws.pool('semeval')).toMatchObject({ scheme: 'semeval3', aggregation: 'adjudicated' });
      const labels = ws.currentLabels('semeval');
      expect(new Set(labels.map((l) => l.annotator))).toEqual(new Set(['gold', 'alice', 'bob', 'carol', ...(f.version >= 2 ? ['judy'] : [])]));
      expect(ws.stats()).toMatchObject({ questions: f.rows.questions, answers: f.rows.answers, pools: f.rows.pools });
      // From schema 13 the fixture's CLI ran one live retrain of pool "semeval" (see the tests of schemas 12–14).
      expect(ws.db.prepare(`SELECT count(*) FROM live_training`).pluck().get()).toBe(f.version >= 13 ? 1 : 0);
    } finally {
      ws.close();
    }
    expect(sidecars(p)).toEqual([]);
  });

  it('recorded one version below its tables (or 0): refused as WorkspaceSchemaMismatchError, the file byte-identical', () => {
    const p = copyOf(f);
    recordVersion(p, f.version - 1);
    const e = expectRefused(p, WorkspaceSchemaMismatchError);
    expect(e.version).toBe(f.version - 1);
    expect(e.ahead.length).toBeGreaterThan(0);
    expect(e.message).toMatch(new RegExp(`records workspace schema ${f.version - 1}, but it already has .*below its tables.*left untouched`));
    if (f.version > 1) {
      recordVersion(p, 0);
      expectRefused(p, WorkspaceSchemaMismatchError);
    }
  });
});

describe('schema 10: what it kept elsewhere or never set, carried over by migration 12', () => {
  const v10 = FIXTURE_LIST.find((f) => f.name === 'v10')!;

  it('a pool in decide-rankers-mtc order keeps it (schema 10 kept it in meta; it read as random), and AskUbuntu pools evaluate under skip', async () => {
    const p = copyOf(v10);
    const shipped = readPlain(p, (db) => ({
      pools: db.prepare(`SELECT name, label_order, order_seed, convention FROM pools ORDER BY id`).all(),
      keys: db.prepare(`SELECT key, value FROM meta WHERE key LIKE 'pool_label_order.%'`).all(),
    }));
    // As schema 10 left it: the order in a meta key beside label_order 'random', every convention the column's default.
    expect(shipped.pools).toEqual([
      { name: 'semeval', label_order: 'pool', order_seed: 1, convention: 'zero' },
      { name: 'bm25', label_order: 'random', order_seed: 3, convention: 'zero' },
      { name: 'au', label_order: 'pool', order_seed: 1, convention: 'zero' },
    ]);
    expect(shipped.keys).toEqual([{ key: expect.stringMatching(/^pool_label_order\.2\./), value: 'decide-rankers-mtc' }]);

    const ws = Workspace.open(p);
    try {
      expect(ws.listPools().map((x) => [x.name, x.label_order, x.order_seed, x.convention])).toEqual([
        ['semeval', 'pool', 1, 'zero'],
        ['bm25', 'decide-rankers-mtc', 3, 'zero'],
        ['au', 'pool', 1, 'skip'],
      ]);
    } finally {
      ws.close();
    }
    // What a user sees: the pool list names the order, and eval on the AskUbuntu pool says skip, as schema 10's eval did.
    const list = await cli('pool', 'list', p, '--json');
    expect((JSON.parse(list.out) as Array<{ name: string; label_order: string }>).find((x) => x.name === 'bm25')?.label_order).toBe('decide-rankers-mtc');
    const ev = await cli('eval', p, '--pool', 'au');
    expect(ev.code).toBe(0);
    expect(ev.out).toContain('convention skip');
  });
});

describe('schemas 12–15: what each added survives the upgrade', () => {
  const at = (name: string): Fixture => FIXTURE_LIST.find((f) => f.name === name)!;

  it.each(['v12', 'v13', 'v14', 'v15'])('%s: the candidate-level order (pool_candidate_orders) and every pool\'s convention as its QPairs wrote them', async (name) => {
    const f = at(name);
    const p = copyOf(f);
    const shipped = readPlain(p, (db) => ({
      orders: db.prepare(`SELECT p.name, o.label_order FROM pool_candidate_orders o JOIN pools p ON p.id = o.pool_id ORDER BY p.id`).all(),
      pools: db.prepare(`SELECT name, label_order, order_seed, convention FROM pools ORDER BY id`).raw().all(),
      legacyKeys: db.prepare(`SELECT key FROM meta WHERE key LIKE 'pool_label_order.%'`).pluck().all(),
    }));
    // As written (make-fixtures.sh): bm25 set to decide-rankers-mtc and to skip, au's skip by its import, nothing in meta.
    const pools = [
      ['semeval', 'pool', 1, 'zero'],
      ['bm25', 'random', 3, 'skip'],
      ['au', 'pool', 1, 'skip'],
      ...(f.version >= 13 ? [['copies', 'pool', 1, 'zero']] : []),
    ];
    expect(shipped).toEqual({ orders: [{ name: 'bm25', label_order: 'decide-rankers-mtc' }], pools, legacyKeys: [] });

    const ws = Workspace.open(p);
    try {
      expect(ws.upgradedFrom).toBe(f.version);
      expect(ws.listPools().map((x) => [x.name, x.label_order, x.order_seed, x.convention])).toEqual(
        pools.map(([pool, order, seed, convention]) => [pool, pool === 'bm25' ? 'decide-rankers-mtc' : order, seed, convention]),
      );
    } finally {
      ws.close();
    }
    const list = await cli('pool', 'list', p, '--json');
    expect((JSON.parse(list.out) as Array<{ name: string; label_order: string }>).find((x) => x.name === 'bm25')?.label_order).toBe('decide-rankers-mtc');
    // The pool has no labels: nothing to evaluate (exit 1), and the report still names the convention.
    const ev = await cli('eval', p, '--pool', 'bm25');
    expect(ev.code, ev.err).toBe(1);
    expect(ev.err).toMatch(/^qpairs eval: nothing to evaluate: /);
    expect(ev.out).toContain('convention skip');
  });

  it.each(['v13', 'v14', 'v15', 'v16', 'v17', 'v18'])('%s: the live retrain its QPairs ran keeps its setting, run and curve point with copies_left_out', (name) => {
    const f = at(name);
    const p = copyOf(f);
    const shipped = readPlain(p, (db) => ({
      curve: db.prepare(`SELECT model, labels, trained_queries, held_out_queries, map, mrr, copies_left_out FROM live_curve c JOIN pools p ON p.id = c.pool_id WHERE p.name = 'semeval'`).all() as Array<Record<string, unknown>>,
      run: db.prepare(`SELECT count(*) FROM run_scores s JOIN runs r ON r.id = s.run_id WHERE r.name = 'live-tfidf'`).pluck().get() as number,
    }));
    // Written by that commit's live retrain: the "copies" pool holds pool "semeval"'s first query, left out of its fold's training.
    const copies = { queries: 1, reasons: { 'same-id': 1, 'same-text': 0, 'near-duplicate': 0 } };
    expect(shipped.curve).toEqual([expect.objectContaining({ model: 'tfidf', trained_queries: 3, held_out_queries: 3, copies_left_out: JSON.stringify(copies) })]);
    expect(shipped.run).toBeGreaterThan(0);

    const ws = Workspace.open(p);
    try {
      expect(ws.upgradedFrom).toBe(f.version);
      expect(lastCopiesLeftOut(ws, 'semeval')).toEqual(copies);
      const [c] = shipped.curve;
      expect(readCurve(ws, 'semeval')).toEqual([
        expect.objectContaining({ model: 'tfidf', labels: c!.labels, trainedQueries: 3, heldOutQueries: 3, MAP: c!.map, MRR: c!.mrr }),
      ]);
      expect(readLiveSetting(ws, 'semeval')).toMatchObject({ enabled: true, everyLabels: 10000, idleSeconds: 0, models: ['tfidf'], trainPools: ['bm25', 'copies'], lastError: null });
      expect(ws.listRuns('semeval').map((r) => r.name)).toContain('live-tfidf');
    } finally {
      ws.close();
    }
  });

  it.each(['v14', 'v15'])('%s: the questions of each source, counted from the questions_source index', (name) => {
    const f = at(name);
    const p = copyOf(f);
    const bySource = `SELECT source, count(*) AS n FROM questions GROUP BY source ORDER BY source`;
    expect(readPlain(p, (db) => db.prepare(bySource).all())).toEqual([
      { source: 'extra', n: 3 },
      { source: 'semeval', n: 33 },
    ]);
    const ws = Workspace.open(p);
    try {
      expect(ws.upgradedFrom).toBe(f.version);
      expect(ws.stats().sources).toEqual({ extra: 3, semeval: 33 });
      const plan = (ws.db.prepare(`EXPLAIN QUERY PLAN ${bySource}`).all() as Array<{ detail: string }>).map((r) => r.detail).join('; ');
      expect(plan).toContain('USING COVERING INDEX questions_source');
    } finally {
      ws.close();
    }
  });
});

describe('schema 15 → 16: an annotator\'s own event numbers from labels_annotator_seq', () => {
  const v15 = FIXTURE_LIST.find((f) => f.name === 'v15')!;

  it('the upgraded file numbers each annotator\'s events from the new index, as counting her labels does', () => {
    const p = copyOf(v15);
    const counts = readPlain(p, (db) => db.prepare(`SELECT a.name, count(*) AS n, max(l.seq) AS last FROM labels l JOIN annotators a ON a.id = l.annotator_id GROUP BY a.name ORDER BY a.name`).all()) as Array<{ name: string; n: number; last: number }>;
    expect(counts.map((c) => c.name)).toEqual(['alice', 'bob', 'carol', 'gold', 'judy']);
    const ws = Workspace.open(p);
    try {
      expect(ws.upgradedFrom).toBe(15);
      for (const c of counts) {
        expect([c.name, ownSeq(ws, c.name, c.last)]).toEqual([c.name, c.n]);
        expect([c.name, globalSeq(ws, c.name, c.n)]).toEqual([c.name, c.last]);
      }
      const plan = (ws.db.prepare(`EXPLAIN QUERY PLAN SELECT count(*) FROM labels WHERE annotator_id = 1 AND seq <= 1000`).all() as Array<{ detail: string }>).map((r) => r.detail).join('; ');
      expect(plan).toContain('USING COVERING INDEX labels_annotator_seq');
      // The run-visibility change count starts at 0 and counts what the upgraded file's models and pools go through.
      const changes = (): number => ws.db.prepare(`SELECT n FROM change_counts WHERE what = 'run_visibility'`).pluck().get() as number;
      expect(changes()).toBe(0);
      ws.setPoolBlind('bm25', true);
      expect(changes()).toBe(1);
    } finally {
      ws.close();
    }
  });

  it('a workspace of schema 16 opened by the QPairs of schema 15 is refused, the file untouched', () => {
    const p = path.join(dir, 'new.qpairs');
    openWorkspaceDb(p, { create: true, migrations: MIGRATIONS.slice(0, 16) }).close();
    const e = expectRefused(p, WorkspaceFromFutureError, () => openWorkspace(p, { migrations: MIGRATIONS.slice(0, 15) }));
    expect([e.version, e.known]).toEqual([16, 15]);
  });

  it('upgraded, then recorded as 15 again: refused, naming what schema 16 makes (its index and change_counts)', () => {
    const p = copyOf(v15);
    openWorkspaceDb(p, { migrations: MIGRATIONS.slice(0, 16) }).close();
    recordVersion(p, 15);
    const e = expectRefused(p, WorkspaceSchemaMismatchError);
    expect([[...e.ahead].sort(), e.missing]).toEqual([['change_counts', 'change_counts.n', 'change_counts.what', 'labels.index:labels_annotator_seq'], []]);
    expect(e.message).toContain('(schema 16)');
  });
});

describe('schema 16 → 17: the last finished import stays undoable through an import that fails or changes nothing', () => {
  const v16 = FIXTURE_LIST.find((f) => f.name === 'v16')!;
  const extraIds = (ws: Workspace): string[] => ws.db.prepare(`SELECT id FROM questions WHERE source = 'extra' ORDER BY id`).pluck().all() as string[];

  it('the kept journal its QPairs left (extra.jsonl) is still the one to undo after the upgrade, through a failed import, and then undoes', async () => {
    const p = copyOf(v16);
    const ws = Workspace.open(p);
    try {
      expect(ws.upgradedFrom).toBe(16);
      expect(undoableImport(ws.db)).toMatchObject({ what: 'questions-jsonl import of extra.jsonl' });
      const bad = path.join(dir, 'bad.jsonl');
      writeFileSync(bad, '{"id":"y1","title":"fine","body":"fine"}\n{not json\n');
      await expect(runImport(ws, 'questions-jsonl', [bad], { source: 'bad' })).rejects.toThrow();
      expect(ws.getQuestion('y1')).toBeNull();
      expect(undoableImport(ws.db)).toMatchObject({ what: 'questions-jsonl import of extra.jsonl' });
      expect(extraIds(ws)).toEqual(['x1', 'x2', 'x3']);
      const undone = await undoLastImport(ws);
      expect(undone.rowsChanged).toMatchObject({ questions: -3 });
      expect(extraIds(ws)).toEqual([]);
      expect(ws.db.prepare(`PRAGMA integrity_check`).pluck().get()).toBe('ok');
    } finally {
      ws.close();
    }
  });

  it('a workspace of schema 17 opened by the QPairs of schema 16 is refused, the file untouched', () => {
    const p = path.join(dir, 'new.qpairs');
    openWorkspaceDb(p, { create: true, migrations: MIGRATIONS.slice(0, 17) }).close();
    const e = expectRefused(p, WorkspaceFromFutureError, () => openWorkspace(p, { migrations: MIGRATIONS.slice(0, 16) }));
    expect([e.version, e.known]).toEqual([17, 16]);
  });

  it('upgraded, then recorded as 16 again: refused, naming the journal columns schema 17 makes', () => {
    const p = copyOf(v16);
    openWorkspaceDb(p, { migrations: MIGRATIONS.slice(0, 17) }).close();
    recordVersion(p, 16);
    const e = expectRefused(p, WorkspaceSchemaMismatchError);
    expect([[...e.ahead].sort(), e.missing]).toEqual([['import_journal.from_seq', 'import_journal.kept'], []]);
    expect(e.message).toContain('(schema 17)');
  });
});

describe('schema 17 → 18: the labels a live retrain did not train on', () => {
  const v17 = FIXTURE_LIST.find((f) => f.name === 'v17')!;

  it('its live retrain (marked by the events it saw) leaves no pair to count again; the next labels count as before', () => {
    const p = copyOf(v17);
    const mark = readPlain(p, (db) => db.prepare(`SELECT last_label_seq FROM live_training t JOIN pools p ON p.id = t.pool_id WHERE p.name = 'semeval'`).pluck().get() as number);
    expect(mark).toBeGreaterThan(0);
    const ws = Workspace.open(p);
    try {
      expect(ws.upgradedFrom).toBe(17);
      expect(ws.db.prepare(`SELECT count(*) FROM live_uncovered`).pluck().get()).toBe(0);
      const before = labelsNotTrainedOn(ws, 'semeval', mark);
      const [q, c] = ws.db.prepare(`SELECT query_id, candidate_id FROM labels l JOIN pools p ON p.id = l.pool_id WHERE p.name = 'semeval' ORDER BY seq LIMIT 1`).raw().get() as [string, string];
      ws.addLabel({ pool: 'semeval', annotator: 'alice', queryId: q, candidateId: c, value: 'Irrelevant', origin: 'cli', restate: true });
      expect(labelsNotTrainedOn(ws, 'semeval', mark)).toEqual({ pairs: before.pairs + 1, fresh: before.fresh + 1 });
    } finally {
      ws.close();
    }
  });

  it('a workspace of schema 18 opened by the QPairs of schema 17 is refused, the file untouched', () => {
    const p = path.join(dir, 'new.qpairs');
    openWorkspaceDb(p, { create: true, migrations: MIGRATIONS.slice(0, 18) }).close();
    const e = expectRefused(p, WorkspaceFromFutureError, () => openWorkspace(p, { migrations: MIGRATIONS.slice(0, 17) }));
    expect([e.version, e.known]).toEqual([18, 17]);
  });

  it('upgraded, then recorded as 17 again: refused, naming the table schema 18 makes', () => {
    const p = copyOf(v17);
    openWorkspaceDb(p, { migrations: MIGRATIONS.slice(0, 18) }).close();
    recordVersion(p, 17);
    const e = expectRefused(p, WorkspaceSchemaMismatchError);
    expect(e.ahead).toContain('live_uncovered');
    expect(e.missing).toEqual([]);
    expect(e.message).toContain('(schema 18)');
  });
});

describe('schema 18 → 19: an import\'s undo under way, recorded chunk by chunk', () => {
  const v18 = FIXTURE_LIST.find((f) => f.name === 'v18')!;

  it('the import its QPairs left undoable (extra.jsonl) is undone by today\'s chunked undo, which leaves no record of an undo under way', async () => {
    const p = copyOf(v18);
    const ws = Workspace.open(p);
    try {
      expect(ws.upgradedFrom).toBe(18);
      expect(ws.db.prepare(`SELECT count(*) FROM import_undo_progress`).pluck().get()).toBe(0);
      expect(ws.db.prepare(`SELECT count(*) FROM questions WHERE source = 'extra'`).pluck().get()).toBe(3);
      const r = await undoLastImport(ws, { chunkMs: 0 });
      expect(r.what).toBe('questions-jsonl import of extra.jsonl');
      expect(ws.db.prepare(`SELECT count(*) FROM questions WHERE source = 'extra'`).pluck().get()).toBe(0);
      expect(ws.db.prepare(`SELECT count(*) FROM questions`).pluck().get()).toBe(33);
      expect(readUndoMarker(ws.db)).toBeNull();
    } finally {
      ws.close();
    }
  });

  it('a record of an undo under way kept in meta (by a build before migration 19, never released) moves to its table', () => {
    const p = copyOf(v18);
    const marker = { what: 'questions-jsonl import of extra.jsonl', started: '2026-01-01T00:00:00.000Z', pid: 1, host: 'elsewhere' };
    const raw = new Database(p);
    raw.prepare(`INSERT INTO meta(key, value) VALUES ('import_undo_running', ?)`).run(JSON.stringify(marker));
    raw.close();
    const db = openWorkspaceDb(p);
    try {
      expect(readUndoMarker(db)).toMatchObject(marker);
      expect(db.prepare(`SELECT count(*) FROM meta WHERE key = 'import_undo_running'`).pluck().get()).toBe(0);
    } finally {
      db.close();
    }
  });

  it('a workspace of schema 19 opened by the QPairs of schema 18 is refused, the file untouched', () => {
    const p = path.join(dir, 'new.qpairs');
    openWorkspaceDb(p, { create: true, migrations: MIGRATIONS.slice(0, 19) }).close();
    const e = expectRefused(p, WorkspaceFromFutureError, () => openWorkspace(p, { migrations: MIGRATIONS.slice(0, 18) }));
    expect([e.version, e.known]).toEqual([19, 18]);
  });

  it('upgraded, then recorded as 18 again: refused, naming the table schema 19 makes', () => {
    const p = copyOf(v18);
    openWorkspaceDb(p, { migrations: MIGRATIONS.slice(0, 19) }).close();
    recordVersion(p, 18);
    const e = expectRefused(p, WorkspaceSchemaMismatchError);
    expect(e.ahead).toContain('import_undo_progress');
    expect(e.missing).toEqual([]);
    expect(e.message).toContain('(schema 19)');
  });
});

describe('schema 19 → 20: when each person began judging each pool', () => {
  const v18 = FIXTURE_LIST.find((f) => f.name === 'v18')!;

  it('a judge\'s ruling made before the upgrade still settles its pair: nobody is taken to have voted before judging', () => {
    const p = copyOf(v18);
    const ws = Workspace.open(p);
    try {
      expect(ws.db.prepare(`SELECT count(*) FROM pool_judge_spans`).pluck().get()).toBe(0);
      const ruled = loadPoolState(ws, 'semeval').pairs.filter((e) => e.judge !== null);
      expect(ruled.map((e) => [e.judge!.annotator, e.judge!.value, e.judgeEarlierVote ?? null])).toEqual([['judy', 'Relevant', null]]);
    } finally {
      ws.close();
    }
  });

  it('a workspace of schema 20 opened by the QPairs of schema 19 is refused, the file untouched', () => {
    const p = path.join(dir, 'new.qpairs');
    openWorkspaceDb(p, { create: true, migrations: MIGRATIONS.slice(0, 20) }).close();
    const e = expectRefused(p, WorkspaceFromFutureError, () => openWorkspace(p, { migrations: MIGRATIONS.slice(0, 19) }));
    expect([e.version, e.known]).toEqual([20, 19]);
  });

  it('upgraded, then recorded as 19 again: refused, naming the table schema 20 makes', () => {
    const p = copyOf(v18);
    openWorkspaceDb(p, { migrations: MIGRATIONS.slice(0, 20) }).close();
    recordVersion(p, 19);
    const e = expectRefused(p, WorkspaceSchemaMismatchError);
    expect(e.ahead).toContain('pool_judge_since');
    expect(e.missing).toEqual([]);
    expect(e.message).toContain('(schema 20)');
  });
});

describe('schema 20 → 21: every span of time each person judged each pool', () => {
  const v20 = FIXTURE_LIST.find((f) => f.name === 'v20')!;
  const judged = (ws: Workspace, pool: string) =>
    loadPoolState(ws, pool)
      .pairs.filter((e) => e.judge !== null || e.judgeEarlierVote)
      .map((e) => [e.candidateId, e.judge ? `${e.judge.annotator}=${e.judge.value}` : null, e.judgeEarlierVote?.annotator ?? null]);

  it("judy's rulings still settle their pairs, carol still judges the pools she labeled, and judy made an annotator and a judge again keeps her ruling", () => {
    const p = copyOf(v20);
    const ws = Workspace.open(p);
    try {
      expect(ws.upgradedFrom).toBe(20);
      // carol, made a judge in schema 20 after labeling every pool (her labels there imported: rulings brought back), still judges them: one open span per pool she labeled.
      const spans = ws.db.prepare(`SELECT p.name, a.name AS who, s.until_seq FROM pool_judge_spans s JOIN pools p ON p.id = s.pool_id JOIN annotators a ON a.id = s.annotator_id ORDER BY 1`).all();
      expect(spans).toEqual([
        { name: 'bm25', who: 'carol', until_seq: null },
        { name: 'copies', who: 'carol', until_seq: null },
        { name: 'semeval', who: 'carol', until_seq: null },
      ]);
      const byJudy = (pool: string) => judged(ws, pool).filter((x) => x[1]?.startsWith('judy=') || x[2] === 'judy');
      expect(byJudy('semeval')).toEqual([['Q268_R4', 'judy=Relevant', null]]);
      expect(byJudy('bm25')).toEqual([['Q268_R5', 'judy=0', null]]);
      // The round trip that lost a ruling in schema 20 (it became a vote set aside: [Q268_R5, null, judy]).
      setRoleWithNotes(ws, 'judy', 'annotator');
      setRoleWithNotes(ws, 'judy', 'judge');
      expect(byJudy('bm25')).toEqual([['Q268_R5', 'judy=0', null]]);
    } finally {
      ws.close();
    }
  });

  it('a mark of a person who no longer judges the pool becomes an ended span, which goes on when she judges again (her labels up to now stay votes, as schema 20 read them)', () => {
    const p = copyOf(v20);
    const raw = new Database(p);
    raw.prepare(`UPDATE annotators SET role = 'annotator' WHERE name = 'carol'`).run();
    raw.close();
    const ws = Workspace.open(p);
    try {
      const ended = ws.db.prepare(`SELECT count(*) FROM pool_judge_spans WHERE until_seq = after_seq`).pluck().get();
      expect(ended).toBe(3);
      setRoleWithNotes(ws, 'carol', 'judge');
      expect(ws.db.prepare(`SELECT count(*) FROM pool_judge_spans WHERE until_seq IS NULL`).pluck().get()).toBe(3);
      expect(ws.db.prepare(`SELECT count(*) FROM pool_judge_spans`).pluck().get()).toBe(3);
    } finally {
      ws.close();
    }
  });

  it('a workspace of schema 21 opened by the QPairs of schema 20 is refused, the file untouched', () => {
    const p = path.join(dir, 'new.qpairs');
    openWorkspaceDb(p, { create: true, migrations: MIGRATIONS.slice(0, 21) }).close();
    const e = expectRefused(p, WorkspaceFromFutureError, () => openWorkspace(p, { migrations: MIGRATIONS.slice(0, 20) }));
    expect([e.version, e.known]).toEqual([21, 20]);
  });

  it('upgraded, then recorded as 20 again: refused, naming the table schema 21 makes and the one it replaced', () => {
    const p = copyOf(v20);
    openWorkspaceDb(p, { migrations: MIGRATIONS.slice(0, 21) }).close();
    recordVersion(p, 20);
    const e = expectRefused(p, WorkspaceSchemaMismatchError);
    expect(e.ahead).toContain('pool_judge_spans');
    expect(e.missing).toContain('pool_judge_since');
    expect(e.message).toContain('(schema 21)');
  });
});

describe('an upgrade is said', () => {
  it('the command that upgrades a workspace says so once (older QPairs can no longer open it); a new workspace is not "upgraded"', async () => {
    const p = copyOf(FIXTURE_LIST.find((f) => f.name === 'v8')!);
    // Was silent: the next older QPairs to open it said "written by a newer QPairs" with nothing to say when or why.
    const first = await cli('eval', p, '--pool', 'semeval');
    expect(first.code, first.err).toBe(0);
    expect(first.err).toBe(
      `note: upgraded workspace ${p} from workspace schema 8 to ${SCHEMA_VERSION}: the QPairs that wrote it (and any other older QPairs) ` +
        `can no longer open it — upgrade QPairs wherever it is used\n`,
    );
    const again = await cli('eval', p, '--pool', 'semeval');
    expect(again.err).toBe('');
    const fresh = path.join(dir, 'new.qpairs');
    expect((await cli('init', fresh)).err).toBe('');
    expect((await cli('stats', fresh)).err).toBe('');
  });
});

describe('two processes opening the same older workspace at once', () => {
  it('the second waits for the first one\'s upgrade and finds it done (was "internal error: SqliteError: table annotator_tokens already exists")', async () => {
    const p = copyOf(FIXTURE_LIST.find((f) => f.name === 'v10')!);
    const wal = new Database(p);
    wal.pragma('journal_mode = WAL'); // as the app leaves workspaces: readers go on while a writer holds its transaction
    wal.close();
    // The first process: it holds the write lock while it upgrades.
    const first = new Database(p);
    first.exec('BEGIN IMMEDIATE');
    const second = spawn(process.execPath, [path.resolve(import.meta.dirname, '../../../bin/qpairs.mjs'), 'stats', p, '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    second.stdout.on('data', (d: Buffer) => (out += d.toString()));
    second.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise<number | null>((resolve) => second.once('exit', resolve));
    try {
      // Time for the second to read the old version and wait for the write lock (it waits up to 5 s).
      await new Promise((resolve) => setTimeout(resolve, 2500));
      for (const m of MIGRATIONS.filter((x) => x.version > 10)) {
        first.exec(m.sql);
        first.pragma(`user_version = ${m.version}`);
      }
      first.prepare(`UPDATE meta SET value = ? WHERE key = 'schema_version'`).run(String(SCHEMA_VERSION));
      first.exec('COMMIT');
    } finally {
      if (first.inTransaction) first.exec('ROLLBACK');
      first.close();
    }
    expect(await exited, err).toBe(0);
    expect(err).toBe('');
    expect(JSON.parse(out)).toMatchObject({ questions: 33, pools: 3 });
    readPlain(p, (db) => {
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    });
  });
});

describe('schema 5 (never shipped on its own: 8289f5b added migrations 5 and 6 together)', () => {
  it('the v4 workspace taken to exactly 5 by today’s migration 5 upgrades to the latest like the others', () => {
    const v4 = FIXTURE_LIST.find((f) => f.name === 'v4')!;
    const p = copyOf(v4);
    const before = readPlain(p, rowsOf);
    openWorkspaceDb(p, { migrations: MIGRATIONS.slice(0, 5) }).close();
    expect(readPlain(p, (db) => db.pragma('user_version', { simple: true }))).toBe(5);
    const db = openWorkspaceDb(p);
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.pragma('foreign_key_check')).toEqual([]);
      for (const [table, { columns, rows }] of before) if (table !== 'meta') expect(selectRows(db, table, columns), table).toEqual(rows);
      expect(schemaOf(db)).toEqual(freshSchema());
    } finally {
      db.close();
    }
  });
});

describe('refusals leave the file byte-identical', () => {
  const v8 = FIXTURE_LIST.find((f) => f.name === 'v8')!;

  it('a newer schema: WorkspaceFromFutureError, through openWorkspace, Workspace.open, the CLI and the wire', async () => {
    const p = copyOf(v8);
    recordVersion(p, SCHEMA_VERSION + 1);
    const e = expectRefused(p, WorkspaceFromFutureError);
    expect(e).toBeInstanceOf(QPairsError);
    expect([e.version, e.known]).toEqual([SCHEMA_VERSION + 1, SCHEMA_VERSION]);
    expectRefused(p, WorkspaceFromFutureError, () => Workspace.open(p));
    expectRefused(p, WorkspaceFromFutureError, () => openWorkspace(p, { readonly: true }));
    expect(toWireError(e)).toEqual({ message: e.message, code: 'user-error' });
    const before = sha(p);
    const r = await cli('stats', p);
    expect(r.code).toBe(1);
    expect(r.err).toBe(`qpairs stats: ${p} was written by a newer QPairs (workspace schema ${SCHEMA_VERSION + 1}; this version knows up to ${SCHEMA_VERSION}). Upgrade QPairs to open it; the file was left untouched.\n`);
    expect(sha(p)).toBe(before);
    expect(sidecars(p)).toEqual([]);
  });

  it('a recorded version below its tables (was "internal error: SqliteError: table … already exists"): WorkspaceSchemaMismatchError', async () => {
    const p = copyOf(v8);
    recordVersion(p, 3);
    const e = expectRefused(p, WorkspaceSchemaMismatchError);
    expect(e.ahead).toEqual(expect.arrayContaining(['answers', 'pools.blind', 'import_journal', 'model_trained_on', 'pool_draws', 'live_training']));
    expect(e.missing).toEqual([]);
    expect(e.message).toContain('table answers (schema 4)');
    expectRefused(p, WorkspaceSchemaMismatchError, () => Workspace.open(p));
    expectRefused(p, WorkspaceSchemaMismatchError, () => openWorkspace(p, { readonly: true }));
    expect(toWireError(e).code).toBe('user-error');
    const before = sha(p);
    const r = await cli('import', p, '--format', 'labels-csv', '--pool', 'semeval', path.join(dir, 'none.csv'));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^qpairs import: .* records workspace schema 3, but it already has table answers \(schema 4\)/);
    expect(r.err).not.toMatch(/internal error|SqliteError|already exists/);
    expect(sha(p)).toBe(before);
  });

  it('a recorded version below an index of a later migration (v14 recorded as 13; was "internal error: SqliteError: index questions_source already exists"): WorkspaceSchemaMismatchError naming it', async () => {
    const p = copyOf(FIXTURE_LIST.find((f) => f.name === 'v14')!);
    recordVersion(p, 13);
    const e = expectRefused(p, WorkspaceSchemaMismatchError);
    expect([e.ahead, e.missing]).toEqual([['questions.index:questions_source'], []]);
    expect(e.message).toContain('records workspace schema 13, but it already has index questions_source (schema 14): its recorded version is below its tables');
    const r = await cli('stats', p);
    expect(r.code).toBe(1);
    expect(r.err).toBe(`qpairs stats: ${e.message}\n`);
  });

  it('an index its version has but the file lacks is no mismatch (67f969a added labels_pool_seq to migration 15 in place): it opens', () => {
    const p = copyOf(FIXTURE_LIST.find((f) => f.name === 'v14')!);
    openWorkspaceDb(p).close();
    const db = new Database(p);
    db.exec('DROP INDEX labels_pool_seq');
    db.close();
    const ws = Workspace.open(p);
    expect(ws.stats()).toMatchObject({ questions: 36 });
    ws.close();
  });

  it('a recorded version above its tables: WorkspaceSchemaMismatchError naming what is missing', () => {
    const p = copyOf(FIXTURE_LIST.find((f) => f.name === 'v4')!);
    recordVersion(p, 6);
    const e = expectRefused(p, WorkspaceSchemaMismatchError);
    expect(e.ahead).toEqual([]);
    expect(e.missing).toEqual(expect.arrayContaining(['pool_blind_history', 'pools.blind', 'import_journal', 'import_undo']));
    expect(e.message).toMatch(/records workspace schema 6, but it lacks table pool_blind_history \(schema 5\), .*above its tables/);
  });

  it('an older workspace another QPairs process holds open (an older server) is not upgraded under it; once it stops, it is', async () => {
    const p = copyOf(FIXTURE_LIST.find((f) => f.name === 'v10')!);
    // The lock an older `qpairs serve` holds: a live process of this host (was: any reading command upgraded the file under it).
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      const since = new Date().toISOString();
      writeFileSync(lockFileOf(p), JSON.stringify({ pid: holder.pid, hostname: os.hostname(), command: `qpairs serve ${p} --port 5180`, since, token: 't' }));
      const e = expectRefused(p, QPairsError);
      expect(e.message).toBe(
        `${p} needs an upgrade from workspace schema 10 to ${SCHEMA_VERSION} (it was written by an older QPairs), but another QPairs process has it open:\n` +
          `  qpairs serve ${p} --port 5180 (pid ${holder.pid} on host ${os.hostname()}, since ${since})\n` +
          `Upgrading it under that process would leave an older QPairs writing to a workspace it does not know. The file was left untouched. ` +
          `Stop that process (or let it finish), then run the command again: it upgrades the workspace.`,
      );
      const before = sha(p);
      for (const argv of [['stats', p], ['eval', p, '--pool', 'semeval']]) {
        const r = await cli(...argv);
        expect(r.code).toBe(1);
        expect(r.err).toBe(`qpairs ${argv[0]}: ${e.message}\n`);
      }
      expect(sha(p)).toBe(before);
      expect(readPlain(p, (db) => db.pragma('user_version', { simple: true }))).toBe(10);
    } finally {
      holder.kill();
    }
    await new Promise((resolve) => holder.once('exit', resolve));
    // The holder gone (its lock stale), the next command upgrades it.
    const r = await cli('stats', p);
    expect(r.code, r.err).toBe(0);
    expect(readPlain(p, (db) => db.pragma('user_version', { simple: true }))).toBe(SCHEMA_VERSION);
    rmSync(lockFileOf(p), { force: true });
  });

  it('a workspace at the latest schema opens whoever holds its lock (readers work beside a writer), and this process\'s own lock never stops its upgrade', () => {
    const p = copyOf(FIXTURE_LIST.find((f) => f.name === 'v10')!);
    writeFileSync(lockFileOf(p), JSON.stringify({ pid: process.pid, hostname: os.hostname(), command: 'qpairs serve', since: 'now', token: 't' }));
    const ws = Workspace.open(p);
    expect(ws.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    ws.close();
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      writeFileSync(lockFileOf(p), JSON.stringify({ pid: holder.pid, hostname: os.hostname(), command: 'qpairs import', since: 'now', token: 't' }));
      Workspace.open(p).close();
    } finally {
      holder.kill();
      rmSync(lockFileOf(p), { force: true });
    }
  });

  it('a WAL-mode workspace (as the app leaves them) is refused without a -wal or -shm made or left', () => {
    const p = path.join(dir, 'wal.qpairs');
    Workspace.create(p).close();
    expect(readPlain(p, (db) => db.pragma('journal_mode', { simple: true }))).toBe('wal');
    recordVersion(p, 2);
    expect(sidecars(p)).toEqual([]);
    expectRefused(p, WorkspaceSchemaMismatchError);
    recordVersion(p, SCHEMA_VERSION + 5);
    expectRefused(p, WorkspaceFromFutureError);
  });

  it('schema 8 without the tables added to migration 8 later (v8a) is not a mismatch: migration 9 makes them', () => {
    const v8a = FIXTURE_LIST.find((f) => f.name === 'v8a')!;
    const objects = readPlain(copyOf(v8a), schemaObjects);
    expect(objects.has('live_training')).toBe(false);
    expect(findSchemaMismatch(objects, 8, MIGRATIONS)).toBeNull();
    // Without the repairing migration, the same file is a schema-8 workspace missing tables.
    expect(findSchemaMismatch(objects, 8, MIGRATIONS.slice(0, 8))).toMatchObject({ ahead: [], missing: expect.arrayContaining([{ object: 'live_training', version: 8 }]) });
  });
});
