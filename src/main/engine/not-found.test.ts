/**
 * Unknown ids are "not found" (HTTP 404), never an internal error (500): unknown pools, queries,
 * pairs, runs, models, annotators, label events and uploads raise NotFoundError (a QPairsError,
 * so the CLI still reports it as a user error), which the transports map to 'not-found'.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseArgs } from '../../shared/contract';
import { NotFoundError, QPairsError } from '../errors';
import { statusOf, toWireError } from '../serve/wire';
import { getModel } from '../training/store';
import { Workspace } from '../workspace/workspace';
import { Engine } from './engine';
import { evaluateQuery } from './evaluate';

let dir: string;
let ws: Workspace;
let engine: Engine;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-notfound-'));
  ws = Workspace.create(path.join(dir, 'w.qpairs'));
  ws.transaction(() => {
    for (const id of ['q1', 'c1', 'c2']) ws.upsertQuestion({ id, source: 't', title: id, body: id });
    ws.createPool({ name: 'p', scheme: 'binary' });
    ws.addPoolQuery('p', 'q1', ['c1', 'c2']);
    const r1 = ws.ensureRun('p', 'r1', 'test');
    const r2 = ws.ensureRun('p', 'r2', 'test');
    ws.setRunScore(r1, 'q1', 'c1', 1);
    ws.setRunScore(r2, 'q1', 'c2', 1);
    for (const a of ['alice', 'bob']) ws.addLabel({ pool: 'p', queryId: 'q1', candidateId: 'c1', annotator: a, value: '1', origin: 'test' });
  });
  engine = new Engine(ws, { transport: 'electron' });
});
afterAll(() => {
  engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

const thrown = (f: () => unknown): unknown => {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error('did not throw');
};

describe('lookups of unknown ids throw NotFoundError', () => {
  it('pool, query, pair, label event, model', () => {
    for (const e of [
      thrown(() => ws.pool('nope')),
      thrown(() => evaluateQuery(ws, parseArgs('eval.query', { pool: 'p', queryId: 'nope' }))),
      thrown(() => ws.addLabel({ pool: 'p', queryId: 'q1', candidateId: 'nope', annotator: 'alice', value: '1', origin: 'test' })),
      thrown(() => ws.undoLabel(99_999)),
      thrown(() => getModel(ws, 'nope')),
    ]) {
      expect(e).toBeInstanceOf(NotFoundError);
      expect(e).toBeInstanceOf(QPairsError); // the CLI's user errors
    }
    expect((thrown(() => ws.pool('nope')) as Error).message).toBe('no pool named "nope" (pools: p)');
  });

  it('map to the wire code not-found and HTTP 404', () => {
    const w = toWireError(new NotFoundError('no pool named "x"'));
    expect(w).toEqual({ code: 'not-found', message: 'no pool named "x"' });
    expect(statusOf(w.code)).toBe(404);
    expect(toWireError(new QPairsError('bad'))).toEqual({ code: 'user-error', message: 'bad' });
  });
});

describe('through the engine (Engine.invoke maps NotFoundError to ContractError "not-found")', () => {
  const cases: Array<[string, unknown, RegExp]> = [
    ['eval.query', { pool: 'p', queryId: 'nope' }, /query nope is not in pool "p"/],
    ['eval.query', { pool: 'nope', queryId: 'q1' }, /no pool named "nope"/],
    ['pool.progress', { pool: 'nope' }, /no pool named "nope"/],
    ['agreement.report', { pool: 'nope' }, /no pool named "nope"/],
    ['agreement.report', { pool: 'p', annotators: ['alice', 'zed'] }, /no annotator named "zed"/],
    ['eval.compare', { pool: 'p', runs: ['r1', 'zz'], annotator: 'alice' }, /pool "p" has no run "zz"/],
    ['label.set', { pool: 'p', queryId: 'q1', candidateId: 'nope', annotator: 'alice', value: '1' }, /is not in pool "p"/],
    ['annotator.setRole', { name: 'zed', role: 'judge' }, /no annotator named "zed"/],
  ];
  it.each(cases)('%s %j → not-found (404)', async (command, args, message) => {
    const e = await engine.invoke(command, args).then(
      () => null,
      (x: unknown) => x,
    );
    const w = toWireError(e);
    expect(w.message).toMatch(message);
    expect(w.code).toBe('not-found');
    expect(statusOf(w.code)).toBe(404);
  });
});
