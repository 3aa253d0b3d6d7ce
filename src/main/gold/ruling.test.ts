/** A judge's ruling (checkRuling, review.ts): "?" settles nothing, so review.settle refuses it. */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ReviewQueue } from '../../shared/gold';
import { Engine } from '../engine/engine';
import { Workspace } from '../workspace/workspace';
import { addAnnotator, assignPool } from '.';

let dir: string;
let file: string;
let ws: Workspace;
let engine: Engine;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-ruling-'));
  file = path.join(dir, 'r.qpairs');
  ws = Workspace.create(file);
  ws.createPool({ name: 'p', scheme: 'binary' });
  ws.addPoolQuery('p', 'q1', ['a', 'b', 'c', 'd']);
  assignPool(ws, 'p', ['alice', 'bob'], null);
  addAnnotator(ws, 'judy', 'judge');
  const put = (c: string, who: string, v: string): void => void ws.addLabel({ pool: 'p', queryId: 'q1', candidateId: c, annotator: who, value: v, origin: 't' });
  put('a', 'alice', '1');
  put('a', 'bob', '0'); // disagreement
  put('b', 'alice', '1');
  put('b', 'bob', '1'); // agreed
  put('c', 'alice', '0');
  put('c', 'bob', '?'); // unsure: in dispute too
  // d: only alice so far (no dispute yet)
  put('d', 'alice', '1');
  engine = new Engine(ws, { transport: 'electron' });
});
afterEach(() => {
  engine.close();
  rmSync(dir, { recursive: true, force: true });
});

const judyLabels = (): string[] => ws.currentLabels('p', 'judy').map((l) => `${l.candidateId}=${l.value}`);
const UNSURE_REFUSED = /^a ruling must be one of the pool's labels \(1, 0\); "\?" settles nothing — leave the pair for another judge or discuss it$/;

describe('a judge\'s "?" is refused, not saved as a ruling that settles nothing', () => {
  it('review.settle with "?" on a disagreement or an unsure pair: a clear error, nothing saved, the pair still waits', async () => {
    for (const c of ['a', 'c']) {
      await expect(engine.invoke('review.settle', { pool: 'p', judge: 'judy', queryId: 'q1', candidateId: c, value: '?' })).rejects.toMatchObject({
        code: 'user-error',
        message: expect.stringMatching(UNSURE_REFUSED),
      });
      // Spelled with spaces it is still "?".
      await expect(engine.invoke('review.settle', { pool: 'p', judge: 'judy', queryId: 'q1', candidateId: c, value: ' ? ' })).rejects.toThrow(UNSURE_REFUSED);
    }
    expect(judyLabels()).toEqual([]);
    const q = (await engine.invoke('review.queue', { pool: 'p', judge: 'judy' })) as ReviewQueue;
    expect(q).toMatchObject({ total: 2, settled: 0, remaining: 2 });
    // A real ruling still settles.
    const ack = (await engine.invoke('review.settle', { pool: 'p', judge: 'judy', queryId: 'q1', candidateId: 'a', value: '1' })) as { remaining: number };
    expect(ack.remaining).toBe(1);
  });

  it('an annotator\'s "?" is still a label (the check is for judges only)', async () => {
    const ack = (await engine.invoke('label.set', { pool: 'p', queryId: 'q1', candidateId: 'd', annotator: 'bob', value: '?' })) as { saved: boolean };
    expect(ack.saved).toBe(true);
  });
});
