/**
 * A live retrain marks as covered the label events its training read (its preparation's snapshot),
 * not those there were when it started: a label given between the two was trained on and, before,
 * also counted toward the next retrain (which then came one label early, retraining on nothing new).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Workspace } from '../workspace/workspace';
import { runImport } from './work';
import { Engine } from './engine';
import { dataset } from '../../../tests/datasets';
import type { JobDone } from '../../shared/contract';
import type { LiveStatus } from '../../shared/live';

/** Called as a retrain begins to read (after the engine noted the labels it started with). */
let beforeReading: (() => void) | null = null;
vi.mock('../training/live-retrain', async (importOriginal) => {
  const real = await importOriginal<typeof import('../training/live-retrain')>();
  return {
    ...real,
    retrainLive: (...args: Parameters<typeof real.retrainLive>) => {
      beforeReading?.();
      return real.retrainLive(...args);
    },
  };
});

let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-live-covered-'));
  const ws = Workspace.create(path.join(dir, 'w.qpairs'));
  await runImport(ws, 'semeval', [dataset('semeval2016-task3/SemEval2016-Task3-CQA-QL-dev.xml')], { pool: 'dev' });
  ws.ensureAnnotator('alice', 'annotator');
  ws.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a live retrain', () => {
  it('covers the label given between its start and its read: it does not count toward the next retrain', async () => {
    const file = path.join(dir, 'a.qpairs');
    copyFileSync(path.join(dir, 'w.qpairs'), file);
    const e = new Engine(Workspace.open(file), { transport: 'http' });
    try {
      const gold = e.ws.currentLabels('dev', 'gold')[0]!;
      beforeReading = () => {
        beforeReading = null;
        e.ws.addLabel({ pool: 'dev', queryId: gold.queryId, candidateId: gold.candidateId, annotator: 'alice', value: gold.value, origin: 'test' });
      };
      const done = new Promise<JobDone>((resolve) => {
        const off = e.on('job.done', (d) => d.kind === 'live' && (off(), resolve(d)));
      });
      // 500 gold labels are there: switching on starts a retrain at once.
      await e.invoke('live.set', { pool: 'dev', enabled: true, everyLabels: 20, idleSeconds: 0, models: ['tfidf'] });
      expect((await done).ok).toBe(true);
      expect(beforeReading).toBeNull(); // alice's label was given as the retrain began to read
      const st = (await e.invoke('live.status', { pool: 'dev' })) as LiveStatus;
      expect(st.labelsSinceLast).toBe(0);
    } finally {
      await e.jobs.idle();
      e.close();
    }
  });
});
