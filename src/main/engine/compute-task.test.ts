/**
 * estimateWork's cost model: agreement.report and an export's datasheet cost one and the same
 * agreement estimate (agreementMs), so the two cannot drift apart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGREEMENT_NS_PER_UNIT, agreementWork } from '../gold/budget';
import { Workspace } from '../workspace/workspace';
import { agreementMs, estimateWork, type ExportTask } from './compute-task';

let dir: string;
let ws: Workspace;

/** Pool `name`: 10 queries × 5 candidates, each pair labeled by `annotators`. */
function pool(name: string, annotators: string[]): void {
  ws.transaction(() => {
    ws.createPool({ name, scheme: 'binary' });
    for (let q = 0; q < 10; q++) {
      const cands = Array.from({ length: 5 }, (_, j) => `d${q * 6 + j + 1}`);
      ws.addPoolQuery(name, `d${q * 6}`, cands);
      for (const [j, c] of cands.entries())
        for (const a of annotators) ws.addLabel({ pool: name, queryId: `d${q * 6}`, candidateId: c, annotator: a, value: (j + a.length) % 2 ? '1' : '0', origin: 'test' });
    }
  });
}

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-estimate-'));
  ws = Workspace.create(path.join(dir, 'w.qpairs'));
  ws.transaction(() => {
    for (let i = 0; i < 60; i++) ws.upsertQuestion({ id: `d${i}`, source: 't', title: `title ${i}`, body: `body ${i}` });
  });
  pool('three', ['alice', 'bob', 'carol']);
  pool('one', ['alice']);
});
afterAll(() => {
  ws?.close();
  rmSync(dir, { recursive: true, force: true });
});

const exportTask = (p: string, options: ExportTask['options'] = {}): ExportTask => ({ kind: 'export', pool: p, format: 'jsonl', out: path.join(dir, `${p}.jsonl`), options });

describe('estimateWork', () => {
  it('agreementMs is the fixed part (30 µs a pair) plus the resampling units at their measured cost', () => {
    expect(agreementMs(50, 3, 200)).toBeCloseTo(50 * 0.03 + (agreementWork(50, 3, 200) * AGREEMENT_NS_PER_UNIT) / 1e6, 9);
    expect(agreementMs(50, 4, 200)).toBeGreaterThan(agreementMs(50, 3, 200));
  });

  it('an agreement report costs agreementMs for the pool, its annotators, or its queries\' share', () => {
    expect(estimateWork(ws, { kind: 'agreement', pool: 'three', bootstrap: 200 }).ms).toBeCloseTo(agreementMs(50, 3, 200), 9);
    expect(estimateWork(ws, { kind: 'agreement', pool: 'three', annotators: ['alice', 'bob'] }).ms).toBeCloseTo(agreementMs(50, 2, 1000), 9);
    expect(estimateWork(ws, { kind: 'agreement', pool: 'three', queries: ['d0', 'd6'], bootstrap: 10 }).ms).toBeCloseTo(agreementMs(10, 3, 10), 9);
  });

  it('an export costs its files plus the same agreementMs, or its fixed part when the agreement is reused or impossible', () => {
    const files = 50 * 0.03;
    expect(estimateWork(ws, exportTask('three', { bootstrap: 200 })).ms).toBeCloseTo(files + agreementMs(50, 3, 200), 9);
    expect(estimateWork(ws, exportTask('three')).ms).toBeCloseTo(files + agreementMs(50, 3, 1000), 9);
    const reused = { agreement: null, note: 'reused' };
    expect(estimateWork(ws, exportTask('three', { datasheetAgreement: reused })).ms).toBeCloseTo(2 * files, 9);
    expect(estimateWork(ws, exportTask('one')).ms).toBeCloseTo(2 * files, 9);
  });
});
