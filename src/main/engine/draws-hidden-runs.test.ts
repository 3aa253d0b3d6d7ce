/**
 * An ordered pool's draws (and decide-rankers-mtc's next pair) are shared by everyone who labels it,
 * so they are made from the runs its annotators are shown: a run that carries a blind pool's labels
 * (run-visibility.ts) must not choose an open pool's next query, whoever's request makes the draw.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Workspace } from '../workspace/workspace';
import { writeLiveSetting } from '../training/live-store';
import { readDraws, writePoolOrder } from '../active/draw-log';
import type { QueryOrder } from '../active/query-order';
import { Engine } from './engine';
import { nextPairFor } from './label-order-candidates';
import { runsOnBlindLabels } from './run-visibility';

let dir: string;
beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-draws-hidden-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const alice = { annotator: 'alice', local: false };
const Q = 8;
const C = 4;

/**
 * Open pool "o" in `order`: runs bm25 and tfidf, bob's labels on half its queries, and (unless
 * `hidden` is null) a live run whose pool trains on the blind pool "p" — hidden from annotators —
 * ranking the candidates as `hidden` says.
 */
function workspace(file: string, order: QueryOrder, hidden: 'forward' | 'backward' | null): Workspace {
  const ws = Workspace.create(path.join(dir, file));
  ws.transaction(() => {
    ws.ensureAnnotator('alice', 'annotator');
    ws.ensureAnnotator('bob', 'annotator');
    ws.createPool({ name: 'p', scheme: 'binary', blind: true });
    ws.createPool({ name: 'o', scheme: 'binary', blind: false });
    const bm25 = ws.ensureRun('o', 'bm25', 'retriever');
    const tfidf = ws.ensureRun('o', 'tfidf', 'retriever');
    const live = hidden ? ws.ensureRun('o', 'live-fused', 'live') : null;
    for (let i = 0; i < Q; i++) {
      const cands = Array.from({ length: C }, (_, c) => `q${i}c${c}`);
      ws.addPoolQuery('o', `q${i}`, cands);
      cands.forEach((c, k) => {
        ws.setRunScore(bm25, `q${i}`, c, C - k);
        ws.setRunScore(tfidf, `q${i}`, c, (i + k) % C);
        if (live) ws.setRunScore(live, `q${i}`, c, hidden === 'forward' ? C - ((k + i) % C) : k);
        if (i % 2 === 0) ws.addLabel({ pool: 'o', queryId: `q${i}`, candidateId: c, annotator: 'bob', value: k === i % C ? '1' : '0', origin: 'test' });
      });
    }
    writeLiveSetting(ws, 'o', { enabled: false, everyLabels: 10, idleSeconds: 30, models: ['fused'], trainPools: ['p'] });
  });
  writePoolOrder(ws, 'o', order, 3);
  return ws;
}

describe('draws of an open pool with a run hidden from its annotators', () => {
  it('an annotator’s next query is drawn from the runs she is shown: the same draws whatever the hidden run ranks', async () => {
    const drawsOf = async (file: string, hidden: 'forward' | 'backward' | null) => {
      const ws = workspace(file, 'decide-rankers', hidden);
      if (hidden) expect([...runsOnBlindLabels(ws, 'o')]).toEqual(['live-fused']);
      const engine = new Engine(ws, { transport: 'http' });
      await engine.invoke('annotate.query', { pool: 'o', annotator: 'alice' }, alice);
      const draws = readDraws(ws, 'o');
      engine.close();
      return draws;
    };
    const without = await drawsOf('none.qpairs', null);
    expect(without).toHaveLength(1);
    for (const [file, hidden] of [
      ['forward.qpairs', 'forward'],
      ['backward.qpairs', 'backward'],
    ] as const) {
      const draws = await drawsOf(file, hidden);
      // The logged draw (its query, probability and the predictions kept for the estimator) names no hidden run.
      expect(draws[0]!.predictions?.runs).toEqual(['bm25', 'tfidf']);
      expect(draws).toEqual(without);
    }
  });

  it('decide-rankers-mtc asks every annotator for the pair the shown runs choose', () => {
    const pairOf = (file: string, hidden: 'forward' | 'backward' | null) => {
      const ws = workspace(file, 'decide-rankers-mtc', hidden);
      const ids = ws.poolQueries('o').map((q) => q.queryId);
      const pair = nextPairFor(ws, 'o', 'alice', ids);
      ws.close();
      return pair;
    };
    const without = pairOf('none.qpairs', null);
    expect(without).not.toBeNull();
    expect(pairOf('forward.qpairs', 'forward')).toEqual(without);
    expect(pairOf('backward.qpairs', 'backward')).toEqual(without);
  });
});
