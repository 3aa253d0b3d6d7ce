/**
 * Test fixtures: a fresh workspace for each test with questions q, c1–c3 and the binary pool p (q → c1,
 * c2, c3); and a large pool labeled by three annotators.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { assignPool } from '../gold';
import { Workspace } from '../workspace/workspace';

export function useOneQueryPool(prefix: string): { readonly ws: Workspace } {
  let dir = '';
  let ws: Workspace | null = null;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), prefix));
    ws = Workspace.create(path.join(dir, 'w.qpairs'));
    for (const id of ['q', 'c1', 'c2', 'c3']) ws.upsertQuestion({ id, source: 's', title: id, body: id });
    ws.createPool({ name: 'p', scheme: 'binary' });
    ws.addPoolQuery('p', 'q', ['c1', 'c2', 'c3']);
  });
  afterEach(() => {
    ws?.close();
    ws = null;
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    get ws(): Workspace {
      if (!ws) throw new Error('the one-query pool exists only inside a test');
      return ws;
    },
  };
}

/**
 * Adds questions q0, q1, … and the binary pool p of `queries` queries × `candidates` candidates (query
 * q(k·(candidates+1)), its candidates the ids after it), assigned to x, y and z with full overlap, each
 * of whom labels every pair (similar with probability 0.4, seeded): what the datasheet's agreement
 * bootstrap takes seconds on. Inside the caller's transaction.
 */
export function addThreeAnnotatorPool(ws: Workspace, queries: number, candidates: number): void {
  let s = 5;
  const rnd = (): number => ((s = (s * 1103515245 + 12345) % 2 ** 31), s / 2 ** 31);
  for (let i = 0; i < queries * (candidates + 1); i++) ws.upsertQuestion({ id: `q${i}`, source: 't', title: `t${i}`, body: `b${i}` });
  ws.createPool({ name: 'p', scheme: 'binary' });
  for (let q = 0; q < queries; q++) {
    const base = q * (candidates + 1);
    ws.addPoolQuery('p', `q${base}`, Array.from({ length: candidates }, (_, c) => `q${base + c + 1}`));
  }
  assignPool(ws, 'p', ['x', 'y', 'z'], null);
  for (let q = 0; q < queries; q++) {
    const base = q * (candidates + 1);
    for (let c = 1; c <= candidates; c++) {
      for (const a of ['x', 'y', 'z']) ws.addLabel({ pool: 'p', queryId: `q${base}`, candidateId: `q${base + c}`, annotator: a, value: rnd() < 0.4 ? '1' : '0', origin: 't' });
    }
  }
}
