/**
 * export.write runs as a job of kind 'export' (export-job.ts): its job.progress events say the
 * stage (reading, rendering, the datasheet's agreement bootstrap with its resamples done of all,
 * writing), and job.cancel stops it with nothing written. It used to be a plain request: the Export
 * screen said "Exporting…" for the whole 23 s of a 40,000-pair export, with no way to stop it.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobProgress } from '../../shared/contract';
import { CancelledError } from '../errors';
import { addThreeAnnotatorPool } from '../export/test-pool';
import { Workspace } from '../workspace/workspace';
import { configureCompute } from './compute';
import { Engine } from './engine';
import { cancelAtFirst, withJobEvents } from './test-engine';

let dir: string;
let engine: Engine;
let restore: ReturnType<typeof configureCompute>;
const QUERIES = 300;
const CANDIDATES = 10;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-exportjob-'));
  const ws = Workspace.create(path.join(dir, 'w.qpairs'));
  ws.transaction(() => addThreeAnnotatorPool(ws, QUERIES, CANDIDATES));
  engine = new Engine(ws, { transport: 'electron' });
});
afterAll(() => {
  engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `fn` with the export job's events collected. */
const withEvents = <T>(fn: () => Promise<T>, onProgress?: (p: JobProgress) => void): ReturnType<typeof withJobEvents<T>> => withJobEvents(engine, 'export', fn, onProgress);

const stageOf = (m: string): string => m.split(':')[0]!;
/** The stages in the order first seen. */
const stages = (progress: JobProgress[]): string[] => [...new Set(progress.map((p) => stageOf(p.message)))];

describe('export.write as a job', () => {
  it('job.cancel during the agreement bootstrap (in a worker) stops it (first: a finished export keeps its agreement for the next): "export cancelled: nothing was written", no file', async () => {
    restore = configureCompute({ inlineLimitMs: 0 });
    const out = path.join(dir, 'b', 'p.csv');
    mkdirSync(path.dirname(out));
    const cancel = cancelAtFirst(engine, (p) => p.message.startsWith("the datasheet's agreement bootstrap"));
    try {
      const { done, result } = await withEvents(() => engine.invoke('export.write', { pool: 'p', format: 'csv', path: out }), cancel.onProgress);
      expect(cancel.asked, 'the bootstrap was reported').not.toBeNull();
      expect(await cancel.asked).toEqual({ cancelled: true });
      expect(result.status).toBe('rejected');
      expect(String((result as PromiseRejectedResult).reason)).toContain('export cancelled: nothing was written');
      expect(done).toEqual([expect.objectContaining({ ok: false, cancelled: true })]);
      expect(readdirSync(path.dirname(out))).toEqual([]);
    } finally {
      configureCompute(restore);
    }
  });

  it('in a compute worker: reports reading, rendering, the bootstrap resamples up to all of them, then writing; job.done names the files', async () => {
    restore = configureCompute({ inlineLimitMs: 0 });
    const out = path.join(dir, 'a', 'p.jsonl');
    mkdirSync(path.dirname(out));
    try {
      const { progress, done, result } = await withEvents(() => engine.invoke('export.write', { pool: 'p', format: 'jsonl', path: out }));
      expect(result.status, String((result as PromiseRejectedResult).reason)).toBe('fulfilled');
      expect(stages(progress)).toEqual(["reading the pool's labels", 'rendering the files', "the datasheet's agreement bootstrap", 'writing the files']);
      const boot = progress.filter((p) => p.message.startsWith("the datasheet's agreement bootstrap"));
      // 3 annotator pairs' kappa CIs and the 6 pool-level statistics, 1000 resamples each.
      expect(boot.every((p) => p.total === 9000)).toBe(true);
      expect(boot.at(-1)).toMatchObject({ done: 9000, total: 9000, message: "the datasheet's agreement bootstrap: 9,000 of 9,000 resamples" });
      expect(boot.map((p) => p.done)).toEqual([...boot.map((p) => p.done)].sort((a, b) => a - b));
      expect(done).toEqual([expect.objectContaining({ jobId: progress[0]!.jobId, ok: true })]);
      const report = done[0]!.report as { files: Array<Record<string, unknown>> };
      expect(report.files.map((f) => path.basename(String(f.name)))).toEqual(['p.jsonl', 'p.jsonl.datasheet.md']);
      expect(report.files.every((f) => !('content' in f))).toBe(true);
      expect(readdirSync(path.dirname(out)).sort()).toEqual(['p.jsonl', 'p.jsonl.datasheet.md']);
    } finally {
      configureCompute(restore);
    }
  });

  it('job.cancel while the files are written removes the temporary files: nothing is written', async () => {
    restore = configureCompute({ workerPath: null });
    const out = path.join(dir, 'c', 'p.jsonl');
    mkdirSync(path.dirname(out));
    const cancel = cancelAtFirst(engine, (p) => p.message === 'writing the files');
    try {
      const { progress, result } = await withEvents(() => engine.invoke('export.write', { pool: 'p', format: 'jsonl', path: out }), cancel.onProgress);
      expect(stages(progress).at(-1)).toBe('writing the files');
      expect(await cancel.asked).toEqual({ cancelled: true });
      expect(String((result as PromiseRejectedResult).reason)).toContain('export cancelled: nothing was written');
      expect(readdirSync(path.dirname(out))).toEqual([]);
    } finally {
      configureCompute(restore);
    }
  });

  it("a download (no path) answers with the files' content, while its job.done carries only their names and sizes", async () => {
    restore = configureCompute({ workerPath: null });
    try {
      const { progress, done, result } = await withEvents(() => engine.invoke('export.write', { pool: 'p', format: 'qrels' }));
      expect(result.status).toBe('fulfilled');
      const r = (result as PromiseFulfilledResult<{ files: Array<{ name: string; bytes: number; content?: string }> }>).value;
      expect(r.files.map((f) => [f.name, typeof f.content])).toEqual([
        ['p.qrels', 'string'],
        ['p.qrels.datasheet.md', 'string'],
      ]);
      expect(progress.length).toBeGreaterThan(0);
      expect(done[0]!.report).toEqual({ files: r.files.map((f) => ({ name: f.name, bytes: f.bytes })) });
    } finally {
      configureCompute(restore);
    }
  });

  it('a caller gone (the HTTP client went away) cancels it with the CancelledError serve mode logs as such, not "export cancelled"', async () => {
    restore = configureCompute({ workerPath: null });
    const gone = new AbortController();
    try {
      const { done, result } = await withEvents(
        () => engine.invoke('export.write', { pool: 'p', format: 'qrels' }, { annotator: null, local: true, signal: gone.signal }),
        () => gone.abort(),
      );
      expect(result.status).toBe('rejected');
      expect((result as PromiseRejectedResult).reason).toBeInstanceOf(CancelledError);
      expect(done).toEqual([expect.objectContaining({ ok: false, cancelled: true })]);
    } finally {
      configureCompute(restore);
    }
  });
});
