import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, existsSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Workspace } from './workspace';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations';
import { WorkspaceFromFutureError } from '../errors';
import { APPLICATION_ID, openWorkspaceDb } from './db';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-ws-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const sha = (p: string): string => createHash('sha256').update(readFileSync(p)).digest('hex');

describe('workspace file', () => {
  it('creates a WAL, foreign-keyed, versioned QPairs database', () => {
    const p = path.join(dir, 'w.qpairs');
    const ws = Workspace.create(p);
    expect(ws.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(ws.db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(ws.db.pragma('synchronous', { simple: true })).toBe(2); // FULL
    expect(ws.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(ws.db.pragma('application_id', { simple: true })).toBe(APPLICATION_ID);
    const strict = ws.db.prepare(`SELECT name FROM sqlite_schema WHERE type='table' AND sql LIKE '%STRICT%'`).all() as Array<{ name: string }>;
    expect(strict.map((r) => r.name)).toEqual(expect.arrayContaining(['questions', 'labels', 'pools', 'runs', 'run_scores']));
    ws.close();
    const again = Workspace.open(p);
    expect(again.stats().questions).toBe(0);
    again.close();
  });

  it('refuses to open a missing workspace without create', () => {
    expect(() => Workspace.open(path.join(dir, 'missing.qpairs'))).toThrow(/does not exist/);
    expect(existsSync(path.join(dir, 'missing.qpairs'))).toBe(false);
  });

  it('refuses a workspace from a newer version and leaves it untouched', () => {
    const p = path.join(dir, 'new.qpairs');
    Workspace.create(p).close();
    const raw = new Database(p);
    raw.pragma('journal_mode = DELETE');
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    const before = sha(p);
    expect(() => Workspace.open(p)).toThrow(WorkspaceFromFutureError);
    expect(sha(p)).toBe(before);
    expect(existsSync(p + '-wal')).toBe(false);
  });

  it('refuses a SQLite file that is not a workspace', () => {
    const p = path.join(dir, 'other.db');
    const raw = new Database(p);
    raw.exec('CREATE TABLE t(x)');
    raw.close();
    const before = sha(p);
    expect(() => Workspace.open(p)).toThrow(/not a QPairs workspace/);
    expect(sha(p)).toBe(before);
  });

  it('refuses a file that is not SQLite at all', () => {
    const p = path.join(dir, 'text.qpairs');
    writeFileSync(p, 'hello, I am not a database, '.repeat(40));
    expect(() => Workspace.open(p)).toThrow(/not a QPairs workspace/);
  });

  it('applies pending migrations in one transaction: a failing one leaves the file as it was', () => {
    const p = path.join(dir, 'm.qpairs');
    Workspace.create(p).close();
    const broken = [...MIGRATIONS, { version: SCHEMA_VERSION + 1, name: 'ok part', sql: 'CREATE TABLE extra(x INTEGER) STRICT;' }, { version: SCHEMA_VERSION + 2, name: 'broken', sql: 'CREATE TABLE nope(' }];
    expect(() => Workspace.open(p, { migrations: broken })).toThrow();
    const ws = Workspace.open(p);
    expect(ws.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(ws.db.prepare(`SELECT count(*) AS n FROM sqlite_schema WHERE name = 'extra'`).get()).toEqual({ n: 0 });
    ws.close();
    const good = [...MIGRATIONS, { version: SCHEMA_VERSION + 1, name: 'extra', sql: 'CREATE TABLE extra(x INTEGER) STRICT;' }];
    const ws2 = Workspace.open(p, { migrations: good });
    expect(ws2.db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION + 1);
    ws2.close();
  });
});

describe('migration 4 (answers)', () => {
  it('upgrades a schema-3 workspace: questions, pools, labels, runs and models stay as they were', () => {
    const p = path.join(dir, 'v3.qpairs');
    const db = openWorkspaceDb(p, { create: true, migrations: MIGRATIONS.slice(0, 3) });
    expect(db.pragma('user_version', { simple: true })).toBe(3);
    db.close();
    const v3 = Workspace.open(p, { migrations: MIGRATIONS.slice(0, 3) });
    // Today's pool reads also look up candidate orders (migration 12): a TEMP table (this connection only,
    // never in the file) lets today's helpers write the old schema's rows.
    v3.db.exec('CREATE TEMP TABLE pool_candidate_orders(pool_id INTEGER PRIMARY KEY, label_order TEXT)');
    // Likewise runs.staged (migration 15), which pool reads count runs by: a TEMP view over the file's table.
    v3.db.exec('CREATE TEMP VIEW runs AS SELECT *, NULL AS staged FROM main.runs');
    v3.upsertQuestion({ id: 'q1', source: 's', title: 'T', body: 'B' });
    v3.upsertQuestion({ id: 'c1', source: 's', title: 'C', body: 'D' });
    v3.db.prepare(`INSERT INTO pools(name, scheme, created) VALUES ('p', 'semeval3', '2026-01-01T00:00:00.000Z')`).run(); // the schema-3 columns
    v3.addPoolQuery('p', 'q1', ['c1']);
    v3.addLabel({ pool: 'p', queryId: 'q1', candidateId: 'c1', annotator: 'gold', value: 'Relevant', origin: 'test' });
    // The schema-3 columns (today's run helpers write migration 15's runs.staged).
    v3.db.prepare(`INSERT INTO main.runs(pool_id, name, kind, created) SELECT id, 'r', 'test', created FROM pools WHERE name = 'p'`).run();
    v3.db.prepare(`INSERT INTO run_scores(run_id, query_id, candidate_id, score) SELECT id, 'q1', 'c1', 0.5 FROM main.runs WHERE name = 'r'`).run();
    v3.db.prepare(`INSERT INTO models(name, kind, saved, report, training, created) VALUES ('m', 'tfidf', x'00', '{}', '{}', 'now')`).run();
    expect(() => v3.stats()).toThrow(/no such table: answers/);
    v3.close();
    const before = new Database(p, { readonly: true });
    const dump = (d: Database.Database) =>
      ['questions', 'pools', 'pool_candidates', 'labels', 'run_scores', 'models'].map((t) => d.prepare(`SELECT * FROM ${t}`).raw().all());
    const rows = dump(before);
    before.close();

    const ws = Workspace.open(p, { migrations: MIGRATIONS.slice(0, 4) });
    expect(ws.db.pragma('user_version', { simple: true })).toBe(4);
    expect(ws.getMeta('schema_version')).toBe('4');
    expect(dump(ws.db)).toEqual(rows);
    const count = (t: string): number => ws.db.prepare(`SELECT count(*) FROM ${t}`).pluck().get() as number;
    expect(['questions', 'answers', 'pools', 'labels', 'runs'].map(count)).toEqual([2, 0, 1, 1, 1]);
    expect(ws.upsertAnswer({ id: 'a1', questionId: 'q1', source: 's', body: 'an answer' })).toBe('inserted');
    expect(count('answers')).toBe(1);
    ws.close();
  });
});

describe('migration 5 (blind pools, owner role)', () => {
  it('upgrades a schema-4 workspace: every pool becomes blind since its creation, annotators and labels keep their ids', () => {
    const p = path.join(dir, 'v4.qpairs');
    openWorkspaceDb(p, { create: true, migrations: MIGRATIONS.slice(0, 4) }).close();
    const v4 = Workspace.open(p, { migrations: MIGRATIONS.slice(0, 4) });
    v4.db.exec('CREATE TEMP TABLE pool_candidate_orders(pool_id INTEGER PRIMARY KEY, label_order TEXT)'); // as above
    v4.db.exec('CREATE TEMP VIEW runs AS SELECT *, NULL AS staged FROM main.runs');
    v4.upsertQuestion({ id: 'q1', source: 's', title: 'T', body: 'B' });
    v4.upsertQuestion({ id: 'c1', source: 's', title: 'C', body: 'D' });
    v4.db.prepare(`INSERT INTO pools(name, scheme, created) VALUES ('p', 'binary', '2026-01-01T00:00:00.000Z')`).run(); // the schema-4 columns
    v4.addPoolQuery('p', 'q1', ['c1']);
    v4.addLabel({ pool: 'p', queryId: 'q1', candidateId: 'c1', annotator: 'alice', value: '1', origin: 'test' });
    v4.addLabel({ pool: 'p', queryId: 'q1', candidateId: 'c1', annotator: 'bob', value: '0', origin: 'test' });
    const before = v4.db.prepare(`SELECT l.seq, a.id, a.name, a.role, l.value FROM labels l JOIN annotators a ON a.id = l.annotator_id ORDER BY seq`).raw().all();
    const created = (v4.db.prepare(`SELECT created FROM pools WHERE name = 'p'`).get() as { created: string }).created;
    v4.close();

    const ws = Workspace.open(p, { migrations: MIGRATIONS.slice(0, 5) });
    expect(ws.db.pragma('user_version', { simple: true })).toBe(5);
    expect(ws.db.prepare(`SELECT l.seq, a.id, a.name, a.role, l.value FROM labels l JOIN annotators a ON a.id = l.annotator_id ORDER BY seq`).raw().all()).toEqual(before);
    expect(ws.db.prepare(`SELECT blind FROM pools WHERE name = 'p'`).pluck().get()).toBe(1);
    expect(ws.db.prepare(`SELECT blind, at FROM pool_blind_history`).all()).toEqual([{ blind: 1, at: created }]);
    expect(ws.db.pragma('foreign_key_check')).toEqual([]);
    ws.db.prepare(`UPDATE annotators SET role = 'owner' WHERE name = 'alice'`).run();
    expect(() => ws.db.prepare(`UPDATE annotators SET role = 'boss' WHERE name = 'alice'`).run()).toThrow(/CHECK/);
    ws.close();
  });
});

describe('workspace content', () => {
  let ws: Workspace;
  beforeEach(() => {
    ws = Workspace.create(path.join(dir, 'c.qpairs'));
  });
  afterEach(() => ws.close());

  it('upserts questions idempotently', () => {
    expect(ws.upsertQuestion({ id: 'q1', source: 's', title: 'T', body: 'B', tags: ['a', 'b'] }).result).toBe('inserted');
    expect(ws.upsertQuestion({ id: 'q1', source: 's', title: 'T', body: 'B', tags: ['a', 'b'] }).result).toBe('unchanged');
    expect(ws.upsertQuestion({ id: 'q1', source: 's', title: 'T2', body: 'B', tags: ['a', 'b'] }).result).toBe('updated');
    expect(ws.getQuestion('q1')).toMatchObject({ title: 'T2', tags: ['a', 'b'] });
    expect(ws.questionCount()).toBe(1);
  });

  it('upserts answers by id, in position order per question; they need their question', () => {
    ws.upsertQuestion({ id: 'q1', source: 's', title: 'T' });
    ws.upsertQuestion({ id: 'q2', source: 's', title: 'U' });
    expect(ws.upsertAnswer({ id: 'a1', questionId: 'q1', source: 's', body: 'one' })).toBe('inserted');
    expect(ws.upsertAnswer({ id: 'a2', questionId: 'q1', source: 's', body: 'two', author: 'u', created: '2020' })).toBe('inserted');
    expect(ws.upsertAnswer({ id: 'a1', questionId: 'q1', source: 's', body: 'one' })).toBe('unchanged');
    expect(ws.upsertAnswer({ id: 'a1', questionId: 'q1', source: 's', body: 'one, edited' })).toBe('updated');
    expect(ws.answersOf('q1').map((a) => [a.id, a.position, a.body])).toEqual([['a1', 0, 'one, edited'], ['a2', 1, 'two']]);
    expect(ws.upsertAnswer({ id: 'a1', questionId: 'q2', source: 's', body: 'moved' })).toBe('updated');
    expect(ws.answersOf('q2').map((a) => [a.id, a.position])).toEqual([['a1', 0]]);
    expect(() => ws.upsertAnswer({ id: 'a9', questionId: 'nope', source: 's', body: 'x' })).toThrow(/question nope is not in the workspace/);
    expect(ws.answerCount()).toBe(2);
    expect([...ws.iterateAnswerBodies()]).toEqual(['moved', 'two']);
    expect(ws.stats().answers).toBe(2);
    // Deleting a question deletes its answers.
    ws.db.prepare(`DELETE FROM questions WHERE id = 'q2'`).run();
    expect(ws.answerCount()).toBe(1);
  });

  it('gives a new answer the position after its question’s highest, and a new question the next doc, also after gaps and re-upserts', () => {
    const d1 = ws.upsertQuestion({ id: 'q1', source: 's', title: 'T' }).doc;
    expect(ws.upsertQuestion({ id: 'q1', source: 's', title: 'T' })).toEqual({ result: 'unchanged', doc: d1 });
    expect(() => ws.upsertQuestion({ id: 'q1', source: 'other', title: 'T' })).toThrow(/already in the workspace from source "s"/);
    expect(ws.upsertQuestion({ id: 'q2', source: 's', title: 'U' }).doc).toBe(d1 + 1);
    ws.db.prepare(`INSERT INTO answers(id, question_id, position, source, body) VALUES ('x', 'q1', 7, 's', 'gap')`).run();
    expect(ws.upsertAnswer({ id: 'a1', questionId: 'q1', source: 's', body: 'one' })).toBe('inserted');
    expect(() => ws.upsertAnswer({ id: 'a1', questionId: 'q1', source: 'other', body: 'one' })).toThrow(/already in the workspace from source "s"/);
    expect(ws.upsertAnswer({ id: 'a2', questionId: 'q2', source: 's', body: 'two' })).toBe('inserted');
    expect(ws.upsertAnswer({ id: 'a3', questionId: 'q1', source: 's', body: 'three' })).toBe('inserted');
    expect(ws.answersOf('q1').map((a) => [a.id, a.position])).toEqual([['x', 7], ['a1', 8], ['a3', 9]]);
    expect(ws.answersOf('q2').map((a) => [a.id, a.position])).toEqual([['a2', 0]]);
  });

  it('counts duplicate pairs unordered', () => {
    expect(ws.addDuplicatePair('a', 'b', 'se')).toBe(true);
    expect(ws.addDuplicatePair('b', 'a', 'se')).toBe(false);
    expect(ws.addDuplicatePair('a', 'b', 'se')).toBe(false);
    expect(ws.addDuplicatePair('a', 'b', 'other')).toBe(true);
    expect(ws.addDuplicatePair('a', 'a', 'se')).toBe(false);
    expect(ws.stats().duplicatePairs).toBe(1);
  });

  it('keeps pool candidates in order and re-adding is idempotent', () => {
    ws.createPool({ name: 'p' });
    expect(ws.addPoolQuery('p', 'q', ['c1', 'c2', 'q', 'c3'])).toBe(3);
    expect(ws.addPoolQuery('p', 'q', ['c1', 'c2', 'c3'])).toBe(0);
    expect(ws.addPoolQuery('p', 'q', ['c4'])).toBe(1);
    expect(ws.poolQueries('p')).toEqual([{ queryId: 'q', candidates: ['c1', 'c2', 'c3', 'c4'] }]);
    expect(() => ws.createPool({ name: 'p' })).toThrow(/already exists/);
    expect(() => ws.pool('nope')).toThrow(/no pool named "nope" \(pools: p\)/);
  });

  it('keeps labels as an append-only history with undo', () => {
    ws.createPool({ name: 'p' });
    ws.addPoolQuery('p', 'q', ['c1', 'c2']);
    const s1 = ws.addLabel({ pool: 'p', queryId: 'q', candidateId: 'c1', annotator: 'ann', value: '1', origin: 'ui' })!;
    expect(ws.addLabel({ pool: 'p', queryId: 'q', candidateId: 'c1', annotator: 'ann', value: '1', origin: 'ui' })).toBeNull();
    const s2 = ws.addLabel({ pool: 'p', queryId: 'q', candidateId: 'c1', annotator: 'ann', value: '0', origin: 'ui' })!;
    expect(ws.currentLabels('p', 'ann')).toMatchObject([{ candidateId: 'c1', value: '0' }]);
    const u = ws.undoLabel(s2);
    expect(u.value).toBe('1');
    expect(ws.currentLabels('p', 'ann')).toMatchObject([{ candidateId: 'c1', value: '1' }]);
    ws.undoLabel(s1);
    expect(ws.currentLabels('p', 'ann')).toEqual([]);
    expect(ws.labelHistory('p').map((h) => h.value)).toEqual([null, '1', '0', '1']);
    expect(() => ws.db.prepare('UPDATE labels SET value = 9').run()).toThrow(/append-only/);
    expect(() => ws.addLabel({ pool: 'p', queryId: 'q', candidateId: 'zz', annotator: 'ann', value: '1', origin: 'ui' })).toThrow(/not in pool/);
    expect(ws.stats()).toMatchObject({ labels: 0, labelEvents: 4 });
  });

  it('stores runs and replaces scores on re-import', () => {
    ws.createPool({ name: 'p' });
    ws.addPoolQuery('p', 'q', ['c1', 'c2']);
    const r = ws.ensureRun('p', 'bm25', 'retriever');
    ws.setRunScore(r, 'q', 'c1', 2);
    ws.setRunScore(r, 'q', 'c1', 3);
    expect(ws.ensureRun('p', 'bm25', 'retriever')).toBe(r);
    expect(ws.runScores(r).get('q')?.get('c1')).toBe(3);
    expect(() => ws.setRunScore(r, 'q', 'c2', Number.NaN)).toThrow(/finite/);
  });

  it('rolls back an async transaction that fails', async () => {
    await expect(
      ws.transactionAsync(async () => {
        ws.upsertQuestion({ id: 'x', source: 's' });
        await new Promise((r) => setTimeout(r, 5));
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(ws.questionCount()).toBe(0);
  });

  it('nests async transactions as savepoints', async () => {
    await ws.transactionAsync(async () => {
      ws.upsertQuestion({ id: 'outer', source: 's' });
      await expect(
        ws.transactionAsync(async () => {
          ws.upsertQuestion({ id: 'inner', source: 's' });
          throw new Error('inner fails');
        }),
      ).rejects.toThrow('inner fails');
      await ws.transactionAsync(async () => void ws.upsertQuestion({ id: 'inner2', source: 's' }));
    });
    expect(ws.getQuestion('outer')).not.toBeNull();
    expect(ws.getQuestion('inner')).toBeNull();
    expect(ws.getQuestion('inner2')).not.toBeNull();
  });
});

describe('run score cache', () => {
  it('rereads scores after writes through this or another connection', () => {
    const p = path.join(dir, 'cache.qpairs');
    const ws = Workspace.create(p);
    ws.createPool({ name: 'p' });
    ws.addPoolQuery('p', 'q', ['a', 'b']);
    const r = ws.ensureRun('p', 'r', 'test');
    ws.setRunScore(r, 'q', 'a', 1);
    const first = ws.runScores(r);
    expect(ws.runScores(r)).toBe(first); // cached
    ws.setRunScore(r, 'q', 'b', 2);
    expect(ws.runScores(r).get('q')?.get('b')).toBe(2);
    const other = Workspace.open(p);
    other.setRunScore(r, 'q', 'a', 5);
    other.close();
    expect(ws.runScores(r).get('q')?.get('a')).toBe(5);
    // A label write does not invalidate it.
    const cached = ws.runScores(r);
    ws.addLabel({ pool: 'p', queryId: 'q', candidateId: 'a', annotator: 'x', value: '1', origin: 't' });
    expect(ws.runScores(r)).toBe(cached);
    ws.close();
  });
});

describe('workspace statistics', () => {
  it('count questions (and those of each source) from an index, never by reading the questions table with its texts', () => {
    // The Workspace screen asks after every label; the count by source read every question row (migration 14).
    const ws = Workspace.create(path.join(dir, 'w.qpairs'));
    ws.transaction(() => {
      for (let i = 0; i < 50; i++) ws.upsertQuestion({ id: `q${i}`, source: i % 3 ? 'se' : 'semeval', title: `t${i}`, body: 'x'.repeat(500) });
    });
    ws.db.exec('ANALYZE');
    const run: string[] = [];
    const stmt = ws.stmt.bind(ws);
    ws.stmt = (sql: string) => (run.push(sql), stmt(sql));
    const s = ws.stats();
    expect(s.sources).toEqual({ se: 33, semeval: 17 });
    expect(s.questions).toBe(50);
    const onQuestions = run.filter((sql) => /\bFROM questions\b/.test(sql));
    expect(onQuestions.length).toBeGreaterThanOrEqual(2);
    for (const sql of onQuestions) {
      const plan = (ws.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>).map((r) => r.detail).join(' | ');
      expect(plan, sql).toMatch(/USING (COVERING )?INDEX/);
    }
    ws.close();
  });

  it('a workspace of one source counts it as the total, without walking the source index to group its questions', () => {
    // At 1M questions of one source the grouping took 56-99 ms of each refresh; the total's count takes 0.3 ms.
    const ws = Workspace.create(path.join(dir, 'one.qpairs'));
    expect(ws.stats().sources).toEqual({});
    ws.transaction(() => {
      for (let i = 0; i < 40; i++) ws.upsertQuestion({ id: `q${i}`, source: 'se', title: `t${i}`, body: 'b' });
    });
    const run: string[] = [];
    const stmt = ws.stmt.bind(ws);
    ws.stmt = (sql: string) => (run.push(sql), stmt(sql));
    const s = ws.stats();
    expect(s.sources).toEqual({ se: 40 });
    expect(s.questions).toBe(40);
    expect(run.filter((sql) => /\bFROM questions\b/.test(sql) && /GROUP BY/.test(sql))).toEqual([]);
    ws.transaction(() => ws.upsertQuestion({ id: 'o1', source: 'other', title: 'o', body: 'b' }));
    expect(ws.stats().sources).toEqual({ other: 1, se: 40 });
    ws.close();
  });
});
