/**
 * What an export computes. Its datasheet builds the pool's agreement rating table once: it sized the bootstrap on a
 * table of its own, then poolAgreement built the same table again (every pair × annotator twice,
 * on every `qpairs export` and every download). The figures stay those of `qpairs agreement`.
 * An export refused because its files exist (no --force) is refused before anything is computed:
 * on a 40,000-pair pool with 3 annotators the refusal came after the whole export, 45 s.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const calls = { n: 0 };
vi.mock('../gold/rating-table', async (importOriginal) => {
  const real = await importOriginal<typeof import('../gold/rating-table')>();
  return { ...real, poolRatingTable: (...a: Parameters<typeof real.poolRatingTable>) => (calls.n++, real.poolRatingTable(...a)) };
});

const { assignPool, poolAgreement } = await import('../gold');
const { Workspace } = await import('../workspace/workspace');
const { buildExport, writeExport } = await import('.');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-export-table-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the datasheet\'s agreement', () => {
  it('builds the rating table once and reports what qpairs agreement reports', () => {
    const ws = Workspace.create(path.join(dir, 'W.qpairs'));
    try {
      ws.createPool({ name: 'p', scheme: 'binary' });
      ws.addPoolQuery('p', 'q1', ['a', 'b', 'c']);
      ws.addPoolQuery('p', 'q2', ['d', 'e']);
      assignPool(ws, 'p', ['x', 'y'], null);
      for (const [q, c, vx, vy] of [['q1', 'a', '1', '1'], ['q1', 'b', '0', '1'], ['q1', 'c', '?', '0'], ['q2', 'd', '0', '0'], ['q2', 'e', '1', '1']] as const) {
        ws.addLabel({ pool: 'p', queryId: q, candidateId: c, annotator: 'x', value: vx, origin: 't' });
        ws.addLabel({ pool: 'p', queryId: q, candidateId: c, annotator: 'y', value: vy, origin: 't' });
      }
      calls.n = 0;
      const b = buildExport(ws, 'p', 'jsonl', 'p.jsonl', { bootstrap: 50 });
      expect(calls.n).toBe(1);
      const ag = poolAgreement(ws, 'p', { bootstrap: 50, seed: 1 });
      expect(b.datasheet.content).toContain(`| x – y | ${ag.pairs[0]!.items} | ${ag.pairs[0]!.percentAgreement.value!.toFixed(3)} | ${ag.pairs[0]!.cohenKappa.value!.toFixed(3)} |`);
      expect(b.datasheet.content).toContain(`2 annotators (x, y), ${ag.items} labeled pairs in ${ag.queries} queries`);
    } finally {
      ws.close();
    }
  });

  it('is not computed at all when the export is refused because its files exist', () => {
    const ws = Workspace.create(path.join(dir, 'R.qpairs'));
    try {
      ws.createPool({ name: 'p', scheme: 'binary' });
      ws.addPoolQuery('p', 'q1', ['a', 'b']);
      assignPool(ws, 'p', ['x', 'y'], null);
      for (const a of ['x', 'y']) for (const c of ['a', 'b']) ws.addLabel({ pool: 'p', queryId: 'q1', candidateId: c, annotator: a, value: '1', origin: 't' });
      mkdirSync(path.join(dir, 'hf'));
      for (const [format, out, there] of [
        ['jsonl', 'p.jsonl', 'p.jsonl.datasheet.md'],
        ['qrels', 'p.qrels', 'p.qrels'],
        ['hf-dataset', 'hf', 'hf/README.md'],
      ] as const) {
        const file = path.join(dir, there);
        writeFileSync(file, 'edited by hand');
        calls.n = 0;
        expect(() => writeExport(ws, 'p', format, path.join(dir, out))).toThrow(/refusing to overwrite/);
        expect(calls.n, format).toBe(0);
        expect(readFileSync(file, 'utf8')).toBe('edited by hand');
      }
      expect(existsSync(path.join(dir, 'p.jsonl'))).toBe(false);
      // With --force the export goes through (and builds the table once).
      calls.n = 0;
      writeExport(ws, 'p', 'jsonl', path.join(dir, 'p.jsonl'), { force: true });
      expect(calls.n).toBe(1);
    } finally {
      ws.close();
    }
  });
});
