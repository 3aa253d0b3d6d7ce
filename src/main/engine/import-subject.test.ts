/**
 * An import job's events say what it imports — files as the user named them, format, pool, who
 * started it — so that a tab that did not start it (another owner tab, a page reloaded mid-import)
 * can say which import runs; before, such a tab showed a bare bar. No client learns a server path
 * from them: an upload is named by its chosen name, a file on the engine's machine by its base name.
 * An undo asked for meanwhile names the import and who started it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobDone, JobProgress } from '../../shared/contract';
import { cleanupTemp, tempDir } from '../import/test-helpers';
import { jobDone, servedEngine } from './test-team';

let dir: string;
const uploads = new Map<string, string>();

beforeAll(() => {
  dir = tempDir();
  const d = path.join(dir, 'qpairs-uploads.u0', 'inst-0123', '44444444-dddd');
  mkdirSync(d, { recursive: true });
  const lines = Array.from({ length: 3000 }, (_, i) => `q${i},c${i},1`);
  writeFileSync(path.join(d, 'team labels.csv'), `query_id,candidate_id,label\n${lines.join('\n')}\n`);
  uploads.set('44444444-dddd', path.join(d, 'team labels.csv'));
});

afterAll(cleanupTemp);

describe("an import job's events name what it imports", () => {
  it('an upload by its chosen name, with its format, pool and the owner who started it; an undo meanwhile names them', async () => {
    const engine = servedEngine(path.join(dir, 'upload.qpairs'), uploads);
    engine.ws.ensureAnnotator('olga', 'owner');
    const seen: Array<JobProgress | JobDone> = [];
    engine.on('job.progress', (p) => seen.push(p));
    engine.on('job.done', (d) => seen.push(d));
    const { jobId } = (await engine.invoke(
      'import.start',
      { format: 'labels-csv', sources: [{ uploadId: '44444444-dddd', name: 'team labels.csv' }], pool: 'p' },
      { annotator: 'olga' },
    )) as { jobId: string };
    const refused = await engine.invoke('import.undo', {}).catch((e: unknown) => e);
    expect((refused as Error).message).toMatch(/^an import is running \(labels-csv import of team labels\.csv, started \S+ by olga\): wait for it to finish or cancel it, then undo$/);
    expect((await jobDone(engine, jobId)).ok).toBe(true);
    const mine = seen.filter((e) => e.jobId === jobId);
    expect(mine.some((e) => 'done' in e)).toBe(true);
    for (const e of mine) expect(e.import).toEqual({ format: 'labels-csv', files: ['team labels.csv'], pool: 'p', startedBy: 'olga', started: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(JSON.stringify(mine)).not.toContain(dir);
    engine.close();
  });

  it("a file on the engine's machine by its base name only, started by the owner without a token", async () => {
    const engine = servedEngine(path.join(dir, 'path.qpairs'), uploads);
    const file = path.join(dir, 'local questions.jsonl');
    writeFileSync(file, Array.from({ length: 2000 }, (_, i) => JSON.stringify({ id: `l${i}`, title: `local ${i}`, body: 'b' })).join('\n'));
    const seen: JobProgress[] = [];
    engine.on('job.progress', (p) => seen.push(p));
    const { jobId } = (await engine.invoke('import.start', { format: 'questions-jsonl', sources: [{ path: file }] })) as { jobId: string };
    const done = await jobDone(engine, jobId);
    expect(done.import).toMatchObject({ format: 'questions-jsonl', files: ['local questions.jsonl'], startedBy: null });
    expect(done.import).not.toHaveProperty('pool');
    expect(seen.filter((p) => p.jobId === jobId).length).toBeGreaterThan(0);
    expect(seen.filter((p) => p.jobId === jobId).every((p) => p.import?.files[0] === 'local questions.jsonl')).toBe(true);
    expect(JSON.stringify(seen)).not.toContain(dir);
    engine.close();
  });
});
