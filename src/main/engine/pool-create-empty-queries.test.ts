/**
 * A query BM25 finds no candidate for (a title of stop words, an empty text) is kept in the pool
 * with nothing to label: pool.create names such queries, and the Pools screen says what the CLI
 * says of them (shared/pool-notes.ts). The app said nothing, and eval counted "1 of 3 queries" for ever.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandResults } from '../../shared/contract';
import { queriesWithoutCandidateNote } from '../../shared/pool-notes';
import { Workspace } from '../workspace/workspace';
import { Engine } from './engine';

let dir: string;
let engine: Engine;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-pool-empty-'));
  const ws = Workspace.create(path.join(dir, 'w.qpairs'));
  ws.transaction(() => {
    ws.upsertQuestion({ id: 'a1', source: 't', title: 'wifi drops after suspend', body: 'network card driver' });
    ws.upsertQuestion({ id: 'a2', source: 't', title: 'wifi drops after resume', body: 'network card laptop' });
    ws.upsertQuestion({ id: 'a3', source: 't', title: 'network card driver missing', body: 'wifi laptop' });
    // Stop words only (the default analyzer drops them) and no body: no term to retrieve with.
    ws.upsertQuestion({ id: 'stop', source: 't', title: 'the of and', body: '' });
  });
  engine = new Engine(ws, { transport: 'electron' });
});
afterAll(() => {
  engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('pool.create names the queries BM25 finds no candidate for', () => {
  it('in its result, in pool order; none when every query has candidates', async () => {
    const made = (await engine.invoke('pool.create', { name: 'p', queries: ['a1', 'stop', 'a2'], depth: 2 })) as CommandResults['pool.create'];
    expect(made).toMatchObject({ name: 'p', queries: 3, pairs: 4, queriesWithoutCandidate: ['stop'] });
    expect(queriesWithoutCandidateNote(made.queriesWithoutCandidate, made.queries)).toBe(
      '1 of the 3 queries has no candidate (BM25 finds no other question for it: stop): nothing to label there, and no metric counts it',
    );
    const full = (await engine.invoke('pool.create', { name: 'q', queries: ['a1', 'a2'], depth: 2 })) as CommandResults['pool.create'];
    expect(full.queriesWithoutCandidate).toEqual([]);
    expect(queriesWithoutCandidateNote(full.queriesWithoutCandidate, full.queries)).toBeNull();
  });

  it('names the first ten of many', () => {
    const ids = Array.from({ length: 12 }, (_, i) => `z${i}`);
    expect(queriesWithoutCandidateNote(ids, 1200)).toBe(
      '12 of the 1,200 queries have no candidate (BM25 finds no other question for them: z0, z1, z2, z3, z4, z5, z6, z7, z8, z9, …): nothing to label there, and no metric counts them',
    );
  });
});
