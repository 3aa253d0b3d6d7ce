import { describe, it, expect } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureDemoWorkspace, demoDir, DEMO_POOL } from './demo';
import { Workspace } from '../workspace/workspace';

describe('demo workspace', () => {
  it('is created once from resources/demo, ready to label', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-demo-'));
    try {
      const file = path.join(dir, 'demo.qpairs');
      await ensureDemoWorkspace(file);
      expect(existsSync(`${file}.creating`)).toBe(false);
      const ws = Workspace.open(file);
      const s = ws.stats();
      expect(s).toMatchObject({ questions: 300, duplicatePairs: 40, pools: 1, labels: 0, indexedQuestions: 300 });
      const pool = ws.pool(DEMO_POOL);
      expect(pool).toMatchObject({ queries: 30, pairs: 600, scheme: 'binary' });
      expect(pool.guidelines).toMatch(/similar/);
      // The BM25 top-20 of a clustered query should usually hold one of its paraphrases.
      const clusters = (JSON.parse(readFileSync(path.join(demoDir(), 'clusters.json'), 'utf8')) as { clusters: string[][] }).clusters;
      const clusterOf = new Map<string, string[]>();
      for (const c of clusters) for (const id of c) clusterOf.set(id, c);
      const clustered = ws.poolQueries(DEMO_POOL).filter((q) => clusterOf.has(q.queryId));
      const hit = clustered.filter((q) => q.candidates.some((c) => clusterOf.get(q.queryId)!.includes(c) && c !== q.queryId));
      expect(clustered.length).toBeGreaterThan(10);
      expect(hit.length / clustered.length).toBeGreaterThan(0.7);
      ws.close();
      await ensureDemoWorkspace(file); // second call leaves it alone
      const again = Workspace.open(file);
      expect(again.stats().questions).toBe(300);
      again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
