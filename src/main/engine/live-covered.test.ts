/**
 * What a live retrain covers: the labels it trained on (the pool's fully labeled queries, in the
 * snapshot its preparation read), nothing else. The next retrain is due once `everyLabels` labels
 * it did not train on are there — not early (a label it read and trained on does not count again),
 * not late (a label of a query still being labeled when it read counts once that query is labeled on).
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

/** Called as a retrain begins to read (after the engine noted the labels there were when it started). */
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

function open(name: string): Engine {
  const file = path.join(dir, name);
  copyFileSync(path.join(dir, 'w.qpairs'), file);
  return new Engine(Workspace.open(file), { transport: 'http' });
}

const nextRetrain = (e: Engine): Promise<JobDone> =>
  new Promise((resolve) => {
    const off = e.on('job.done', (d) => d.kind === 'live' && (off(), resolve(d)));
  });

const status = async (e: Engine, pool = 'p'): Promise<LiveStatus> => (await e.invoke('live.status', { pool })) as LiveStatus;

describe('a live retrain covers the labels it trained on, and only those', () => {
  it('not early: a label given between its start and its read, on a query it trains on, does not count toward the next', async () => {
    const e = open('early.qpairs');
    try {
      // dev is fully labeled by gold: every query is trained on.
      const gold = e.ws.currentLabels('dev', 'gold')[0]!;
      beforeReading = () => {
        beforeReading = null;
        e.ws.addLabel({ pool: 'dev', queryId: gold.queryId, candidateId: gold.candidateId, annotator: 'alice', value: gold.value, origin: 'test' });
      };
      const done = nextRetrain(e);
      // 500 gold labels are there: switching on starts a retrain at once.
      await e.invoke('live.set', { pool: 'dev', enabled: true, everyLabels: 20, idleSeconds: 0, models: ['tfidf'] });
      expect((await done).ok).toBe(true);
      expect(beforeReading).toBeNull(); // alice's label was given as the retrain began to read
      expect((await status(e, 'dev')).labelsSinceLast).toBe(0);
    } finally {
      beforeReading = null;
      await e.jobs.idle();
      e.close();
    }
  });

  it('not late: labels of a query still being labeled when it read count toward the next once that query is labeled on', async () => {
    const e = open('late.qpairs');
    try {
      // A pool of dev's first 4 queries labeled by alice alone (no gold): 10 candidates each.
      const dev = e.ws.poolQueries('dev').slice(0, 4);
      await e.invoke('pool.create', { name: 'p', queries: dev.map((q) => q.queryId), depth: 10, blind: false });
      const queries = e.ws.poolQueries('p');
      expect(queries.map((q) => q.candidates.length)).toEqual([10, 10, 10, 10]);
      const pairs = queries.flatMap((q) => q.candidates.map((c, i) => ({ queryId: q.queryId, candidateId: c, value: i === 0 ? '1' : '0' })));
      const label = async (from: number, to: number): Promise<void> => {
        for (const l of pairs.slice(from, to)) await e.invoke('label.set', { pool: 'p', annotator: 'alice', ...l });
      };
      // Queries 1 and 2 whole, query 3 half: the retrain trains on queries 1 and 2 (and dev), not on query 3's 5 labels.
      await label(0, 25);
      const first = nextRetrain(e);
      await e.invoke('live.set', { pool: 'p', enabled: true, everyLabels: 20, idleSeconds: 0, models: ['tfidf'], trainPools: ['dev'] });
      expect((await first).ok).toBe(true);
      await e.jobs.idle();
      // Nothing labeled since it read: nothing counts yet, and no retrain follows (it would train on the same labels).
      expect(await status(e)).toMatchObject({ running: false, labelsSinceLast: 0, curve: [{ trainedQueries: 2 }] });
      // Query 3's other 5 and 9 of query 4: 14 new labels, plus query 3's 5 it did not train on — 19, not due.
      await label(25, 39);
      expect(await status(e)).toMatchObject({ running: false, labelsSinceLast: 19 });
      // The 20th label it did not train on starts the next retrain (15 new ones).
      const second = nextRetrain(e);
      await label(39, 40);
      expect(await status(e)).toMatchObject({ running: true, labelsSinceLast: 20 });
      expect((await second).ok).toBe(true);
      expect((await status(e)).curve.map((p) => p.trainedQueries)).toEqual([2, 4]);
    } finally {
      await e.jobs.idle();
      e.close();
    }
  });
});
