/**
 * Undoing the last finished import (undo-last.ts): the journal of a finished import is kept until the
 * next import begins; the undo puts the workspace back as it was before the import, except rows that
 * later work refers to (kept, counted by table) and rows changed again since (skipped, never written
 * over). It commits in chunks: a cancel leaves it partly undone, saying so, until the next undo carries on;
 * a kill mid-undo is finished by the next writable open.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { CancelledError, QPairsError } from '../errors';
import { copyMidway, tablesChecksum, tempWorkspace } from '../import/test-helpers';
import { useImportScratch } from '../engine/test-engine';
import { importTuning, runImport } from '../engine/work';
import { recoverInterruptedImport, runUndoable } from './undo-journal';
import { finishedUndoNote, NOTHING_TO_UNDO, undoableImport, undoLastImport, undoSummary } from './undo-last';
import { readUndoMarker } from './undo-progress';
import { Workspace } from './workspace';

const scratch = useImportScratch();

/**
 * Every table but the journal's, the imports audit (the undo replaces the import's audit row by its
 * own), change_counts (it only goes up, also for an undo: undo-triggers.ts) and the AUTOINCREMENT
 * counters (an undo leaves them where the import took them: see the label events' numbers below).
 */
const DATA = ['import_journal', 'import_undo', 'imports', 'change_counts', 'sqlite_sequence'];

function write(name: string, lines: string[]): string {
  const f = path.join(scratch.dir, name);
  writeFileSync(f, lines.join('\n') + '\n');
  return f;
}

function questionLines(n: number, prefix: string): string[] {
  return Array.from({ length: n }, (_, i) => JSON.stringify({ id: `${prefix}${i}`, source: 'test', title: `question ${i} about ${prefix}`, body: `body ${'lorem ipsum '.repeat(10)} ${i}` }));
}

const posts = (...rows: string[]): string => `<?xml version="1.0" encoding="utf-8"?>\n<posts>\n${rows.map((r) => `  <row ${r} />\n`).join('')}</posts>\n`;
const seQuestion = (id: number, title: string): string => `Id="${id}" PostTypeId="1" Title="${title}" Body="&lt;p&gt;${title} body&lt;/p&gt;"`;
const seAnswer = (id: number, parent: number): string => `Id="${id}" PostTypeId="2" ParentId="${parent}" Body="&lt;p&gt;answer ${id}&lt;/p&gt;"`;

function seDump(name: string, rows: string[]): string {
  const d = path.join(scratch.dir, name);
  mkdirSync(d, { recursive: true });
  const f = path.join(d, 'Posts.xml');
  writeFileSync(f, posts(...rows));
  return f;
}

/** The pid of a process that has ended. */
const gonePid = (): number => spawnSync(process.execPath, ['-e', '0']).pid!;

/** A workspace holding 200 questions (the first import, which the tests keep). */
async function withQuestions(): Promise<Workspace> {
  const ws = tempWorkspace();
  await runImport(ws, 'questions-jsonl', [write(`base-${Math.random()}.jsonl`, questionLines(200, 'base'))]);
  return ws;
}

describe('undo the last import', () => {
  it('undoes a questions JSONL import (watermarked rows and the BM25 segments), records the undo, and cannot undo it twice', async () => {
    const ws = await withQuestions();
    const before = tablesChecksum(ws, DATA);
    const importsBefore = ws.listImports();
    await runImport(ws, 'questions-jsonl', [write('wrong.jsonl', questionLines(3000, 'wrong'))]);
    expect(ws.questionCount()).toBe(3200);
    expect(undoableImport(ws.db)).toMatchObject({ what: 'questions-jsonl import of wrong.jsonl' });
    // What keeping the journal costs: one range entry per bulk table, and the import's audit row.
    expect(ws.db.prepare(`SELECT count(*) FROM import_undo`).pluck().get()).toBeLessThan(20);

    const r = await undoLastImport(ws);
    expect(r).toMatchObject({ what: 'questions-jsonl import of wrong.jsonl', kept: 0, skipped: 0, failed: 0 });
    expect(r.undone).toBeGreaterThanOrEqual(3000);
    expect(tablesChecksum(ws, DATA)).toBe(before);
    // The audit: the import's row went with it, and the undo is recorded.
    const audit = ws.listImports();
    expect(audit.slice(0, -1)).toEqual(importsBefore);
    expect(audit.at(-1)).toMatchObject({ format: 'undo', files: [expect.stringContaining('wrong.jsonl')], report: { undid: { what: 'questions-jsonl import of wrong.jsonl' } } });
    expect(undoableImport(ws.db)).toBeNull();
    await expect(undoLastImport(ws)).rejects.toThrow(NOTHING_TO_UNDO);
    expect(ws.db.pragma('integrity_check', { simple: true })).toBe('ok');
    ws.close();
  });

  it('undoes a Stack Exchange dump import (questions, answers, duplicate links)', async () => {
    const ws = await withQuestions();
    const before = tablesChecksum(ws, DATA);
    const rows = Array.from({ length: 50 }, (_, i) => seQuestion(i + 1, `stack question ${i}`)).concat(Array.from({ length: 30 }, (_, i) => seAnswer(1000 + i, i + 1)));
    await runImport(ws, 'stackexchange', [seDump('cooking', rows)], { source: 'cooking' });
    expect(ws.stats().answers).toBe(30);
    const r = await undoLastImport(ws);
    expect(r.kept + r.skipped + r.failed).toBe(0);
    expect(tablesChecksum(ws, DATA)).toBe(before);
    ws.close();
  });

  it('undoes a labels import: its pool, pairs, labels and the questions it created', async () => {
    const ws = await withQuestions();
    const before = tablesChecksum(ws, DATA);
    const labels = ['base1', 'base2', 'base3'].map((c) => JSON.stringify({ query_id: 'base0', candidate_id: c, annotator: 'ann', label: '1' }));
    await runImport(ws, 'labels-jsonl', [write('labels.jsonl', labels)], { pool: 'lp', scheme: 'binary' });
    expect(ws.currentLabels('lp')).toHaveLength(3);
    const r = await undoLastImport(ws);
    expect(r.kept + r.skipped + r.failed).toBe(0);
    expect(tablesChecksum(ws, DATA)).toBe(before);
    expect(ws.listPools().map((p) => p.name)).not.toContain('lp');
    ws.close();
  });

  it('label events given after the undo never take the numbers of the undone import\'s events (a live retrain\'s mark, an undo:N origin name them)', async () => {
    const ws = await withQuestions();
    const labelsBy = (annotator: string): string[] => ['base1', 'base2', 'base3'].map((c) => JSON.stringify({ query_id: 'base0', candidate_id: c, annotator, label: '1' }));
    await runImport(ws, 'labels-jsonl', [write('labels-ann.jsonl', labelsBy('ann'))], { pool: 'lp', scheme: 'binary' });
    const kept = ws.db.prepare(`SELECT seq FROM labels ORDER BY seq`).pluck().all() as number[];
    await runImport(ws, 'labels-jsonl', [write('labels-gold.jsonl', labelsBy('gold'))], { pool: 'lp' });
    // Learn as we label then retrained over every event so far: its mark is the newest seq.
    const marked = ws.db.prepare(`SELECT max(seq) FROM labels`).pluck().get() as number;
    await undoLastImport(ws);
    expect(ws.db.prepare(`SELECT seq FROM labels ORDER BY seq`).pluck().all()).toEqual(kept);
    // A label given now is past the mark (before: it took the number of the gold import's first event).
    const next = ws.addLabel({ pool: 'lp', queryId: 'base0', candidateId: 'base2', annotator: 'bob', value: '0', origin: 'app' });
    expect(next).toBeGreaterThan(marked);
    ws.close();
  });

  it('keeps what labels given since refer to, and says so by table', async () => {
    const ws = await withQuestions();
    const labels = ['base1', 'base2'].map((c) => JSON.stringify({ query_id: 'new0', candidate_id: c, annotator: 'ann', label: '1', query_title: 'new query', query_body: 'its body', candidate_title: 't', candidate_body: 'b' }));
    await runImport(ws, 'labels-jsonl', [write('labels-new.jsonl', labels)], { pool: 'lp', scheme: 'binary' });
    expect(ws.getQuestion('new0')).not.toBeNull();
    // Since the import: an annotator labels one of its pairs.
    const seq = ws.addLabel({ pool: 'lp', queryId: 'new0', candidateId: 'base1', annotator: 'bob', value: '0', origin: 'app' });
    const r = await undoLastImport(ws);
    // The label stays, with its pair, its query (a question the import brought) and its pool.
    expect(ws.currentLabels('lp').filter((l) => l.annotator === 'bob')).toEqual([expect.objectContaining({ queryId: 'new0', candidateId: 'base1', value: '0', seq })]);
    expect(ws.currentLabels('lp').filter((l) => l.annotator === 'ann')).toEqual([]);
    expect(ws.poolQueries('lp')).toEqual([{ queryId: 'new0', candidates: ['base1'] }]);
    expect(ws.getQuestion('new0')).not.toBeNull();
    expect(r.keptBy).toMatchObject({ questions: 1, pools: 1 });
    expect(r.kept).toBe(Object.values(r.keptBy).reduce((a, b) => a + b, 0));
    const summary = undoSummary(r);
    expect(summary[1]).toMatch(/^kept .*1 question\b.* that rows written since the import refer to/);
    expect(ws.db.pragma('foreign_key_check')).toEqual([]);
    ws.close();
  });

  it('a model run scored since on a pool the import made goes with the pool (it kept the pool, empty, with scores of pairs gone)', async () => {
    const ws = await withQuestions();
    const before = tablesChecksum(ws, DATA);
    const labels = ['base1', 'base2', 'base3'].map((c) => JSON.stringify({ query_id: 'base0', candidate_id: c, annotator: 'ann', label: '1' }));
    await runImport(ws, 'labels-jsonl', [write('labels-scored.jsonl', labels)], { pool: 'lp', scheme: 'binary' });
    // Since the import: a model scores the pool (as the app does for every pool after a training).
    ws.replaceRun('lp', 'tfidf', 'model', {}, ['base1', 'base2', 'base3'].map((c, i) => ['base0', c, i] as const));
    const r = await undoLastImport(ws);
    expect(ws.listPools().map((p) => p.name)).not.toContain('lp');
    expect(r.kept).toBe(0);
    expect(r.rowsChanged).toMatchObject({ pools: -1, runs: -1 });
    expect(tablesChecksum(ws, DATA)).toBe(before);
    expect(ws.db.pragma('foreign_key_check')).toEqual([]);
    ws.close();
  });

  it('a question kept for a label given since keeps the answers the import brought with it', async () => {
    const ws = await withQuestions();
    const rows = Array.from({ length: 5 }, (_, i) => seQuestion(i + 1, `stack question ${i}`)).concat(Array.from({ length: 6 }, (_, i) => seAnswer(1000 + i, (i % 3) + 1)));
    await runImport(ws, 'stackexchange', [seDump('kept-answers', rows)], { source: 'cooking' });
    const answersOf = (id: string): string[] => ws.db.prepare(`SELECT id FROM answers WHERE question_id = ? ORDER BY id`).pluck().all(id) as string[];
    expect(answersOf('1')).toEqual(['1000', '1003']);
    // Since the import: a pool pairs a base question with question 1, and bob labels the pair.
    ws.createPool({ name: 'since', scheme: 'binary' });
    ws.addPoolQuery('since', 'base0', ['1']);
    ws.addLabel({ pool: 'since', queryId: 'base0', candidateId: '1', annotator: 'bob', value: '1', origin: 'app' });
    const r = await undoLastImport(ws);
    expect(ws.getQuestion('1')).not.toBeNull();
    expect(answersOf('1')).toEqual(['1000', '1003']);
    expect(ws.getQuestion('2')).toBeNull();
    expect(ws.db.prepare(`SELECT count(*) FROM answers WHERE source = 'cooking'`).pluck().get()).toBe(2);
    expect(r.keptBy).toEqual({ questions: 1, answers: 2 });
    expect(undoSummary(r)[1]).toMatch(/^kept 2 answers or comments, 1 question that .*; the answers it brought to questions labeled, or put in a pool made, since it began stay, so that those questions read as they were judged\)$/);
    expect(ws.db.pragma('foreign_key_check')).toEqual([]);
    ws.close();
  });

  it('the answers an import added to questions pooled before it go with it, unless the question was labeled since (kept, and reported)', async () => {
    const ws = await withQuestions();
    await runImport(ws, 'stackexchange', [seDump('first', [1, 2, 3].map((i) => seQuestion(i, `stack question ${i}`)))], { source: 'cooking' });
    // Before the second import: a pool pairs base0 with questions 1, 2 and 3, and bob labels (base0, 1).
    ws.createPool({ name: 'before', scheme: 'binary' });
    ws.addPoolQuery('before', 'base0', ['1', '2', '3']);
    ws.addLabel({ pool: 'before', queryId: 'base0', candidateId: '1', annotator: 'bob', value: '1', origin: 'app' });
    const answersOf = (id: string): string[] => ws.db.prepare(`SELECT id FROM answers WHERE question_id = ? ORDER BY id`).pluck().all(id) as string[];
    // The same dump again, now with answers: only answers are new (two each to questions 1, 2, 3).
    const withAnswers = (name: string): string =>
      seDump(name, [1, 2, 3].map((i) => seQuestion(i, `stack question ${i}`)).concat(Array.from({ length: 6 }, (_, i) => seAnswer(1000 + i, (i % 3) + 1))));
    const copy = path.join(scratch.dir, 'answers-copy.qpairs');
    await runImport(ws, 'stackexchange', [withAnswers('second')], { source: 'cooking' });
    expect(answersOf('1')).toEqual(['1000', '1003']);
    ws.db.exec(`VACUUM INTO '${copy.replace(/'/g, "''")}'`);
    const copy2 = path.join(scratch.dir, 'answers-copy-2.qpairs');
    ws.db.exec(`VACUUM INTO '${copy2.replace(/'/g, "''")}'`);

    // No label since: every answer the import added goes (before, all six stayed, counted kept).
    const r = await undoLastImport(ws);
    expect(ws.stats().answers).toBe(0);
    expect(r.kept).toBe(0);
    expect(undoSummary(r)).toHaveLength(1);
    ws.close();

    // A label since on (base0, 2): question 2's answers stay; question 1 (labeled before it only) and 3 lose theirs.
    const labeled = Workspace.open(copy);
    labeled.addLabel({ pool: 'before', queryId: 'base0', candidateId: '2', annotator: 'bob', value: '0', origin: 'app' });
    const k = await undoLastImport(labeled);
    expect(labeled.db.prepare(`SELECT question_id, id FROM answers ORDER BY id`).all()).toEqual([
      { question_id: '2', id: '1001' },
      { question_id: '2', id: '1004' },
    ]);
    expect(k.keptBy).toEqual({ answers: 2 });
    expect(undoSummary(k)[1]).toMatch(/^kept 2 answers or comments that rows written since the import refer to \(.*the answers it brought to questions labeled, or put in a pool made, since it began stay/);
    expect(labeled.db.pragma('foreign_key_check')).toEqual([]);
    labeled.close();

    // A pool made since that names question 3, unlabeled: question 3's answers stay too (made on it as it read then).
    const pooled = Workspace.open(copy2);
    pooled.createPool({ name: 'since', scheme: 'binary' });
    pooled.addPoolQuery('since', 'base1', ['3']);
    const p = await undoLastImport(pooled);
    expect(pooled.db.prepare(`SELECT id FROM answers ORDER BY id`).pluck().all()).toEqual(['1002', '1005']);
    expect(p.keptBy).toEqual({ answers: 2 });
    pooled.close();
  });

  it('tells a pool made since the import by its id, not its creation time: a clock set back or ahead does not misplace it', async () => {
    const ws = await withQuestions();
    await runImport(ws, 'stackexchange', [seDump('first', [1, 2, 3].map((i) => seQuestion(i, `stack question ${i}`)))], { source: 'cooking' });
    ws.createPool({ name: 'before', scheme: 'binary' });
    ws.addPoolQuery('before', 'base0', ['1', '2', '3']);
    const withAnswers = seDump('second', [1, 2, 3].map((i) => seQuestion(i, `stack question ${i}`)).concat(Array.from({ length: 6 }, (_, i) => seAnswer(1000 + i, (i % 3) + 1))));
    await runImport(ws, 'stackexchange', [withAnswers], { source: 'cooking' });
    const started = ws.db.prepare(`SELECT started FROM import_journal`).pluck().get() as string;
    // The largest pool id when the import began is in its header (the pool 'before').
    expect(JSON.parse(ws.db.prepare(`SELECT seqs FROM import_journal`).pluck().get() as string)).toMatchObject({ 'max(pools.id)': ws.pool('before')!.id });
    const oldHeader = path.join(scratch.dir, 'old-header.qpairs');
    ws.db.exec(`VACUUM INTO '${oldHeader.replace(/'/g, "''")}'`);

    // The pool 'before' was made when the clock ran ahead (its time is after the import's start); the pool 'since',
    // made after the import, when it had been set back (its time is before). Only question 3, in 'since', keeps its answers.
    ws.createPool({ name: 'since', scheme: 'binary' });
    ws.addPoolQuery('since', 'base1', ['3']);
    ws.db.prepare(`UPDATE pools SET created = ? WHERE name = ?`).run('2999-01-01T00:00:00.000Z', 'before');
    ws.db.prepare(`UPDATE pools SET created = ? WHERE name = ?`).run('2000-01-01T00:00:00.000Z', 'since');
    expect(started > '2000-01-01' && started < '2999-01-01').toBe(true);
    const r = await undoLastImport(ws);
    expect(ws.db.prepare(`SELECT id FROM answers ORDER BY id`).pluck().all()).toEqual(['1002', '1005']);
    expect(r.keptBy).toEqual({ answers: 2 });
    // The mark is no AUTOINCREMENT counter: the undo put none of it in sqlite_sequence.
    expect(ws.db.prepare(`SELECT count(*) FROM sqlite_sequence WHERE name NOT IN (SELECT name FROM sqlite_schema)`).pluck().get()).toBe(0);
    expect(ws.db.pragma('foreign_key_check')).toEqual([]);
    ws.close();

    // A header written before the mark was kept: a pool made since is told by its creation time, as before.
    const old = Workspace.open(oldHeader);
    old.db.exec(`UPDATE import_journal SET seqs = json_remove(seqs, '$."max(pools.id)"')`);
    expect(old.db.prepare(`SELECT seqs FROM import_journal`).pluck().get()).not.toContain('pools');
    old.createPool({ name: 'since', scheme: 'binary' });
    old.addPoolQuery('since', 'base1', ['3']);
    const o = await undoLastImport(old);
    expect(old.db.prepare(`SELECT id FROM answers ORDER BY id`).pluck().all()).toEqual(['1002', '1005']);
    expect(o.keptBy).toEqual({ answers: 2 });
    old.close();
  });

  it('writes back the old texts of an --update import, but skips a question changed again since (its later text stays)', async () => {
    const ws = await withQuestions();
    const before = tablesChecksum(ws, DATA);
    const rewritten = Array.from({ length: 20 }, (_, i) => JSON.stringify({ id: `base${i}`, source: 'test', title: `rewritten ${i}`, body: 'rewritten body' }));
    const report = await runImport(ws, 'questions-jsonl', [write('rewrite.jsonl', rewritten)], { update: true });
    expect(report.counts.questionsUpdated).toBe(20);

    // Undone as a whole when nothing changed since (a copy of the workspace).
    const copy = path.join(scratch.dir, 'update-copy.qpairs');
    ws.db.exec(`VACUUM INTO '${copy.replace(/'/g, "''")}'`);
    const clean = Workspace.open(copy);
    const whole = await undoLastImport(clean);
    expect(whole.skipped).toBe(0);
    expect(tablesChecksum(clean, DATA)).toBe(before);
    clean.close();

    // Since the import, another writer changes base3's title.
    ws.db.prepare(`UPDATE questions SET title = 'edited since' WHERE id = 'base3'`).run();
    const r = await undoLastImport(ws);
    expect(r.skippedBy).toEqual({ questions: 1 });
    expect(ws.getQuestion('base3')?.title).toBe('edited since');
    expect(ws.getQuestion('base4')?.title).toBe('question 4 about base');
    expect(undoSummary(r)).toContain('skipped 1 question changed again since the import: their later values stay');
    ws.close();
  });

  it('undoes in chunks, each its own transaction, giving the write gate up between them: a label given between two chunks is acknowledged then', async () => {
    const ws = await withQuestions();
    const before = tablesChecksum(ws, DATA);
    await runImport(ws, 'questions-jsonl', [write('chunked.jsonl', questionLines(20000, 'chunk'))]);
    const other = Workspace.open(ws.path); // the app's connection, which writes labels
    other.createPool({ name: 'p', depth: 2 });
    other.addPoolQuery('p', 'base0', ['base1', 'base2']);
    let held = false;
    const labeled: Array<number | null> = [];
    const turns = {
      acquire: async () => {
        held = true;
      },
      release: () => {
        held = false;
        // Between two chunks: another connection writes (it would wait for the whole undo in one transaction).
        if (labeled.length < 3) labeled.push(other.addLabel({ pool: 'p', queryId: 'base0', candidateId: 'base1', annotator: 'bob', value: String(labeled.length % 2), origin: 'app' }));
      },
      contended: true,
    };
    const r = await undoLastImport(ws, { turns, chunkMs: 1, onProgress: () => expect(held).toBe(true) });
    expect(labeled).toHaveLength(3); // three chunks at least, each committed before the next
    expect(r.rowsChanged).toEqual({ questions: -20000 }); // the labels given meanwhile are not the undo's doing
    expect(other.currentLabels('p').map((l) => l.seq)).toEqual([labeled[2]]);
    other.db.exec(`DELETE FROM labels; DELETE FROM annotators WHERE name = 'bob'; DELETE FROM pools WHERE name = 'p'`);
    expect(tablesChecksum(other, DATA)).toBe(before);
    other.close();
    ws.close();
  });

  it('a label given between two chunks on a pair the import made keeps the pair, its pool and its questions, as one given before the undo', async () => {
    const ws = await withQuestions();
    const labels = Array.from({ length: 300 }, (_, i) => JSON.stringify({ query_id: `new${i % 30}`, candidate_id: `base${i}`, annotator: 'ann', label: '1', query_title: `new query ${i % 30}`, query_body: 'its body' }));
    await runImport(ws, 'labels-jsonl', [write('labels-mid.jsonl', labels)], { pool: 'lp', scheme: 'binary' });
    const other = Workspace.open(ws.path);
    let given: { q: string; c: string; seq: number | null } | null = null;
    const turns = {
      acquire: async () => {},
      release: () => {
        if (given) return;
        // A pair of the import's pool that the undo has not taken out yet.
        const pair = other.db.prepare(`SELECT query_id AS q, candidate_id AS c FROM pool_candidates ORDER BY query_id, candidate_id LIMIT 1`).get() as { q: string; c: string } | undefined;
        if (!pair) return;
        given = { ...pair, seq: other.addLabel({ pool: 'lp', queryId: pair.q, candidateId: pair.c, annotator: 'bob', value: '0', origin: 'app' }) };
      },
      contended: true,
    };
    const r = await undoLastImport(ws, { turns, chunkMs: 1 });
    expect(given).not.toBeNull();
    const g = given!;
    expect(ws.currentLabels('lp')).toEqual([expect.objectContaining({ annotator: 'bob', queryId: g.q, candidateId: g.c, value: '0', seq: g.seq })]);
    expect(ws.poolQueries('lp')).toEqual([{ queryId: g.q, candidates: [g.c] }]);
    expect(ws.getQuestion(g.q)).not.toBeNull();
    expect(r.keptBy).toMatchObject({ questions: 1, pools: 1 });
    expect(r.rowsChanged.labels).toBe(-300); // the import's label events; bob's is not counted
    expect(ws.db.pragma('foreign_key_check')).toEqual([]);
    other.close();
    ws.close();
  });

  it('a cancel stops between chunks: the workspace says the import is partly undone, an import is refused until it is finished, and the next undo carries on to the same end', async () => {
    const ws = await withQuestions();
    const before = tablesChecksum(ws, DATA);
    await runImport(ws, 'questions-jsonl', [write('big.jsonl', questionLines(20000, 'big'))]);
    const ac = new AbortController();
    const err = await undoLastImport(ws, {
      signal: ac.signal,
      chunkMs: 1,
      onProgress: (done, total) => {
        // Once some of the import's questions are out (the index's documents go first), and before the end.
        if (done < total && ws.questionCount() < 20200) ac.abort();
      },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CancelledError);
    expect((err as Error).message).toMatch(/the undo stopped partway \([\d,]+ of [\d,]+ rows and journal entries done\): the import is partly undone until the undo is run again/);
    const left = ws.questionCount();
    expect(left).toBeGreaterThan(200);
    expect(left).toBeLessThan(20200); // partly undone
    expect(readUndoMarker(ws.db)).toMatchObject({ what: 'questions-jsonl import of big.jsonl' });
    expect(undoableImport(ws.db)).toMatchObject({ what: 'questions-jsonl import of big.jsonl' });
    // An import now would run over a half-undone journal: refused, saying why.
    await expect(runImport(ws, 'questions-jsonl', [write('after.jsonl', questionLines(3, 'after'))])).rejects.toThrow(
      /the undo of the questions-jsonl import of big\.jsonl started \S+ stopped partway and that import is partly undone: undo the last import again to finish it, then import/,
    );
    const r = await undoLastImport(ws);
    expect(r.rowsChanged).toEqual({ questions: -20000 }); // the whole undo's, both runs
    expect(readUndoMarker(ws.db)).toBeNull();
    expect(tablesChecksum(ws, DATA)).toBe(before);
    expect(undoableImport(ws.db)).toBeNull();
    ws.close();
  });

  it('a chunk that fails rolls back alone: the error says the import is partly undone, and the next undo carries on to the same end', async () => {
    const ws = await withQuestions();
    const before = tablesChecksum(ws, DATA);
    await runImport(ws, 'questions-jsonl', [write('failing.jsonl', questionLines(20000, 'fail'))]);
    let chunks = 0;
    const turns = {
      acquire: async () => {},
      // After the first chunk: the next one fails as it records its progress (a disk error, say).
      release: () => {
        if (++chunks === 1) ws.db.exec(`CREATE TEMP TRIGGER qa_fail BEFORE UPDATE ON main.import_undo_progress BEGIN SELECT RAISE(ABORT, 'disk trouble'); END`);
      },
      contended: false,
    };
    const err = (await undoLastImport(ws, { turns, chunkMs: 1 }).catch((e: unknown) => e)) as Error;
    expect(err.message).toMatch(/^disk trouble \(the undo stopped partway \([\d,]+ of [\d,]+ rows and journal entries done\): the import is partly undone until the undo is run again, which carries on where it stopped\)$/);
    ws.db.exec(`DROP TRIGGER temp.qa_fail`);
    expect(undoableImport(ws.db)).toMatchObject({ what: 'questions-jsonl import of failing.jsonl', partlyUndone: true });
    const r = await undoLastImport(ws);
    expect(r.rowsChanged).toEqual({ questions: -20000 });
    expect(tablesChecksum(ws, DATA)).toBe(before);
    ws.close();
  });

  it('a process killed mid-undo: the next writable open finishes the undo and says so', async () => {
    const ws = await withQuestions();
    const before = tablesChecksum(ws, DATA);
    await runImport(ws, 'questions-jsonl', [write('killed.jsonl', questionLines(20000, 'kill'))]);
    const crashed = path.join(scratch.dir, 'undo-crashed.qpairs');
    // Between two chunks (the copy is what a kill leaves: the chunks committed so far).
    const kill = copyMidway(ws, crashed, (done, total) => done > 0 && done < total, { abort: true });
    await undoLastImport(ws, { ...kill, chunkMs: 1 }).catch(() => undefined);
    expect(kill.copied()).toBe(true);
    const raw = new Database(crashed);
    const marker = JSON.parse(raw.prepare(`SELECT marker FROM import_undo_progress WHERE id = 1`).pluck().get() as string) as { pid: number };
    raw.prepare(`UPDATE import_undo_progress SET marker = json_set(marker, '$.pid', ?) WHERE id = 1`).run(gonePid()); // its process is gone
    raw.close();
    expect(marker.pid).toBe(process.pid);
    // A read-only open cannot finish it: it says the import is partly undone.
    const reader = Workspace.open(crashed, { readonly: true });
    expect(reader.openNotices()).toContainEqual({
      kind: 'undo-partway',
      message: expect.stringMatching(/^The questions-jsonl import of killed\.jsonl started \S+ is partly undone: its undo stopped partway, and undoing the last import again finishes it \([\d,]+ of [\d,]+ rows and journal entries done\); what is read here includes what is left of it\.$/),
    });
    reader.close();
    const reopened = Workspace.open(crashed);
    expect(reopened.finishedUndo).toMatchObject({ what: 'questions-jsonl import of killed.jsonl', rowsChanged: { questions: -20000 } });
    expect(finishedUndoNote(reopened.finishedUndo!)).toMatch(
      /^note: finished undoing the questions-jsonl import of killed\.jsonl started \S+, whose undo was interrupted \(its process is gone\): undid the .*took out 20,000 questions/,
    );
    expect(reopened.openNotices()).toContainEqual({ kind: 'undo-finished', message: expect.stringMatching(/^Finished undoing the questions-jsonl import of killed\.jsonl/) });
    expect(tablesChecksum(reopened, DATA)).toBe(before);
    expect(undoableImport(reopened.db)).toBeNull();
    reopened.close();
    ws.close();
  });

  it('a large kept journal stays under the next import, and the import after that clears it in batches, giving the write gate up between them (labels go first)', async () => {
    const ws = await withQuestions();
    // A kept journal as a large labels or run import leaves it: a row per label or score.
    const add = ws.db.prepare(`INSERT INTO import_undo(tbl, op, rkey) VALUES ('run_scores', 'i', ?)`);
    ws.db.transaction(() => {
      for (let i = 0; i < 100_000; i++) add.run(`"run_id"=1 AND "query_id"='q${i % 100}' AND "candidate_id"='c${i}'`);
    })();
    expect(undoableImport(ws.db)).not.toBeNull();
    const keptEntries = (): unknown => ws.db.prepare(`SELECT count(*) FROM import_undo WHERE tbl = 'run_scores'`).pluck().get();
    // The next import runs over it (it is put back if that import fails): nothing cleared yet.
    await runUndoable(ws, { what: 'next import' }, async () => {
      expect(keptEntries()).toBe(100_000);
      ws.upsertQuestion({ id: 'next1', source: 'next', title: 'next', body: 'next' });
    });
    expect(undoableImport(ws.db)).toMatchObject({ what: 'next import' });
    let held = false;
    let releasedBeforeWriting = 0;
    const turns = {
      acquire: async () => {
        held = true;
      },
      release: () => {
        held = false;
        releasedBeforeWriting++;
      },
      contended: true,
    };
    const atFirstWrite = await runUndoable(ws, { what: 'import after that', turns }, async () => {
      expect(held).toBe(true);
      expect(keptEntries()).toBe(0);
      return releasedBeforeWriting;
    });
    expect(atFirstWrite).toBeGreaterThan(1); // the clear gave the gate up between its batches
    ws.close();
  });

  it('an import that fails or is cancelled leaves the import before it undoable: the same import, undone exactly', async () => {
    const ws = await withQuestions();
    const beforeOne = tablesChecksum(ws, DATA);
    await runImport(ws, 'questions-jsonl', [write('one.jsonl', questionLines(50, 'one'))]);
    const one = undoableImport(ws.db)!;
    expect(one.what).toBe('questions-jsonl import of one.jsonl');
    const withOne = tablesChecksum(ws, DATA);
    // Refused halfway through a bad file: it had written 300 questions (and changed one of one.jsonl's texts).
    const bad = write('bad.jsonl', [...questionLines(300, 'bad'), JSON.stringify({ id: 'one3', source: 'test', title: 'changed', body: 'changed' }), '{not json']);
    await expect(runImport(ws, 'questions-jsonl', [bad], { update: true })).rejects.toThrow(/bad\.jsonl/);
    expect(undoableImport(ws.db)).toEqual(one);
    // Cancelled after its first committed chunks.
    importTuning.chunkMs = 0;
    const ac = new AbortController();
    let progressed = 0;
    await expect(
      runImport(ws, 'questions-jsonl', [write('big.jsonl', questionLines(20000, 'big'))], { signal: ac.signal, onProgress: () => ++progressed === 3 && ac.abort() }),
    ).rejects.toBeInstanceOf(CancelledError);
    expect(progressed).toBeGreaterThanOrEqual(3);
    expect(undoableImport(ws.db)).toEqual(one);
    expect(tablesChecksum(ws, DATA)).toBe(withOne);
    await undoLastImport(ws, { started: one.started });
    expect(tablesChecksum(ws, DATA)).toBe(beforeOne);
    ws.close();
  });

  it('an import that changed nothing leaves the import before it as the one to undo; with none kept, nothing to undo', async () => {
    const ws = await withQuestions();
    await runImport(ws, 'questions-jsonl', [write('one.jsonl', questionLines(10, 'one'))]);
    const beforeTwo = tablesChecksum(ws, DATA);
    const twoFile = write('two.jsonl', questionLines(10, 'two'));
    await runImport(ws, 'questions-jsonl', [twoFile]);
    const two = undoableImport(ws.db)!;
    const again = await runImport(ws, 'questions-jsonl', [twoFile]);
    expect(again.unchanged).toBe(true);
    expect(undoableImport(ws.db)).toEqual(two);
    const undone = await undoLastImport(ws, { started: two.started });
    expect(undone.rowsChanged).toEqual({ questions: -10 });
    expect(tablesChecksum(ws, DATA)).toBe(beforeTwo);
    // Nothing kept now: re-importing one.jsonl, which changes nothing, leaves nothing to undo (not an undo that undoes nothing).
    const once = await runImport(ws, 'questions-jsonl', [path.join(scratch.dir, 'one.jsonl')]);
    expect(once.unchanged).toBe(true);
    expect(undoableImport(ws.db)).toBeNull();
    expect(ws.db.prepare(`SELECT (SELECT count(*) FROM import_undo) + (SELECT count(*) FROM import_journal)`).pluck().get()).toBe(0);
    ws.close();
  });

  it('an import killed over the kept journal: the next open undoes it and the import before is the one to undo again', async () => {
    const ws = await withQuestions();
    const beforeOne = tablesChecksum(ws, DATA);
    await runImport(ws, 'questions-jsonl', [write('one.jsonl', questionLines(50, 'one'))]);
    const one = undoableImport(ws.db)!;
    const crashed = path.join(scratch.dir, 'import-crashed.qpairs');
    importTuning.chunkMs = 0;
    // Mid-import, after chunks of it committed.
    const kill = copyMidway(ws, crashed, () => (ws.db.prepare(`SELECT count(*) FROM questions WHERE id GLOB 'k2*'`).pluck().get() as number) > 0, { abort: true }); // "kill"
    await runImport(ws, 'questions-jsonl', [write('killed2.jsonl', questionLines(20000, 'k2'))], kill).catch(() => undefined);
    expect(kill.copied()).toBe(true);
    const raw = new Database(crashed);
    expect(raw.prepare(`SELECT state FROM import_journal`).pluck().get()).toBe('running');
    expect(raw.prepare(`SELECT count(*) FROM questions WHERE id GLOB 'k2*'`).pluck().get()).toBeGreaterThan(0);
    raw.prepare(`UPDATE import_journal SET pid = ?`).run(gonePid()); // its process is gone
    raw.close();
    const reopened = Workspace.open(crashed);
    try {
      expect(reopened.recoveredWrite).toMatchObject({ what: 'questions-jsonl import of killed2.jsonl' });
      expect(reopened.db.prepare(`SELECT count(*) FROM questions WHERE id GLOB 'k2*'`).pluck().get()).toBe(0);
      expect(undoableImport(reopened.db)).toEqual(one);
      await undoLastImport(reopened);
      expect(tablesChecksum(reopened, DATA)).toBe(beforeOne);
    } finally {
      reopened.close();
      ws.close();
    }
  });

  it('the next import replaces the kept journal; a journal a crash left half cleared is cleared at open, never undone', async () => {
    const ws = await withQuestions();
    await runImport(ws, 'questions-jsonl', [write('one.jsonl', questionLines(10, 'one'))]);
    const beforeTwo = tablesChecksum(ws, DATA);
    await runImport(ws, 'questions-jsonl', [write('two.jsonl', questionLines(10, 'two'))]);
    expect(undoableImport(ws.db)).toMatchObject({ what: 'questions-jsonl import of two.jsonl' });
    await undoLastImport(ws);
    expect(tablesChecksum(ws, DATA)).toBe(beforeTwo); // one.jsonl's questions stay
    expect(ws.getQuestion('one3')).not.toBeNull();

    // Half cleared: its oldest entries (the range entries) gone, as a clear a crash interrupted leaves it.
    await runImport(ws, 'questions-jsonl', [write('three.jsonl', questionLines(10, 'three'))]);
    ws.db.exec(`DELETE FROM import_undo WHERE seq = (SELECT min(seq) FROM import_undo)`);
    expect(undoableImport(ws.db)).toBeNull();
    ws.db.prepare(`UPDATE import_journal SET pid = ?`).run(gonePid());
    expect(recoverInterruptedImport(ws.db)).toMatchObject({ committed: true });
    expect(ws.db.prepare(`SELECT (SELECT count(*) FROM import_undo) + (SELECT count(*) FROM import_journal)`).pluck().get()).toBe(0);
    expect(ws.getQuestion('three3')).not.toBeNull();
    await expect(undoLastImport(ws)).rejects.toBeInstanceOf(QPairsError);
    ws.close();
  });
});
