/**
 * `qpairs train --dev-pool` printed its "overlap check:" line after the training (the Models screen shows it
 * before the first epoch): it is known before training starts, and is said then, before the first epoch's line.
 * A Ctrl-C while the stored model scored the pools was ignored in silence until the scoring ended.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { main } from '../index';
import { runCliOk } from '../test-cli';
import { topicPoolsWorkspace } from '../test-topic-pools';
import { Workspace } from '../../workspace/workspace';
import { scoreToTheEnd } from './train';

let dir: string;
beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-train-overlap-first-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Pools T and D, 6 queries × 3 candidates each (candidate 0 relevant); D's first query is T's first query. */
const workspace = (): Promise<string> =>
  topicPoolsWorkspace(dir, {
    pools: ['T', 'D'],
    queryTitle: (pool, q, topic) => `${pool} question ${q} about ${topic}`,
    candidateBody: (text, pool) => `${text} candidate ${pool}`,
    queryId: (pool, q) => (pool === 'D' && q === 0 ? 'Tq0' : `${pool}q${q}`),
  });

describe('qpairs train with a dev pool', () => {
  it('says the overlap check before the first epoch, once', async () => {
    const w = await workspace();
    // Standard output and standard error in the order written.
    const lines: string[] = [];
    const code = await main(['train', w, '--model', 'dae', '--name', 'dae', '--train-pool', 'T', '--dev-pool', 'D', '--epochs', '2'], {
      log: (s) => lines.push(...s.split('\n')),
      err: (s) => lines.push(...s.split('\n')),
    });
    expect(code, lines.join('\n')).toBe(0);
    const check = lines.findIndex((l) => l.startsWith('overlap check: 1 of the 6 training queries are 1 of the 6 queries of dev pool "D"'));
    const firstEpoch = lines.findIndex((l) => /^epoch 1\/2: loss/.test(l));
    expect(check, lines.join('\n')).toBeGreaterThanOrEqual(0);
    expect(firstEpoch, lines.join('\n')).toBeGreaterThan(check);
    expect(lines.filter((l) => l.startsWith('overlap check:'))).toHaveLength(1);
  }, 60_000);
});

describe('Ctrl-C while qpairs train scores the pools', () => {
  it('is said to come too late (scoring goes on to the end), naming the pool under way; every pool is still scored', async () => {
    const w = await workspace();
    await runCliOk('train', w, '--model', 'tfidf', '--name', 'tf', '--train-pool', 'T');
    const ws = Workspace.open(w);
    try {
      const ac = new AbortController();
      ac.abort(); // Ctrl-C came as training ended: the model is stored, the scoring starts.
      const err: string[] = [];
      const scored = await scoreToTheEnd(ws, 'tf', { log: () => {}, err: (s) => err.push(s) }, ac.signal);
      expect(scored.map((p) => p.pool)).toEqual(['T', 'D']);
      expect(err).toEqual(['Ctrl-C: the model "tf" is stored; scoring the pools with it goes on to the end (pool T, 1 of 2), then the command ends — a pool left unscored would lack its run']);
    } finally {
      ws.close();
    }
  }, 60_000);
});
