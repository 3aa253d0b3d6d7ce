import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AggregationSummary, PoolEvaluation } from '../../shared/contract';
import { parseArgs } from '../../shared/contract';
import { noAnnotatorsNote } from '../../shared/gold';
import { Workspace } from '../workspace/workspace';
import { Engine } from './engine';
import { evaluatePool } from './evaluate';

let dir: string;
let ws: Workspace;
let engine: Engine;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-eval-empty-'));
  ws = Workspace.create(path.join(dir, 'w.qpairs'));
  ws.transaction(() => {
    for (const id of ['q', 'a', 'b']) ws.upsertQuestion({ id, source: 's', title: id, body: id });
    // An imported pool: its labels are gold's, no annotator labels it.
    ws.createPool({ name: 'imported', scheme: 'binary', blind: false });
    ws.addPoolQuery('imported', 'q', ['a', 'b']);
    for (const c of ['a', 'b']) ws.addLabel({ pool: 'imported', queryId: 'q', candidateId: c, annotator: 'gold', value: c === 'a' ? '1' : '0', origin: 'import:test' });
    // A team pool: two annotators who disagree on every pair, so nothing is resolved yet.
    ws.createPool({ name: 'team', scheme: 'binary', blind: false });
    ws.addPoolQuery('team', 'q', ['a', 'b']);
    for (const c of ['a', 'b']) {
      ws.addLabel({ pool: 'team', queryId: 'q', candidateId: c, annotator: 'alice', value: '1', origin: 'test' });
      ws.addLabel({ pool: 'team', queryId: 'q', candidateId: c, annotator: 'bob', value: '0', origin: 'test' });
    }
    ws.createPool({ name: 'new', scheme: 'binary', blind: false });
    ws.addPoolQuery('new', 'q', ['a', 'b']);
  });
  engine = new Engine(ws, { transport: 'electron' });
});
afterEach(() => {
  engine.close();
  rmSync(dir, { recursive: true, force: true });
});

const reasons = async (pool: string): Promise<[string | null, string | null, string | null]> => {
  const app = (await engine.invoke('eval.pool', { pool, annotator: '@aggregate' })) as PoolEvaluation;
  const cli = evaluatePool(ws, parseArgs('eval.pool', { pool, annotator: '@aggregate' }));
  // What the Team panel and `qpairs aggregate` say beside the pool's aggregate.
  const team = noAnnotatorsNote((await engine.invoke('pool.aggregation', { pool })) as AggregationSummary);
  return [app.reason, cli.reason, team];
};

describe('@aggregate with nothing to show says why', () => {
  it('a pool without annotators: its labels are gold\'s (it said "no pair is resolved yet"), in one sentence wherever it is said', async () => {
    const want = '@aggregate combines the labels of pool "imported"\'s annotators, and it has none: its labels are imported as gold, which evaluation and exports use by default';
    expect(await reasons('imported')).toEqual([want, want, want]);
    const none = '@aggregate combines the labels of pool "new"\'s annotators, and it has none: assign annotators to label it (Pools → Team, or qpairs assign)';
    expect(await reasons('new')).toEqual([none, none, none]);
  });
  it('a pool whose annotators disagree everywhere: nothing is resolved yet, as before', async () => {
    const want = '@aggregate has no labels in pool "team": no pair is resolved yet (unlabeled, or disagreements and "?" waiting for a judge)';
    expect(await reasons('team')).toEqual([want, want, null]);
  });
});
