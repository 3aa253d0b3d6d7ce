/**
 * Chunked imports stay undoable: an import that fails (or is cancelled, or dies) after some of its
 * chunks were committed leaves every table exactly as it was — rows, rowids, AUTOINCREMENT
 * counters, the BM25 segments — except rows that labels written meanwhile by others refer to.
 * The imports here commit at every chunk boundary (chunkMs 0) so that many chunks are on disk.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { CancelledError, QPairsError } from '../errors';
import { importFiles } from '../import';
import { copyMidway, pastHalfCommitted, tablesChecksum, tempWorkspace } from '../import/test-helpers';
import { useImportScratch } from '../engine/test-engine';
import { importTuning, runImport } from '../engine/work';
import { Bm25Index } from '../bm25';
import { dataset } from '../../../tests/datasets';
import { keptImport, recoverInterruptedImport, runUndoable, unrecoveredNote, WATERMARKED_TABLES, type ChunkPoint, type WriteTurns } from './undo-journal';
import { Workspace } from './workspace';

const scratch = useImportScratch();

function write(name: string, lines: string[]): string {
  const f = path.join(scratch.dir, name);
  writeFileSync(f, lines.join('\n') + '\n');
  return f;
}

/** n questions of about 300 bytes: several 64 KB reads, so several chunks. */
function questionLines(n: number, prefix: string, source?: string): string[] {
  return Array.from({ length: n }, (_, i) =>
    JSON.stringify({ id: `${prefix}${i}`, ...(source ? { source } : {}), title: `question ${i} about ${prefix} ${i % 17}`, body: `body ${'lorem ipsum dolor '.repeat(14)} ${i}` }),
  );
}

/**
 * The journal tables: a finished import keeps its journal (for `import undo`), and an import that
 * fails puts it back as it was (with what earlier imports left below it cleared first).
 */
const JOURNAL = ['import_journal', 'import_undo'];

/** Nothing left of a running or failed import: no journal, or the last finished import's, kept whole. */
function journalEmpty(ws: Workspace): boolean {
  if (keptImport(ws.db)) return true;
  return ws.db.prepare(`SELECT (SELECT count(*) FROM import_undo) + (SELECT count(*) FROM import_journal)`).pluck().get() === 0;
}

/** A workspace with some of everything: questions and answers, a graded pool with labels and a run, pairs, an index. */
async function seeded(): Promise<Workspace> {
  const ws = tempWorkspace();
  await runImport(ws, 'semeval', [dataset('semeval2016-task3/SemEval2016-Task3-CQA-QL-dev.xml')], { pool: 'dev' });
  await runImport(ws, 'askubuntu-pool', [dataset('askubuntu/dev.txt')], { pool: 'au' });
  ws.addLabel({ pool: 'au', queryId: ws.poolQueries('au')[0]!.queryId, candidateId: ws.poolQueries('au')[0]!.candidates[0]!, annotator: 'alice', value: '1', origin: 'test' });
  return ws;
}

/** Runs an import with a chunk committed at every boundary; `watch` sees the committed state between chunks. */
function chunked<T>(ws: Workspace, fn: (chunks: ChunkPoint) => Promise<T>, turns?: WriteTurns): Promise<T> {
  return runUndoable(ws, { what: 'test import', chunkMs: 0, contendedMs: 0, turns }, fn);
}

describe('chunked imports', () => {
  it('commits in chunks that readers see, and a failure at the end undoes all of them (inserts and updates)', async () => {
    const ws = await seeded();
    const before = tablesChecksum(ws, JOURNAL);
    const nBefore = ws.questionCount();
    const reader = Workspace.open(ws.path);
    let seen = 0;
    // Good questions, then new text for 40 of the workspace's SemEval questions, then a broken line.
    const semevalIds = ws.db.prepare(`SELECT id FROM questions WHERE source = 'semeval' ORDER BY doc LIMIT 40`).pluck().all() as string[];
    const lines = [
      ...questionLines(3000, 'new'),
      ...semevalIds.map((id) => JSON.stringify({ id, source: 'semeval', title: 'rewritten', body: 'rewritten body' })),
      ...questionLines(1000, 'more'),
      '{"id": "broken", "title": ',
    ];
    const file = write('fails-at-the-end.jsonl', lines);
    const err = await chunked(ws, () =>
      importFiles(ws, 'questions-jsonl', [file], {
        progressIntervalMs: 0,
        update: true, // issue 23: rewriting pooled, labeled questions needs --update (and records their old texts)
        onProgress: () => {
          seen = Math.max(seen, reader.questionCount() - nBefore);
        },
      }),
    ).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(QPairsError);
    expect((err as Error).message).toMatch(/fails-at-the-end\.jsonl, line 4041: invalid JSON/);
    expect(seen).toBeGreaterThan(1000); // chunks were committed (and visible) before the failure
    expect(tablesChecksum(ws, JOURNAL)).toBe(before);
    expect(tablesChecksum(reader, JOURNAL)).toBe(before);
    expect(journalEmpty(ws)).toBe(true);
    expect(ws.db.pragma('integrity_check', { simple: true })).toBe('ok');
    reader.close();
    ws.close();
  });

  it('undoes pools, WITHOUT ROWID pairs and run scores, generated-column pairs and replaced runs', async () => {
    const ws = await seeded();
    const before = tablesChecksum(ws, JOURNAL);
    // askubuntu-pool into the existing pool "au": the run bm25-lucene is replaced (its old scores deleted), labels appended.
    const au = ws.poolQueries('au');
    const pool = au.map((q, i) => `${q.queryId}\t${q.candidates[i % 3]}\t${q.candidates.join(' ')}\t${q.candidates.map((_, j) => (40 - j + i / 1000).toFixed(3)).join(' ')}`);
    const extra = Array.from({ length: 400 }, (_, i) => `x${i}\tx${i}c1\t${Array.from({ length: 20 }, (_, j) => `x${i}c${j}`).join(' ')}\t${Array.from({ length: 20 }, (_, j) => (20 - j).toString()).join(' ')}`);
    const bad = write('pool-bad.txt', [...pool, ...extra, 'x-last\tonly two fields']);
    await expect(chunked(ws, () => importFiles(ws, 'askubuntu-pool', [bad], { pool: 'au' }))).rejects.toThrow(
      new RegExp(`pool-bad\\.txt, line ${au.length + 401}: expected 4 tab-separated fields`),
    );
    expect(tablesChecksum(ws, JOURNAL)).toBe(before);
    // askubuntu-pairs: duplicate_pairs has generated columns (lo, hi).
    const pairs = write('pairs-bad.txt', [...Array.from({ length: 5000 }, (_, i) => `p${i}\tp${i + 1} p${i + 2}\tn${i} n${i + 1}`), 'bad line with no tabs at all\tx\ty\tz']);
    await expect(chunked(ws, () => importFiles(ws, 'askubuntu-pairs', [pairs]))).rejects.toThrow(/pairs-bad\.txt, line 5001/);
    expect(tablesChecksum(ws, JOURNAL)).toBe(before);
    expect(journalEmpty(ws)).toBe(true);
    ws.close();
  });

  it('an undone import that made a pool leaves the run-visibility change count higher, never put back (migration 16)', async () => {
    const ws = await seeded();
    const count = (): number => ws.db.prepare(`SELECT n FROM change_counts WHERE what = 'run_visibility'`).pluck().get() as number;
    const before = tablesChecksum(ws, [...JOURNAL, 'change_counts']);
    const n0 = count();
    const extra = Array.from({ length: 400 }, (_, i) => `y${i}\ty${i}c1\t${Array.from({ length: 20 }, (_, j) => `y${i}c${j}`).join(' ')}\t${Array.from({ length: 20 }, (_, j) => (20 - j).toString()).join(' ')}`);
    const bad = write('new-pool-bad.txt', [...extra, 'y-last\tonly two fields']);
    await expect(chunked(ws, () => importFiles(ws, 'askubuntu-pool', [bad], { pool: 'nu' }))).rejects.toThrow(/expected 4 tab-separated fields/);
    expect(ws.listPools().map((p) => p.name)).not.toContain('nu');
    expect(tablesChecksum(ws, [...JOURNAL, 'change_counts'])).toBe(before);
    // Made, then deleted by the undo: two changes, neither taken back.
    expect(count()).toBeGreaterThanOrEqual(n0 + 2);
    ws.close();
  });

  it('runImport: a cancel while indexing undoes the questions and the BM25 segments; re-importing adds nothing', async () => {
    const ws = await seeded();
    const before = tablesChecksum(ws, JOURNAL);
    const segs = (): number => ws.db.prepare(`SELECT count(*) FROM bm25_segments`).pluck().get() as number;
    const segsBefore = segs();
    const file = write('to-index.jsonl', questionLines(10000, 'ix'));
    importTuning.chunkMs = 0;
    const ac = new AbortController();
    let appended = 0;
    // Questions are indexed as they are read (a segment every 8192): cancel once one is stored mid-import.
    const run = runImport(ws, 'questions-jsonl', [file], {
      signal: ac.signal,
      onProgress: () => {
        appended = segs() - segsBefore;
        if (appended > 0) ac.abort();
      },
    });
    await expect(run).rejects.toBeInstanceOf(CancelledError);
    expect(appended).toBeGreaterThan(0);
    expect(tablesChecksum(ws, JOURNAL)).toBe(before);

    const first = await runImport(ws, 'questions-jsonl', [file]);
    expect(first.counts.questionsInserted).toBe(10000);
    const segments = ws.db.prepare(`SELECT count(*) FROM bm25_segments`).pluck().get() as number;
    expect(segments).toBeLessThan(12); // segments of 8192 questions, small trailing ones merged as they pile up
    const idx = Bm25Index.load(ws.db);
    expect(idx.stats.docs).toBe(ws.questionCount());
    expect(idx.search('question 7 about ix 12', 5)[0]).toBeDefined();
    const data = tablesChecksum(ws, [...JOURNAL, 'imports']);
    const again = await runImport(ws, 'questions-jsonl', [file]);
    expect(again.counts).toEqual({ questionsUnchanged: 10000 });
    expect(tablesChecksum(ws, [...JOURNAL, 'imports'])).toBe(data);
    expect(journalEmpty(ws)).toBe(true);
    ws.close();
  });

  it('runImport: a cancel after the small segments were merged undoes the merge too, also for re-indexed questions', async () => {
    const ws = tempWorkspace();
    const segs = (): number => ws.db.prepare(`SELECT count(*) FROM bm25_segments`).pluck().get() as number;
    // Three small imports: three small segments.
    for (let k = 0; k < 3; k++) await runImport(ws, 'questions-jsonl', [write(`small${k}.jsonl`, questionLines(1000, `m${k}-`, 'm'))]);
    expect(segs()).toBe(3);
    const before = tablesChecksum(ws, JOURNAL);
    // New text for the first import's questions (re-indexed) and new questions: a fourth small
    // segment, and the four merge at the end of the import; the cancel comes after the merge.
    const changed = questionLines(1000, 'm0-', 'm').map((l) => l.replace('"body":"body ', '"body":"new body '));
    const file = write('merge.jsonl', [...changed, ...questionLines(2000, 'n', 'm')]);
    importTuning.chunkMs = 0;
    const ac = new AbortController();
    let merged = false;
    const run = runImport(ws, 'questions-jsonl', [file], {
      signal: ac.signal,
      onProgress: (_d, _t, note) => {
        if (note !== 'indexing') return;
        merged = segs() === 1;
        ac.abort();
      },
    });
    await expect(run).rejects.toBeInstanceOf(CancelledError);
    expect(merged).toBe(true);
    expect(tablesChecksum(ws, JOURNAL)).toBe(before);
    expect(journalEmpty(ws)).toBe(true);
    ws.close();
  }, 60_000);

  it('keeps what labels written between chunks refer to (no acknowledged label is lost), undoes the rest', async () => {
    const ws = tempWorkspace();
    await runImport(ws, 'questions-jsonl', [write('base.jsonl', questionLines(50, 'b'))]);
    const before = ws.stats();
    const other = Workspace.open(ws.path);
    // A labels file that builds pool "lp" from its pairs, failing at the very end.
    const rows = ['query_id,candidate_id,annotator,label', ...Array.from({ length: 6000 }, (_, i) => `q${i % 300},c${i},gold,${i % 2}`), 'q1,c1,gold,maybe'];
    const file = path.join(scratch.dir, 'labels-bad.csv');
    writeFileSync(file, rows.join('\n') + '\n');
    let labeled: number | null = null;
    // Between two chunks (the import has committed and given the gate up), an annotator labels a pair the import created.
    const turns: WriteTurns = {
      acquire: async () => {},
      release: () => {
        if (labeled === null && other.findPool('lp') && other.hasPoolPair(other.pool('lp').id, 'q5', 'c5')) {
          labeled = other.addLabel({ pool: 'lp', queryId: 'q5', candidateId: 'c5', annotator: 'ann', value: '1', origin: 'app' });
        }
      },
      contended: false,
    };
    const err = await chunked(ws, () => importFiles(ws, 'labels-csv', [file], { pool: 'lp' }), turns).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toMatch(/labels-bad\.csv, line 6002: invalid label "maybe"/);
    expect(err?.message).toMatch(/rows? kept that labels given meanwhile refer to/);
    expect(labeled).not.toBeNull();
    // The acknowledged label is there, with its pair, query and pool; nothing else of the import is.
    expect(ws.currentLabels('lp')).toEqual([{ queryId: 'q5', candidateId: 'c5', annotator: 'ann', value: '1', seq: labeled, origin: 'app' }]);
    expect(ws.poolQueries('lp')).toEqual([{ queryId: 'q5', candidates: ['c5'] }]);
    const after = ws.stats();
    expect({ ...after, labels: before.labels, labelEvents: before.labelEvents, pools: before.pools, annotators: before.annotators }).toEqual(before);
    expect(after.labelEvents).toBe(1);
    expect(journalEmpty(ws)).toBe(true);
    expect(ws.db.pragma('foreign_key_check')).toEqual([]);
    other.close();
    ws.close();
  });
});

describe('watermarked tables (inserts journaled as one range per table)', () => {
  const answerRowids = (ws: Workspace): string => JSON.stringify(ws.db.prepare(`SELECT rowid, id FROM answers ORDER BY rowid`).raw().all());
  const entries = (ws: Workspace): Record<string, number> =>
    // The running write's own entries: below its from_seq lies the kept journal of the import before.
    Object.fromEntries(
      (ws.db.prepare(`SELECT op || ':' || tbl AS k, count(*) AS n FROM import_undo WHERE seq > (SELECT from_seq FROM import_journal) GROUP BY k`).raw().all() as Array<[string, number]>).map(([k, n]) => [k, n]),
    );

  it('journals one range entry per table however many rows come in, journals updates of older rows, and undoes both', async () => {
    const ws = await seeded();
    const before = tablesChecksum(ws, JOURNAL);
    const answersBefore = answerRowids(ws);
    const old = ws.db.prepare(`SELECT id, doc FROM questions ORDER BY doc LIMIT 1`).get() as { id: string; doc: number };
    const seen: Array<Record<string, number>> = [];
    const err = await chunked(ws, async (chunks) => {
      for (let i = 0; i < 3000; i++) {
        ws.upsertQuestion({ id: `wm${i}`, source: 'wm', title: `title ${i}`, body: `body ${i}` });
        ws.upsertAnswer({ id: `wma${i}`, questionId: `wm${i}`, source: 'wm', body: `answer ${i}` });
        if (i % 500 === 0) await chunks.checkpoint();
      }
      // A new row updated and deleted (no journal), an older row updated (journaled), an explicit rowid below the mark (journaled).
      ws.db.prepare(`UPDATE questions SET title = 'changed' WHERE id = 'wm7'`).run();
      ws.db.prepare(`DELETE FROM answers WHERE id = 'wma8'`).run();
      ws.db.prepare(`UPDATE questions SET title = 'changed too' WHERE doc = ?`).run(old.doc);
      const free = ws.db.prepare(`SELECT min(doc) - 1 FROM bm25_docs`).pluck().get() as number;
      ws.db.prepare(`INSERT INTO bm25_docs(doc, seg, len) VALUES (?, 1, 3)`).run(free);
      seen.push(entries(ws));
      throw new QPairsError('bad row at the end');
    }).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toBe('bad row at the end');
    // 6,000 inserted rows: three range entries, one journaled update and one journaled low insert.
    expect(seen[0]).toEqual({ 'i:answers': 1, 'i:bm25_docs': 2, 'i:questions': 1, 'u:questions': 1 });
    expect(tablesChecksum(ws, JOURNAL)).toBe(before);
    expect(answerRowids(ws)).toBe(answersBefore);
    expect(journalEmpty(ws)).toBe(true);
    // The failed write took nothing from the import before it: that one is still the one to undo.
    expect(keptImport(ws.db)?.what).toBe('askubuntu-pool import of dev.txt');
    expect(WATERMARKED_TABLES).toEqual(['questions', 'bm25_docs', 'answers']);
    ws.close();
  });

  it('chunks commit unsynced (synchronous NORMAL) and the last commit syncs; the setting is back after success and after failure', async () => {
    const ws = tempWorkspace();
    const level = (): number => ws.db.pragma('synchronous', { simple: true }) as number;
    expect(level()).toBe(2);
    const during: number[] = [];
    await chunked(ws, async () => {
      during.push(level());
      ws.upsertQuestion({ id: 's1', source: 's', title: 't', body: 'b' });
    });
    expect(during).toEqual([1]);
    expect(level()).toBe(2);
    await chunked(ws, async () => {
      throw new QPairsError('no');
    }).catch(() => undefined);
    expect(level()).toBe(2);
    expect(ws.db.prepare(`SELECT count(*) FROM questions`).pluck().get()).toBe(1);
    expect(journalEmpty(ws)).toBe(true);
    ws.close();
  });

  it('a row deleted and its key given to a new row (above the mark) comes back with its rowid and text', async () => {
    const ws = await seeded();
    const before = tablesChecksum(ws, JOURNAL);
    const answersBefore = answerRowids(ws);
    const victim = ws.db.prepare(`SELECT a.id, a.question_id FROM answers a ORDER BY a.rowid LIMIT 1`).get() as { id: string; question_id: string };
    const q = ws.db.prepare(`SELECT id, doc, source FROM questions WHERE id = ?`).get(victim.question_id) as { id: string; doc: number; source: string };
    const err = await chunked(ws, async (chunks) => {
      // The question goes (and its answers with it, by cascade), then comes back under a new doc number with other text.
      ws.db.prepare(`DELETE FROM questions WHERE id = ?`).run(q.id);
      await chunks.checkpoint();
      ws.upsertQuestion({ id: q.id, source: q.source, title: 'a new text', body: 'another body' });
      ws.upsertAnswer({ id: victim.id, questionId: q.id, source: q.source, body: 'a new answer under the old id' });
      await chunks.checkpoint();
      expect(ws.db.prepare(`SELECT doc FROM questions WHERE id = ?`).pluck().get(q.id)).toBeGreaterThan(q.doc);
      throw new QPairsError('fails');
    }).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toBe('fails');
    expect(ws.db.prepare(`SELECT doc FROM questions WHERE id = ?`).pluck().get(q.id)).toBe(q.doc);
    expect(tablesChecksum(ws, JOURNAL)).toBe(before);
    expect(answerRowids(ws)).toBe(answersBefore);
    expect(ws.db.pragma('foreign_key_check')).toEqual([]);
    ws.close();
  });
});

describe('a write over the kept journal of the import before', () => {
  it('journals its changes to rows that import inserted (they are not its own), so that failing it puts them back', async () => {
    const ws = tempWorkspace();
    // The import before: a pool and a person, rows of tables journaled row by row ('i' entries), kept once it finishes.
    await chunked(ws, async () => {
      ws.db.prepare(`INSERT INTO annotators(name, role, created) VALUES ('before', 'annotator', '2026-01-01')`).run();
    });
    expect(keptImport(ws.db)?.what).toBe('test import');
    const before = tablesChecksum(ws, JOURNAL);
    const err = await chunked(ws, async (chunks) => {
      ws.db.prepare(`UPDATE annotators SET role = 'judge' WHERE name = 'before'`).run();
      await chunks.checkpoint();
      ws.db.prepare(`DELETE FROM annotators WHERE name = 'before'`).run();
      await chunks.checkpoint();
      throw new QPairsError('fails');
    }).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toBe('fails');
    expect(ws.db.prepare(`SELECT role FROM annotators WHERE name = 'before'`).pluck().get()).toBe('annotator');
    expect(tablesChecksum(ws, JOURNAL)).toBe(before);
    expect(keptImport(ws.db)?.what).toBe('test import');
    ws.close();
  });
});

describe('crash recovery', () => {
  /** A pid that is not running any more. */
  const deadPid = (): number => spawnSync(process.execPath, ['-e', '0']).pid!;

  it('rolls back an import interrupted mid-way the next time the workspace is opened for writing', async () => {
    const ws = await seeded();
    const before = tablesChecksum(ws, JOURNAL);
    const crashed = path.join(scratch.dir, 'crashed.qpairs');
    const file = write('long.jsonl', questionLines(6000, 'crash'));
    importTuning.chunkMs = 0;
    // "Crash": copy the files (database + WAL, as a power cut would leave them) once some chunks are committed.
    const mid = copyMidway(ws, crashed, pastHalfCommitted(ws.path));
    await runImport(ws, 'questions-jsonl', [file], mid);
    expect(mid.copied()).toBe(true);
    const raw = new Database(crashed);
    expect(raw.prepare(`SELECT state FROM import_journal`).pluck().get()).toBe('running');
    expect(raw.prepare(`SELECT count(*) FROM questions WHERE id LIKE 'crash%'`).pluck().get()).toBeGreaterThan(0);
    raw.prepare(`UPDATE import_journal SET pid = ?`).run(deadPid()); // the crashed process is gone
    raw.close();

    const reopened = Workspace.open(crashed);
    expect(tablesChecksum(reopened, JOURNAL)).toBe(before);
    expect(journalEmpty(reopened)).toBe(true);
    expect(reopened.db.pragma('integrity_check', { simple: true })).toBe('ok');
    reopened.close();
    ws.close();
  });

  it('a read-only open of a workspace holding an interrupted import says so (its half import was read as if whole)', async () => {
    const ws = tempWorkspace();
    await runImport(ws, 'questions-jsonl', [write('kept.jsonl', questionLines(20, 'k'))]);
    const pid = deadPid();
    ws.db.exec(`DELETE FROM import_journal; DELETE FROM import_undo;`); // (the finished import's kept journal)
    ws.db.prepare(`INSERT INTO import_journal(id, token, pid, host, started, what, state, seqs) VALUES (1, 't', ?, ?, '2026-01-01T00:00:00.000Z', 'questions-jsonl import of half.jsonl', 'running', '{}')`).run(pid, os.hostname());
    const file = ws.path;
    ws.close();
    const ro = Workspace.open(file, { readonly: true });
    expect(ro.unrecoveredWrite).toEqual({ what: 'questions-jsonl import of half.jsonl', pid, host: os.hostname(), started: '2026-01-01T00:00:00.000Z' });
    expect(unrecoveredNote(ro.unrecoveredWrite!)).toBe(
      `note: the questions-jsonl import of half.jsonl started 2026-01-01T00:00:00.000Z was interrupted (its process ${pid} is gone) and its rows so far ` +
        `are still in this read-only workspace: what is read here includes them. They are undone the next time it is opened with write access`,
    );
    ro.close();
    // The writable open undoes it; nothing is left to say after.
    const rw = Workspace.open(file);
    expect(rw.recoveredWrite).toMatchObject({ what: 'questions-jsonl import of half.jsonl' });
    rw.close();
    const again = Workspace.open(file, { readonly: true });
    expect(again.unrecoveredWrite).toBeNull();
    again.close();
  });

  it('leaves a running import alone, and finishes (does not undo) one that had committed', async () => {
    const ws = tempWorkspace();
    await runImport(ws, 'questions-jsonl', [write('done.jsonl', questionLines(20, 'd'))]);
    const data = tablesChecksum(ws, ['import_journal', 'import_undo']);
    ws.db.exec(`DELETE FROM import_journal; DELETE FROM import_undo;`); // (the finished import's kept journal)
    const header = (pid: number, state: string): void => {
      ws.db.prepare(`INSERT INTO import_journal(id, token, pid, host, started, what, state, seqs) VALUES (1, 't', ?, ?, 'now', 'x', ?, '{}')`).run(pid, os.hostname(), state);
      ws.db.prepare(`INSERT INTO import_undo(tbl, op, rkey) VALUES ('questions', 'i', 1)`).run();
    };
    // Alive (this very process, another connection's import): nothing happens, and a second import is refused.
    header(process.pid === 1 ? 2 : 1, 'running');
    if (existsSync('/proc/1')) {
      expect(recoverInterruptedImport(ws.db)).toBeNull();
      await expect(runImport(ws, 'questions-jsonl', [write('second.jsonl', questionLines(3, 's'))])).rejects.toThrow(/another import into this workspace is running/);
    }
    ws.db.exec(`DELETE FROM import_journal; DELETE FROM import_undo;`);
    header(deadPid(), 'committed');
    expect(recoverInterruptedImport(ws.db)).toMatchObject({ committed: true });
    expect(journalEmpty(ws)).toBe(true);
    expect(tablesChecksum(ws, ['import_journal', 'import_undo'])).toBe(data);
    ws.close();
  });
});
