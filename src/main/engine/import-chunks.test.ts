/**
 * Imports through the engine commit in chunks and give the write gate up between them: labels go
 * in while an import runs (acknowledged long before it ends), pool creation waits for the whole
 * import, and a cancelled import is undone — its committed chunks too — without the labels.
 */
import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Engine } from './engine';
import { importTuning } from './work';
import { Workspace } from '../workspace/workspace';
import type { JobDone, LabelAck } from '../../shared/contract';
import { jobDone } from './test-team';

let dir: string;
let engine: Engine;
let corpus: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-chunks-'));
  const ws = Workspace.create(path.join(dir, 'w.qpairs'));
  ws.transaction(() => {
    for (let i = 0; i < 30; i++) ws.upsertQuestion({ id: `s${i}`, source: 'seed', title: `seed question ${i}`, body: 'about chunks and imports' });
    ws.createPool({ name: 'p' });
    ws.addPoolQuery('p', 's0', Array.from({ length: 20 }, (_, i) => `s${i + 1}`));
  });
  engine = new Engine(ws, { transport: 'http' });
  corpus = path.join(dir, 'q.jsonl');
  writeFileSync(
    corpus,
    Array.from({ length: 20_000 }, (_, i) => JSON.stringify({ id: `n${i}`, title: `new question ${i} about chunks`, body: `body ${i} `.repeat(20) })).join('\n'),
  );
  importTuning.chunkMs = 5; // many chunks, even on a fast machine
});

afterEach(() => {
  importTuning.chunkMs = undefined;
  engine.close();
  rmSync(dir, { recursive: true, force: true });
});

const waitDone = (jobId: string): Promise<JobDone> => jobDone(engine, jobId);

const label = (i: number, value: string): Promise<LabelAck> =>
  engine.invoke('label.set', { pool: 'p', queryId: 's0', candidateId: `s${(i % 20) + 1}`, annotator: 'ann', value }) as Promise<LabelAck>;

describe('imports in chunks through the engine', () => {
  it('acknowledges labels while the import runs; pool creation waits for the whole import', async () => {
    const order: string[] = [];
    const { jobId } = (await engine.invoke('import.start', { format: 'questions-jsonl', sources: [{ path: corpus }] })) as { jobId: string };
    const done = waitDone(jobId).then((d) => {
      order.push('import done');
      return d;
    });
    const acks: LabelAck[] = [];
    for (let i = 0; i < 5; i++) {
      acks.push(await label(i, '1'));
      order.push('label');
    }
    const pool = (engine.invoke('pool.create', { name: 'after', sample: { n: 3, seed: 1 }, depth: 5 }) as Promise<{ queries: number }>).then((p) => {
      order.push('pool created');
      return p;
    });
    expect((await done).ok).toBe(true);
    expect(await pool).toMatchObject({ queries: 3 });
    expect(order).toEqual(['label', 'label', 'label', 'label', 'label', 'import done', 'pool created']);
    expect(acks.every((a) => a.saved)).toBe(true);
    expect(engine.ws.questionCount()).toBe(20_030);
    expect(engine.ws.stats().indexedQuestions).toBe(20_030);
  });

  it('a cancelled import is undone, committed chunks too, and the labels given meanwhile stay', async () => {
    const before = engine.ws.stats();
    const { jobId } = (await engine.invoke('import.start', { format: 'questions-jsonl', sources: [{ path: corpus }] })) as { jobId: string };
    const done = waitDone(jobId);
    const seqs: number[] = [];
    for (let i = 0; i < 3; i++) seqs.push((await label(i, '0')).seq!);
    // Some chunks are committed (readers see them) before the cancel.
    await new Promise<void>((resolve) => {
      const t = setInterval(() => {
        if (engine.ws.questionCount() > 30) {
          clearInterval(t);
          resolve();
        }
      }, 1);
    });
    await engine.invoke('job.cancel', { jobId });
    const d = await done;
    expect(d).toMatchObject({ ok: false, cancelled: true });
    expect(engine.ws.questionCount()).toBe(30);
    expect(engine.ws.stats()).toEqual({ ...before, labels: 3, labelEvents: 3, annotators: before.annotators + 1 });
    expect(engine.ws.currentLabels('p', 'ann').map((l) => l.seq)).toEqual(seqs);
  });
});
