/**
 * `qpairs train --dev-pool` printed its "overlap check:" line after the training (the Models screen shows it
 * before the first epoch): it is known before training starts, and is said then, before the first epoch's line.
 * A Ctrl-C while the stored model scored the pools was ignored in silence until the scoring ended.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { main } from '../index';
import { runCliOk } from '../test-cli';
import { Workspace } from '../../workspace/workspace';
import { scoreToTheEnd } from './train';

let dir: string;
beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-train-overlap-first-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const TOPICS = ['visa renewal office', 'beach swimming sand', 'car insurance price', 'school fees children', 'bank account salary', 'apartment rent villa'];

/** Pools T and D, 6 queries × 3 candidates each (candidate 0 relevant); D's first query is T's first query. */
async function workspace(): Promise<string> {
  const w = path.join(dir, 'W.qpairs');
  const questions: string[] = [];
  const labels: Record<string, string[]> = { T: ['query_id,candidate_id,annotator,label'], D: ['query_id,candidate_id,annotator,label'] };
  for (const pool of ['T', 'D'] as const) {
    TOPICS.forEach((topic, q) => {
      const qid = pool === 'D' && q === 0 ? 'Tq0' : `${pool}q${q}`;
      if (qid === `${pool}q${q}`) questions.push(JSON.stringify({ id: qid, title: `${pool} question ${q} about ${topic}`, body: `${topic} ${pool} ${q}` }));
      for (let k = 0; k < 3; k++) {
        const cid = `${pool}q${q}c${k}`;
        const text = k === 0 ? topic : TOPICS[(q + k) % TOPICS.length]!;
        questions.push(JSON.stringify({ id: cid, title: `${text} ${k}`, body: `${text} candidate ${pool}` }));
        labels[pool]!.push(`${qid},${cid},gold,${k === 0 ? 1 : 0}`);
      }
    });
  }
  const file = (name: string, lines: string[]) => {
    const p = path.join(dir, name);
    writeFileSync(p, lines.join('\n') + '\n');
    return p;
  };
  await runCliOk('init', w);
  await runCliOk('import', w, '--format', 'questions-jsonl', file('q.jsonl', questions));
  for (const pool of ['T', 'D'] as const) await runCliOk('import', w, '--format', 'labels-csv', file(`labels-${pool}.csv`, labels[pool]!), '--pool', pool, '--scheme', 'binary');
  return w;
}

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
