/**
 * An uploaded file's import (serve mode) names the upload by the name its owner chose, never the
 * server's temporary path nor the folder holding it: in the error, in the report's warnings and in
 * its file list. Before, only errors naming the whole file path were rewritten, so a labels
 * upload’s unknown-query warning showed `/tmp/qpairs-uploads…/<id>/labels.csv`, and a Posts file
 * uploaded without PostLinks named the upload's folder (warning, or error with Strict) — and then,
 * as "no PostLinks.xml in the upload of Posts.xml.gz", still sent its owner to a folder: it now says
 * to upload the PostLinks file with it. The report
 * sent to the app also leaves out the index's bookkeeping (changedDocs).
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataset } from '../../../tests/datasets';
import type { JobDone } from '../../shared/contract';
import { Engine } from './engine';
import { jobDone, servedEngine } from './test-team';
import { cleanupTemp, tempDir } from '../import/test-helpers';

let dir: string;
/** Upload ids → files, as the serve-mode upload store keeps them (`<store>/<id>/<chosen name>`). */
const uploads = new Map<string, string>();

function upload(id: string, name: string, write: (file: string) => void): void {
  const d = path.join(dir, 'qpairs-uploads.u0', 'inst-0123', id);
  mkdirSync(d, { recursive: true });
  write(path.join(d, name));
  uploads.set(id, path.join(d, name));
}

beforeAll(() => {
  dir = tempDir();
  upload('11111111-aaaa', 'questions.jsonl', (f) => writeFileSync(f, '{"id":"1","title":"a","body":"b"}\n{"id":"2","title":"c","body":"d"}\n'));
  upload('22222222-bbbb', 'labels.csv', (f) => writeFileSync(f, 'query_id,candidate_id,label\n1,2,1\nzz,2,0\n'));
  upload('33333333-cccc', 'Posts.xml.gz', (f) => copyFileSync(dataset('stackexchange-cstheory-meta/Posts.xml'), f));
});

afterAll(cleanupTemp);

const engineFor = (name: string): Engine => servedEngine(path.join(dir, `${name}.qpairs`), uploads);

async function importUploads(engine: Engine, format: string, sources: Array<{ uploadId: string; name: string }>, more: object = {}): Promise<JobDone> {
  const { jobId } = (await engine.invoke('import.start', { format, sources, ...more })) as { jobId: string };
  return jobDone(engine, jobId);
}

describe('an uploaded file is named by its chosen name only', () => {
  it('a labels upload’s warning and file list', async () => {
    const engine = engineFor('labels');
    expect((await importUploads(engine, 'questions-jsonl', [{ uploadId: '11111111-aaaa', name: 'questions.jsonl' }])).ok).toBe(true);
    const done = await importUploads(engine, 'labels-csv', [{ uploadId: '22222222-bbbb', name: 'labels.csv' }], { pool: 'p' });
    expect(done.ok, done.error ?? '').toBe(true);
    const report = done.report as { files: string[]; warnings: string[] };
    expect(report.files).toEqual(['labels.csv']);
    expect(report.warnings).toHaveLength(1);
    expect(report.warnings[0]).toMatch(/^labels\.csv: 1 of 2 query ids are unknown/);
    expect(JSON.stringify(done)).not.toContain(dir);
    // The workspace's audit of imports keeps the chosen names too (it kept the server's temporary paths,
    // though only names are ever shown from it): the same names shown as before.
    const audit = engine.ws.listImports();
    expect(audit.map((i) => i.files)).toEqual([['questions.jsonl'], ['labels.csv']]);
    expect(audit[1]!.report).toMatchObject({ files: ['labels.csv'], warnings: [expect.stringMatching(/^labels\.csv: 1 of 2 query ids are unknown/)] });
    expect(JSON.stringify(audit)).not.toContain(dir);
    expect(JSON.stringify(audit)).not.toContain('22222222-bbbb');
    expect(engine.ws.questionOrigin(1)).toMatch(/^imported .* by a questions-jsonl import of questions\.jsonl$/);
    engine.close();
  });

  it('a Posts upload without PostLinks: the warning, and the error with Strict, name no server folder', async () => {
    const engine = engineFor('posts');
    const strict = await importUploads(engine, 'stackexchange', [{ uploadId: '33333333-cccc', name: 'Posts.xml.gz' }], { strict: true });
    expect(strict.ok).toBe(false);
    // It says to upload the PostLinks file with it: "no PostLinks.xml in the upload of Posts.xml.gz" sent the owner to a folder of the server's.
    expect(strict.error).toBe(
      "Posts.xml.gz: no PostLinks.xml among the files uploaded: upload the dump's PostLinks.xml (or .xml.gz) with it to import its duplicate links (the “Strict” option)",
    );
    expect(strict.error).not.toContain(dir);
    expect(strict.error).not.toContain('33333333-cccc');
    expect(engine.ws.stats()).toMatchObject({ questions: 0 });

    const done = await importUploads(engine, 'stackexchange', [{ uploadId: '33333333-cccc', name: 'Posts.xml.gz' }]);
    expect(done.ok, done.error ?? '').toBe(true);
    expect(JSON.stringify(done)).not.toContain(dir);
    expect(JSON.stringify(done)).not.toContain('33333333-cccc');
    expect((done.report as { warnings: string[] }).warnings).toContain(
      "Posts.xml.gz: no PostLinks.xml among the files uploaded: upload the dump's PostLinks.xml (or .xml.gz) with it to import its duplicate links; no duplicate links were imported (the “Strict” option makes this an error)",
    );
    const audit = JSON.stringify(engine.ws.listImports());
    expect(audit).not.toContain(dir);
    expect(audit).not.toContain('33333333-cccc');
    expect(audit).toContain('Posts.xml.gz: no PostLinks.xml among the files uploaded');
    engine.close();
  });
});

describe('the report the app receives', () => {
  it('leaves out changedDocs, the doc number of every question touched (the CLI does not print it either)', async () => {
    const engine = engineFor('report');
    const file = path.join(dir, 'many.jsonl');
    writeFileSync(file, Array.from({ length: 2000 }, (_, i) => JSON.stringify({ id: `m${i}`, title: `t ${i}`, body: `b ${i}` })).join('\n') + '\n');
    const { jobId } = (await engine.invoke('import.start', { format: 'questions-jsonl', sources: [{ path: file }] })) as { jobId: string };
    const done = await jobDone(engine, jobId);
    expect(done.ok, done.error ?? '').toBe(true);
    expect(done.report).toMatchObject({ format: 'questions-jsonl', counts: { questionsInserted: 2000 } });
    expect(done.report).not.toHaveProperty('changedDocs');
    expect(JSON.stringify(done).length).toBeLessThan(1000);
    expect(engine.ws.stats()).toMatchObject({ questions: 2000, indexedQuestions: 2000 });
    engine.close();
  });
});
