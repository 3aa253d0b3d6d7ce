/**
 * The Export screen previews an export on every change of format or options; the datasheet's
 * agreement (a bootstrap: 20–40 s on a 40,000-pair pool) is the same for all of them, so the
 * engine reuses the last one until anything is written to the workspace.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const calls = { n: 0 };
vi.mock('../gold/agreement', async (importOriginal) => {
  const real = await importOriginal<typeof import('../gold/agreement')>();
  return { ...real, poolAgreement: (...a: Parameters<typeof real.poolAgreement>) => (calls.n++, real.poolAgreement(...a)) };
});

const { assignPool } = await import('../gold');
const { Workspace } = await import('../workspace/workspace');
const { Engine } = await import('./engine');
const { configureCompute } = await import('./compute');

let dir: string;
let engine: InstanceType<typeof Engine>;
let restore: ReturnType<typeof configureCompute>;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-export-cache-'));
  const ws = Workspace.create(path.join(dir, 'w.qpairs'));
  ws.transaction(() => {
    for (const id of ['q', 'a', 'b', 'c', 'r', 'd']) ws.upsertQuestion({ id, source: 's', title: id, body: id });
    ws.createPool({ name: 'p', scheme: 'binary' });
    ws.addPoolQuery('p', 'q', ['a', 'b', 'c']);
    ws.addPoolQuery('p', 'r', ['d']);
    assignPool(ws, 'p', ['x', 'y'], null);
    for (const [c, vx, vy] of [['a', '1', '1'], ['b', '0', '1'], ['c', '0', '0']] as const) {
      ws.addLabel({ pool: 'p', queryId: 'q', candidateId: c, annotator: 'x', value: vx, origin: 't' });
      ws.addLabel({ pool: 'p', queryId: 'q', candidateId: c, annotator: 'y', value: vy, origin: 't' });
    }
  });
  // On this thread, so the counting mock sees every computation.
  restore = configureCompute({ workerPath: null });
  engine = new Engine(ws, { transport: 'electron' });
});
afterEach(() => {
  engine.close();
  configureCompute(restore);
  rmSync(dir, { recursive: true, force: true });
});

const preview = (format: string, extra: Record<string, unknown> = {}) => engine.invoke('export.preview', { pool: 'p', format, lines: 2, ...extra }) as Promise<{ datasheet: string }>;
const agreementSection = (d: string): string => d.slice(d.indexOf('## Agreement'), d.indexOf('\n## ', d.indexOf('## Agreement') + 3));

describe("the Export screen's previews", () => {
  it('compute the agreement once across formats and options, again after a label, and show the same figures', async () => {
    calls.n = 0;
    const first = await preview('jsonl');
    expect(calls.n).toBe(1);
    expect(agreementSection(first.datasheet)).toContain('x – y');
    for (const [format, extra] of [['csv', {}], ['qrels', { annotator: 'x' }], ['jsonl', { text: false }]] as const) {
      const again = await preview(format, extra);
      expect(agreementSection(again.datasheet), format).toBe(agreementSection(first.datasheet));
    }
    expect(calls.n).toBe(1);
    // A label changes the agreement: the next preview computes it anew, with the new label in it.
    await engine.invoke('label.set', { pool: 'p', queryId: 'r', candidateId: 'd', annotator: 'x', value: '1' });
    await engine.invoke('label.set', { pool: 'p', queryId: 'r', candidateId: 'd', annotator: 'y', value: '1' });
    const after = await preview('jsonl');
    expect(calls.n).toBe(2);
    expect(agreementSection(after.datasheet)).not.toBe(agreementSection(first.datasheet));
  });
});
