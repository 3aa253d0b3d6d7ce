/**
 * export.preview in two steps (export-preview.ts): with `agreementLater` it answers at once with the
 * files' first lines and a datasheet whose agreement section is being computed; without it, it runs as
 * a job of kind 'preview' (stages in order, the bootstrap's resamples, job.cancel), and a caller's newer
 * preview cancels their older one, which never answers with its result. The preview was one plain
 * request: ~10 s for a 40,000-pair, 3-annotator pool with nothing on screen, no Cancel, and every
 * change of format started another.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportPreview, JobProgress } from '../../shared/contract';
import { addThreeAnnotatorPool } from '../export/test-pool';
import { Workspace } from '../workspace/workspace';
import { configureCompute } from './compute';
import { Engine } from './engine';
import { cancelAtFirst, withJobEvents } from './test-engine';

let dir: string;
let engine: Engine;
const QUERIES = 300;
const CANDIDATES = 10;
const JUDGE = { annotator: 'jude', local: false };

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-exportpreview-'));
  const ws = Workspace.create(path.join(dir, 'w.qpairs'));
  ws.transaction(() => {
    addThreeAnnotatorPool(ws, QUERIES, CANDIDATES);
    // A small pool: 2 queries × 3 candidates, labeled by x and y.
    ws.createPool({ name: 'small', scheme: 'binary' });
    for (const q of [0, 1]) ws.addPoolQuery('small', `q${q * (CANDIDATES + 1)}`, [1, 2, 3].map((c) => `q${q * (CANDIDATES + 1) + c}`));
    for (const q of [0, 1]) for (const c of [1, 2, 3]) for (const a of ['x', 'y']) ws.addLabel({ pool: 'small', queryId: `q${q * (CANDIDATES + 1)}`, candidateId: `q${q * (CANDIDATES + 1) + c}`, annotator: a, value: (q + c + a.length) % 2 ? '1' : '0', origin: 't' });
  });
  engine = new Engine(ws, { transport: 'http' });
  await engine.invoke('annotator.add', { name: 'jude', role: 'judge' });
});
afterAll(() => {
  engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A label given makes the kept datasheet agreement stale, so the next preview computes its own. */
let flips = 0;
async function labelChanged(): Promise<void> {
  await engine.invoke('label.set', { pool: 'p', queryId: 'q0', candidateId: 'q1', annotator: 'x', value: flips++ % 2 ? '1' : '0' });
}

/** Runs `fn` with the preview jobs' events collected. */
const withEvents = <T>(fn: () => Promise<T>, onProgress?: (p: JobProgress) => void): ReturnType<typeof withJobEvents<T>> => withJobEvents(engine, 'preview', fn, onProgress);

const stageOf = (m: string): string => m.split(':')[0]!;
const BOOTSTRAP = "the datasheet's agreement bootstrap";
const valueOf = <T>(r: PromiseSettledResult<T>): T => {
  if (r.status === 'rejected') throw r.reason;
  return r.value;
};
const reasonOf = (r: PromiseSettledResult<unknown>): string => (r.status === 'rejected' ? String(r.reason) : 'fulfilled');

describe('export.preview in two steps, the second a job', () => {
  it("agreementLater answers with the files' first lines and the datasheet, its agreement not in it yet, and starts no job; the job then fills it in, stages in order", async () => {
    const restore = configureCompute({ inlineLimitMs: 0 });
    try {
      await labelChanged();
      const quick = await withEvents(() => engine.invoke('export.preview', { pool: 'p', format: 'csv', agreementLater: true }, JUDGE) as Promise<ExportPreview>);
      const first = valueOf(quick.result);
      expect(quick.progress).toEqual([]);
      expect(first.agreementPending).toBe(true);
      expect(first.files[0]!.head).toHaveLength(10);
      expect(first.datasheet).toContain("Not in this preview yet: the agreement of the pool's 3 annotators");
      expect(first.datasheet).not.toContain('95% CIs');

      const whole = await withEvents(() => engine.invoke('export.preview', { pool: 'p', format: 'csv' }, JUDGE) as Promise<ExportPreview>);
      const full = valueOf(whole.result);
      expect(full.agreementPending).toBeUndefined();
      expect(full.files).toEqual(first.files);
      expect(full.datasheet).toContain('95% CIs: percentile bootstrap over queries, 1,000 resamples');
      expect(full.datasheet).not.toContain('Not in this preview yet');
      expect([...new Set(whole.progress.map((p) => stageOf(p.message)))]).toEqual(["reading the pool's labels", 'rendering the files', BOOTSTRAP]);
      expect(whole.progress.every((p) => p.pool === 'p')).toBe(true);
      const boot = whole.progress.filter((p) => p.message.startsWith(BOOTSTRAP));
      expect(boot.every((p) => p.total === 9000)).toBe(true);
      expect(boot.map((p) => p.done)).toEqual([...boot.map((p) => p.done)].sort((a, b) => a - b));
      expect(boot.at(-1)).toMatchObject({ done: 9000, total: 9000 });
      expect(whole.done).toEqual([expect.objectContaining({ jobId: whole.progress[0]!.jobId, kind: 'preview', pool: 'p', ok: true, report: { pool: 'p', format: 'csv', files: [{ name: 'p.csv', lines: 3001 }] } })]);

      // Kept until a label changes: another format's first answer has the agreement already.
      const again = valueOf((await withEvents(() => engine.invoke('export.preview', { pool: 'p', format: 'qrels', agreementLater: true }, JUDGE) as Promise<ExportPreview>)).result);
      expect(again.agreementPending).toBeUndefined();
      expect(again.datasheet).toContain('95% CIs');
    } finally {
      configureCompute(restore);
    }
  });

  it("a small pool's agreement, quick to compute, is not left for later: its first answer is whole", async () => {
    const { progress, result } = await withEvents(() => engine.invoke('export.preview', { pool: 'small', format: 'jsonl', agreementLater: true }, JUDGE) as Promise<ExportPreview>);
    const p = valueOf(result);
    expect(progress).toEqual([]);
    expect(p.agreementPending).toBeUndefined();
    expect(p.datasheet).toContain('95% CIs');
  });

  it('job.cancel during the bootstrap stops it: "preview cancelled", job.done cancelled', async () => {
    const restore = configureCompute({ inlineLimitMs: 0 });
    const cancel = cancelAtFirst(engine, (p) => p.message.startsWith(BOOTSTRAP), JUDGE);
    try {
      await labelChanged();
      const { done, result } = await withEvents(() => engine.invoke('export.preview', { pool: 'p', format: 'jsonl' }, JUDGE), cancel.onProgress);
      expect(cancel.asked, 'the bootstrap was reported').not.toBeNull();
      expect(await cancel.asked).toEqual({ cancelled: true });
      expect(reasonOf(result)).toContain("preview cancelled: the datasheet's agreement was not computed");
      expect(done).toEqual([expect.objectContaining({ ok: false, cancelled: true })]);
    } finally {
      configureCompute(restore);
    }
  });

  it("a caller's newer preview (another format, either step) cancels their older preview job, which answers 'replaced', never its result; another caller's goes on", async () => {
    const restore = configureCompute({ inlineLimitMs: 0 });
    try {
      await labelChanged();
      let newer: Promise<unknown> | null = null;
      const older = await withEvents(
        () => engine.invoke('export.preview', { pool: 'p', format: 'csv' }, JUDGE),
        (p) => {
          if (newer === null && p.message.startsWith(BOOTSTRAP)) newer = engine.invoke('export.preview', { pool: 'p', format: 'qrels', agreementLater: true }, JUDGE);
        },
      );
      expect(newer, 'the bootstrap was reported').not.toBeNull();
      expect(reasonOf(older.result)).toContain('preview replaced by a newer one');
      expect(older.done).toEqual([expect.objectContaining({ ok: false, cancelled: true })]);
      expect(((await newer!) as ExportPreview).format).toBe('qrels');

      // Whole after whole: the older job cancelled, the newer's datasheet complete; the owner's preview is not the judge's to replace.
      let second: Promise<ExportPreview> | null = null;
      let owners: Promise<ExportPreview> | null = null;
      await labelChanged();
      const first = await withEvents(
        () => engine.invoke('export.preview', { pool: 'p', format: 'jsonl' }, JUDGE),
        (p) => {
          if (second !== null || !p.message.startsWith(BOOTSTRAP)) return;
          owners = engine.invoke('export.preview', { pool: 'p', format: 'csv', lines: 3 }) as Promise<ExportPreview>;
          second = engine.invoke('export.preview', { pool: 'p', format: 'semeval-relevancy' }, JUDGE) as Promise<ExportPreview>;
        },
      );
      expect(reasonOf(first.result)).toContain('preview replaced by a newer one');
      const [b, o] = await Promise.all([second!, owners!]);
      expect(b.format).toBe('semeval-relevancy');
      expect(b.datasheet).toContain('95% CIs');
      expect(o.format).toBe('csv');
      expect(o.files[0]!.head).toHaveLength(3);
    } finally {
      configureCompute(restore);
    }
  });

  it('an annotator may not preview (403 as before), either step', async () => {
    for (const agreementLater of [true, false]) {
      await expect(engine.invoke('export.preview', { pool: 'p', format: 'csv', agreementLater }, { annotator: 'x', local: false })).rejects.toMatchObject({ code: 'forbidden' });
    }
  });
});
