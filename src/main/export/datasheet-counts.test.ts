import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Workspace } from '../workspace/workspace';
import { buildExport } from './index';

let dir: string;
let ws: Workspace;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-datasheet-counts-'));
  ws = Workspace.create(path.join(dir, 'w.qpairs'));
  for (const id of ['q', 'c1', 'c2', 'c3']) ws.upsertQuestion({ id, source: 's', title: id, body: id });
  ws.createPool({ name: 'p', scheme: 'binary' });
  ws.addPoolQuery('p', 'q', ['c1', 'c2', 'c3']);
});
afterEach(() => {
  ws.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the datasheet's agreement counts take their noun's number", () => {
  it('a one-query pool: "in 1 query" (it said "in 1 queries")', () => {
    for (const [c, a, b] of [['c1', '1', '1'], ['c2', '0', '1'], ['c3', '0', '0']] as const) {
      ws.addLabel({ pool: 'p', queryId: 'q', candidateId: c, annotator: 'alice', value: a, origin: 'test' });
      ws.addLabel({ pool: 'p', queryId: 'q', candidateId: c, annotator: 'bob', value: b, origin: 'test' });
    }
    const sheet = buildExport(ws, 'p', 'jsonl', 'p.jsonl', { bootstrap: 20 }).datasheet.content;
    expect(sheet).toContain('2 annotators (alice, bob), 3 labeled pairs in 1 query. ');
  });
});
