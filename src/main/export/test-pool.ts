/** Test fixture: a fresh workspace for each test with questions q, c1–c3 and the binary pool p (q → c1, c2, c3). */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
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
