/**
 * Draws are the pool's, shared by every assigned annotator, and the go-to list put every drawn query
 * first in draw order: in a blind pool, bob's list showed which queries alice (further on) had drawn,
 * and how many. In a blind pool an annotator's list now puts first only the draws she has reached (up
 * to her next); an open pool's list still shows every draw first. Her next query is unchanged: the
 * first drawn one she has not done, then the others' next draws in their order.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Workspace } from '../workspace/workspace';
import { Engine } from './engine';
import type { AnnotateQueryItem, QueryView } from '../../shared/contract';

let dir: string;
beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-blind-draws-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function engineWith(blind: boolean): Engine {
  const ws = Workspace.create(path.join(dir, `${blind}.qpairs`));
  ws.transaction(() => {
    ws.ensureAnnotator('alice', 'annotator');
    ws.ensureAnnotator('bob', 'annotator');
    ws.createPool({ name: 'p', scheme: 'binary', blind });
    for (let i = 0; i < 8; i++) {
      const cands = [`q${i}a`, `q${i}b`];
      for (const id of [`q${i}`, ...cands]) ws.upsertQuestion({ id, source: 'test', title: `title ${id}`, body: `body ${id}` });
      ws.addPoolQuery('p', `q${i}`, cands);
    }
  });
  ws.db.prepare(`UPDATE pools SET label_order = 'random', order_seed = 3 WHERE name = 'p'`).run();
  return new Engine(ws, { transport: 'http' });
}

const as = (annotator: string) => ({ annotator, local: false });

async function labelNext(engine: Engine, annotator: string): Promise<string> {
  const v = (await engine.invoke('annotate.query', { pool: 'p', annotator }, as(annotator))) as QueryView;
  for (const c of v.candidates) await engine.invoke('label.set', { pool: 'p', queryId: v.queryId, candidateId: c.id, annotator, value: '0' }, as(annotator));
  return v.queryId;
}

const list = async (engine: Engine, annotator: string): Promise<string[]> =>
  ((await engine.invoke('annotate.queries', { pool: 'p', annotator }, as(annotator))) as AnnotateQueryItem[]).map((q) => q.id);

describe('the draws of an ordered pool in an annotator’s list', () => {
  it('blind: bob’s list does not move as alice draws ahead; his next is her first draw, then her second', async () => {
    const engine = engineWith(true);
    try {
      const bobNext = (await engine.invoke('annotate.query', { pool: 'p', annotator: 'bob' }, as('bob'))) as QueryView;
      const bobBefore = await list(engine, 'bob');
      const aliceDid = [await labelNext(engine, 'alice'), await labelNext(engine, 'alice'), await labelNext(engine, 'alice')];
      expect(aliceDid[0]).toBe(bobNext.queryId); // one shared sequence of draws
      expect(await list(engine, 'bob')).toEqual(bobBefore); // her 2nd and 3rd draws are not shown first in his list
      expect((await list(engine, 'alice')).slice(0, 3)).toEqual(aliceDid); // her own reached draws, in draw order
      // He goes on through the same draws, in their order.
      expect(await labelNext(engine, 'bob')).toBe(aliceDid[0]);
      expect(await labelNext(engine, 'bob')).toBe(aliceDid[1]);
      expect((await list(engine, 'bob')).slice(0, 3)).toEqual(aliceDid);
    } finally {
      engine.close();
    }
  });

  it('open: every draw comes first, as before', async () => {
    const engine = engineWith(false);
    try {
      const aliceDid = [await labelNext(engine, 'alice'), await labelNext(engine, 'alice'), await labelNext(engine, 'alice')];
      expect((await list(engine, 'bob')).slice(0, 3)).toEqual(aliceDid);
    } finally {
      engine.close();
    }
  });
});
