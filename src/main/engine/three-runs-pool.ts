/**
 * Tests of the labeling orders: pool `p` of `queries` queries q<i>, each with `candidates` candidates
 * q<i>c0…, labeled by annotators alice and bob, and three runs — "good" ranks c0 first, "bad" last,
 * "mixed" alternates query by query.
 */
import type { Workspace } from '../workspace/workspace';

export function fillThreeRunsPool(ws: Workspace, o: { queries: number; candidates: number; blind?: boolean }): void {
  const C = o.candidates;
  ws.transaction(() => {
    for (const who of ['alice', 'bob']) ws.ensureAnnotator(who, 'annotator');
    ws.createPool({ name: 'p', scheme: 'binary', blind: o.blind });
    const runs = ['good', 'bad', 'mixed'].map((r) => ws.ensureRun('p', r, 'test'));
    for (let i = 0; i < o.queries; i++) {
      const cands = Array.from({ length: C }, (_, c) => `q${i}c${c}`);
      for (const id of [`q${i}`, ...cands]) ws.upsertQuestion({ id, source: 'test', title: `title ${id}`, body: `body ${id}` });
      ws.addPoolQuery('p', `q${i}`, cands);
      cands.forEach((c, k) => {
        ws.setRunScore(runs[0]!, `q${i}`, c, C - k);
        ws.setRunScore(runs[1]!, `q${i}`, c, k);
        ws.setRunScore(runs[2]!, `q${i}`, c, i % 2 ? C - k : k);
      });
    }
  });
}
