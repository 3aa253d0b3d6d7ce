/**
 * Pool creation in the app and serve mode runs as a job of kind 'pool': the Pools screen's bar
 * follows its job.progress events and its Cancel sends job.cancel. pool.create used to run as a
 * plain request with neither, so on a large workspace the bar sat at 0 for the whole creation and
 * nothing could stop it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobDone, JobProgress } from '../../shared/contract';
import { Workspace } from '../workspace/workspace';
import { Engine } from './engine';

let dir: string;
let engine: Engine;
const QUESTIONS = 3000;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-pooljob-'));
  const ws = Workspace.create(path.join(dir, 'w.qpairs'));
  const words = Array.from({ length: 400 }, (_, i) => `w${i.toString(36)}`);
  let s = 7;
  const rnd = (): number => ((s = (s * 1103515245 + 12345) % 2 ** 31), s / 2 ** 31);
  const text = (n: number): string => Array.from({ length: n }, () => words[Math.floor(rnd() * words.length)]).join(' ');
  ws.transaction(() => {
    for (let i = 1; i <= QUESTIONS; i++) ws.upsertQuestion({ id: `q${i}`, source: 't', title: text(6), body: text(30) });
  });
  engine = new Engine(ws, { transport: 'electron' });
});
afterAll(() => {
  engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('pool.create as a job', () => {
  it('reports its progress as job.progress events of kind pool, up to every query', async () => {
    const progress: JobProgress[] = [];
    const done: JobDone[] = [];
    const off1 = engine.on('job.progress', (p) => p.kind === 'pool' && progress.push(p));
    const off2 = engine.on('job.done', (d) => d.kind === 'pool' && done.push(d));
    try {
      const info = await engine.invoke('pool.create', { name: 'big', sample: { n: 1000, seed: 1 }, depth: 10 });
      expect(info).toMatchObject({ name: 'big', queries: 1000 });
      const retrieving = progress.filter((p) => p.message === "retrieving each query's BM25 top-10");
      expect(retrieving.length).toBeGreaterThan(0);
      expect(retrieving.at(-1)).toMatchObject({ done: 1000, total: 1000 });
      await new Promise((r) => setImmediate(r));
      expect(done).toEqual([expect.objectContaining({ jobId: progress[0]!.jobId, ok: true })]);
    } finally {
      off1();
      off2();
    }
  });

  it('stops at job.cancel, creates nothing and says it was cancelled', async () => {
    const done: JobDone[] = [];
    let cancelled: unknown = null;
    const off1 = engine.on('job.progress', (p) => {
      if (p.kind === 'pool' && p.message.startsWith('retrieving') && cancelled === null) cancelled = engine.invoke('job.cancel', { jobId: p.jobId });
    });
    const off2 = engine.on('job.done', (d) => d.kind === 'pool' && done.push(d));
    try {
      await expect(engine.invoke('pool.create', { name: 'stopped', sample: { n: 2000, seed: 2 }, depth: 10 })).rejects.toThrow(
        'pool creation cancelled: pool "stopped" was not created',
      );
      expect(await cancelled).toEqual({ cancelled: true });
      expect(((await engine.invoke('pool.list', {})) as Array<{ name: string }>).map((p) => p.name)).toEqual(['big']);
      await new Promise((r) => setImmediate(r));
      expect(done).toEqual([expect.objectContaining({ ok: false, cancelled: true })]);
    } finally {
      off1();
      off2();
    }
  });
});
