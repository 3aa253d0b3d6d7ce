/**
 * Test fixture (not used by the app): a workspace whose undo of its last import a kill stopped partway — 30 seed
 * questions, then 20,000 (wrong.jsonl) imported through the engine, whose undo is cancelled after its first chunk and
 * its process then made gone, as a kill leaves it. The engine and desktop tests of finishing it in the background use it.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'vitest';
import { Workspace } from '../workspace/workspace';
import { Engine } from './engine';
import { jobDone } from './test-team';
import { importTuning } from './work';

/** Questions the workspace holds before the import (what it holds once the undo is finished). */
export const SEED_QUESTIONS = 30;

/**
 * The import whose undo is killed: wrong.jsonl's 20,000 questions (the default), or, with `labels`, the seed
 * questions' pairs labeled by 20 people into pool `open` — made by an import before, and assigned to alice.
 */
export type KilledImport = 'questions' | 'labels';

/** Makes `dir/name` so (see the top) and returns its path and that of wrong.jsonl. Leaves importTuning.chunkMs at 1 (the caller's afterEach resets it). */
export async function workspaceWithKilledUndo(dir: string, name = 'w.qpairs', what: KilledImport = 'questions'): Promise<{ file: string; corpus: string }> {
  const file = path.join(dir, name);
  const ws = Workspace.create(file);
  ws.transaction(() => {
    for (let i = 0; i < SEED_QUESTIONS; i++) ws.upsertQuestion({ id: `s${i}`, source: 'seed', title: `seed question ${i}`, body: 'about undo' });
  });
  ws.close();
  const corpus = path.join(dir, 'wrong.jsonl');
  writeFileSync(corpus, Array.from({ length: 20_000 }, (_, i) => JSON.stringify({ id: `n${i}`, title: `zebra question ${i}`, body: `zebra body ${i}` })).join('\n'));
  const engine = Engine.open(file, { transport: 'http' });
  try {
    const { jobId: imported } = (await engine.invoke(
      'import.start',
      what === 'questions' ? { format: 'questions-jsonl', sources: [{ path: corpus }] } : await labelsOfSeedPairs(engine, dir),
    )) as { jobId: string };
    expect((await jobDone(engine, imported)).ok).toBe(true);
    importTuning.chunkMs = 1;
    const { jobId } = (await engine.invoke('import.undo', {})) as { jobId: string };
    const off = engine.on('job.progress', (p) => {
      if (p.jobId === jobId && p.done > 0 && p.done < p.total) {
        off();
        void engine.invoke('job.cancel', { jobId });
      }
    });
    expect(await jobDone(engine, jobId)).toMatchObject({ ok: false, cancelled: true });
  } finally {
    engine.close();
  }
  const raw = new Database(file);
  raw.prepare(`UPDATE import_undo_progress SET marker = json_set(marker, '$.pid', ?) WHERE id = 1`).run(spawnSync(process.execPath, ['-e', '0']).pid!);
  raw.close();
  return { file, corpus };
}

/** Pool `open` of every seed pair (labeled by gold, then assigned to alice), and the import args of 20 people's labels of its pairs. */
async function labelsOfSeedPairs(engine: Engine, dir: string): Promise<Record<string, unknown>> {
  const pairs: string[] = [];
  for (let q = 0; q < SEED_QUESTIONS; q++) for (let c = 0; c < SEED_QUESTIONS; c++) if (q !== c) pairs.push(`s${q},s${c}`);
  const first = path.join(dir, 'pool.csv');
  writeFileSync(first, `query_id,candidate_id,annotator,label\n${pairs.map((p) => `${p},gold,1`).join('\n')}\n`);
  const { jobId } = (await engine.invoke('import.start', { format: 'labels-csv', pool: 'open', sources: [{ path: first }] })) as { jobId: string };
  expect((await jobDone(engine, jobId)).ok).toBe(true);
  await engine.invoke('pool.assign', { pool: 'open', annotators: ['alice'] });
  const many = path.join(dir, 'many.csv');
  const rows = Array.from({ length: 20 }, (_, i) => pairs.map((p) => `${p},x${i},${i % 2}`).join('\n'));
  writeFileSync(many, `query_id,candidate_id,annotator,label\n${rows.join('\n')}\n`);
  return { format: 'labels-csv', pool: 'open', sources: [{ path: many }] };
}
