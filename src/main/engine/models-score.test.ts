/**
 * models.score with a model name the workspace lacks started a job that failed later ("no model
 * named …" in job.done), while an unknown pool was refused at once, as the CLI's `score` refuses
 * both. Both are now refused before a job starts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Workspace } from '../workspace/workspace';
import { importFiles } from '../import';
import { Engine } from './engine';

let dir: string;
let ws: Workspace;
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-models-score-'));
  ws = Workspace.create(path.join(dir, 'w.qpairs'));
  const f = path.join(dir, 'l.jsonl');
  writeFileSync(f, ['{"query_id":"a","candidate_id":"b","label":1}', '{"query_id":"a","candidate_id":"c","label":0}'].join('\n') + '\n');
  await importFiles(ws, 'labels-jsonl', [f], { pool: 'p', annotator: 'gold' });
});
afterAll(() => {
  ws.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('models.score', () => {
  it('refuses an unknown model before starting a job, as an unknown pool', async () => {
    const engine = new Engine(ws, { transport: 'http' });
    try {
      const jobs: unknown[] = [];
      engine.on('job.done', (d) => jobs.push(d));
      await expect(engine.invoke('models.score', { name: 'nope', pool: 'p' })).rejects.toMatchObject({ code: 'not-found', message: expect.stringContaining('no model named "nope"') });
      await expect(engine.invoke('models.score', { name: 'nope', pool: 'nopool' })).rejects.toMatchObject({ code: 'not-found' });
      await new Promise((r) => setTimeout(r, 50));
      expect(jobs).toEqual([]);
    } finally {
      engine.close();
    }
  });
});
