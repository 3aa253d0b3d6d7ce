import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Workspace } from '../workspace/workspace';
import { createPool, runImport } from './work';

/** Finds resources/demo by walking up from this module (works from src/, out/main and out/node). */
export function demoDir(start = import.meta.dirname): string {
  let dir = start;
  for (let i = 0; i < 6; i++) {
    const cand = path.join(dir, 'resources', 'demo');
    if (existsSync(path.join(cand, 'questions.jsonl'))) return cand;
    dir = path.dirname(dir);
  }
  throw new Error(`the demo corpus (resources/demo/questions.jsonl) was not found above ${start}`);
}

export const DEMO_POOL = 'demo';

/**
 * Creates a workspace holding the demo corpus, ready to label: the questions (indexed for BM25),
 * the user-marked duplicates, and a pool "demo" of 30 sampled queries with their BM25 top-20 and
 * the guidelines. Does nothing when the workspace already exists.
 */
export async function ensureDemoWorkspace(file: string, dir = demoDir()): Promise<void> {
  if (existsSync(file)) return;
  const tmp = `${file}.creating`;
  const ws = Workspace.create(tmp);
  try {
    await runImport(ws, 'questions-jsonl', [path.join(dir, 'questions.jsonl')], { source: 'demo' });
    const dups = readFileSync(path.join(dir, 'duplicates.csv'), 'utf8').trim().split(/\r?\n/).slice(1);
    ws.transaction(() => {
      for (const line of dups) {
        const [q, o] = line.split(',').map((s) => s.trim());
        if (q && o) ws.addDuplicatePair(q, o, 'demo');
      }
    });
    await createPool(ws, { name: DEMO_POOL, sample: { n: 30, seed: 1 }, depth: 20, scheme: 'binary' });
    const guidelines = path.join(dir, 'guidelines.md');
    if (existsSync(guidelines)) ws.setGuidelines(DEMO_POOL, readFileSync(guidelines, 'utf8'));
    ws.db.pragma('wal_checkpoint(TRUNCATE)');
  } catch (e) {
    ws.close();
    throw e;
  }
  ws.close();
  const { renameSync, rmSync } = await import('node:fs');
  renameSync(tmp, file);
  rmSync(`${tmp}-wal`, { force: true });
  rmSync(`${tmp}-shm`, { force: true });
}
