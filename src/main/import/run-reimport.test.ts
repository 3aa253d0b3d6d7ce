/**
 * Re-importing a run the workspace has: only the scores that differ are written. The run was
 * deleted whole and written again (also when it was the very same file), so readers between the
 * import's chunks saw it lose its scores and fill up again, and an unchanged run invalidated
 * every cache of run scores.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runUndoable } from '../workspace/undo-journal';
import { Workspace } from '../workspace/workspace';
import { importFiles } from './index';
import { cleanupTemp, tablesChecksum, tempDir, tempWorkspace } from './test-helpers';

afterEach(cleanupTemp);

const QUERIES = 400;
const DEPTH = 20;

/** A pool of QUERIES × DEPTH pairs and a TREC run file for it (`score(q, c)` each pair's score; null leaves the pair out). */
function setUp(): Workspace {
  const ws = tempWorkspace();
  ws.createPool({ name: 'rp', scheme: 'binary' });
  ws.transaction(() => {
    for (let q = 0; q < QUERIES; q++) ws.addPoolQuery('rp', `query-${q}`, Array.from({ length: DEPTH }, (_, c) => `cand-${q}-${c}`));
  });
  return ws;
}

function runFile(name: string, score: (q: number, c: number) => number | null): string {
  const lines: string[] = [];
  for (let q = 0; q < QUERIES; q++) {
    let rank = 0;
    for (let c = 0; c < DEPTH; c++) {
      const s = score(q, c);
      if (s !== null) lines.push(`query-${q} Q0 cand-${q}-${c} ${++rank} ${s} ranker`);
    }
  }
  const f = path.join(tempDir(), name);
  writeFileSync(f, lines.join('\n') + '\n');
  return f;
}

/** Counts the rows written to run_scores through this connection (a TEMP trigger per kind of write). */
function countRunScoreWrites(ws: Workspace): () => { i: number; u: number; d: number } {
  ws.db.exec(`CREATE TEMP TABLE rs_writes(op TEXT NOT NULL)`);
  for (const [op, when] of [['i', 'INSERT'], ['u', 'UPDATE'], ['d', 'DELETE']] as const) {
    ws.db.exec(`CREATE TEMP TRIGGER rs_${op} AFTER ${when} ON main.run_scores BEGIN INSERT INTO rs_writes VALUES ('${op}'); END`);
  }
  return () => {
    const n = (op: string): number => ws.db.prepare(`SELECT count(*) FROM rs_writes WHERE op = ?`).pluck().get(op) as number;
    return { i: n('i'), u: n('u'), d: n('d') };
  };
}

/** The import committed at every chunk boundary; `watch` reads the run through another connection between chunks. */
async function chunkedImport(ws: Workspace, file: string, watch: (pairs: number) => void, after?: () => void) {
  const reader = Workspace.open(ws.path);
  try {
    const pairs = (): number => reader.listRuns('rp').find((r) => r.name === 'ranker')?.pairs ?? 0;
    return await runUndoable(ws, { what: 'test import', chunkMs: 0, contendedMs: 0 }, async () => {
      const r = await importFiles(ws, 'trec-run', [file], { pool: 'rp', progressIntervalMs: 0, onProgress: (p) => p.records % 200 === 0 && watch(pairs()) });
      watch(pairs());
      after?.();
      return r;
    });
  } finally {
    reader.close();
  }
}

const base = (q: number, c: number): number => DEPTH - c + q / 1000;

describe('re-importing a run', () => {
  it('the very same run file writes nothing: no score deleted or written again, the cached scores stay, readers see the whole run throughout', async () => {
    const ws = setUp();
    await importFiles(ws, 'trec-run', [runFile('run.txt', base)], { pool: 'rp' });
    const run = ws.listRuns('rp')[0]!;
    expect(run.pairs).toBe(QUERIES * DEPTH);
    const writes = countRunScoreWrites(ws);
    const cached = ws.runScores(run.id);
    const before = tablesChecksum(ws, ['imports', 'import_journal', 'import_undo']);
    const seen: number[] = [];
    const r = await chunkedImport(ws, runFile('again.txt', base), (n) => seen.push(n));
    expect(r.counts).toEqual({ runScores: QUERIES * DEPTH, runsUnchanged: 1 });
    expect(writes()).toEqual({ i: 0, u: 0, d: 0 });
    expect(ws.runScores(run.id), 'the run was not written, so its cached scores still hold').toBe(cached);
    expect(seen.length).toBeGreaterThan(2);
    expect(new Set(seen)).toEqual(new Set([QUERIES * DEPTH]));
    expect(tablesChecksum(ws, ['imports', 'import_journal', 'import_undo'])).toBe(before);
    ws.close();
  });

  it('a changed run writes only what differs; readers between chunks never see it lose scores; undoing the import restores it', async () => {
    const ws = setUp();
    await importFiles(ws, 'trec-run', [runFile('run.txt', base)], { pool: 'rp' });
    const run = ws.listRuns('rp')[0]!;
    const old = structuredClone([...ws.runScores(run.id)]);
    const before = tablesChecksum(ws);
    const writes = countRunScoreWrites(ws);
    // Every 10th query's scores change, query 7 loses its last candidate, query 8 gains none (all kept).
    const changed = (q: number, c: number): number | null => (q === 7 && c === DEPTH - 1 ? null : q % 10 === 3 ? base(q, c) + 0.5 : base(q, c));
    const file = runFile('changed.txt', changed);
    const seen: number[] = [];
    const r = await chunkedImport(ws, file, (n) => seen.push(n));
    const differ = (QUERIES / 10) * DEPTH;
    expect(r.counts).toEqual({ runScores: QUERIES * DEPTH - 1, runScoresChanged: differ + 1 });
    expect(writes()).toEqual({ i: 0, u: differ, d: 1 });
    expect(seen.length).toBeGreaterThan(2);
    expect(Math.min(...seen), 'the run kept its scores until the dropped one went').toBeGreaterThanOrEqual(QUERIES * DEPTH - 1);
    const now = ws.runScores(run.id);
    expect(now.get('query-3')!.get('cand-3-0')).toBe(base(3, 0) + 0.5);
    expect(now.get('query-7')!.has(`cand-7-${DEPTH - 1}`)).toBe(false);
    expect(now.get('query-8')!.get('cand-8-0')).toBe(base(8, 0));

    // The same change, undone after it ended (a later step of the write failed): the run is as it was.
    await importFiles(ws, 'trec-run', [runFile('back.txt', base)], { pool: 'rp' });
    const restored = tablesChecksum(ws, ['imports', 'import_journal', 'import_undo']);
    await expect(
      chunkedImport(ws, file, () => {}, () => {
        throw new Error('a later step failed');
      }),
    ).rejects.toThrow('a later step failed');
    expect(tablesChecksum(ws, ['imports', 'import_journal', 'import_undo'])).toBe(restored);
    expect([...ws.runScores(run.id)]).toEqual(old);
    expect(before).not.toBe(tablesChecksum(ws)); // two imports were recorded since
    ws.close();
  });
});
