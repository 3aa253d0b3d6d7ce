import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Workspace } from '../workspace/workspace';
import { importFiles } from '../import';
import { dataset } from '../../../tests/datasets';
import { clusterCount, findOverlap, groupedFolds, nearDuplicateClusters, type OverlapItem } from './index';

const FILES = {
  train1: dataset('semeval2016-task3/SemEval2016-Task3-CQA-QL-train-part1.v2.0.xml'),
  train2: dataset('semeval2016-task3/SemEval2016-Task3-CQA-QL-train-part2.xml'),
  dev: dataset('semeval2016-task3/SemEval2016-Task3-CQA-QL-dev.xml'),
};
let dir: string;
let ws: Workspace;

function poolQueries(pool: string): OverlapItem[] {
  return ws.poolQueries(pool).map((q) => {
    const r = ws.getQuestion(q.queryId)!;
    return { id: q.queryId, title: r.title, body: r.body };
  });
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-overlap-'));
  ws = Workspace.create(path.join(dir, 'o.qpairs'));
  for (const [pool, file] of Object.entries(FILES)) await importFiles(ws, 'semeval', [file], { pool });
});
afterAll(() => {
  ws.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('SemEval-2016 Task 3: how entangled the data is', () => {
  it('all 50 dev questions are in train part 1 (same text, other ids)', () => {
    const overlap = findOverlap(poolQueries('train1'), poolQueries('dev'));
    expect(overlap).toHaveLength(50);
    expect(new Set(overlap.map((o) => o.reason))).toEqual(new Set(['same-text']));
    // dev Q268…Q317 are train part 1's Q1…Q50, renumbered.
    expect(overlap[0]).toMatchObject({ query: 'Q268', trainingId: 'Q1', jaccard: 1 });
    expect(findOverlap(poolQueries('train2'), poolQueries('dev'))).toHaveLength(0);
  });

  it('the 170 training queries (part 1 + part 2) are 117 distinct questions', () => {
    const training = [...poolQueries('train1'), ...poolQueries('train2')];
    expect(training).toHaveLength(170);
    const clusters = nearDuplicateClusters(training);
    expect(clusterCount(clusters)).toBe(117);
    // Part 1's 53 questions after the dev copies are each a copy of a part 2 question.
    const part2Clusters = new Set(poolQueries('train2').map((q) => clusters.get(q.id)));
    expect(part2Clusters.size).toBe(67);
    expect(poolQueries('train1').slice(50).every((q) => part2Clusters.has(clusters.get(q.id)))).toBe(true);
    // Grouped 5-fold CV keeps each copy with its original.
    const folds = groupedFolds(clusters, 5, 1);
    const foldOf = new Map(folds.flatMap((f, i) => f.map((id) => [clusters.get(id)!, i] as const)));
    for (const [i, f] of folds.entries()) for (const id of f) expect(foldOf.get(clusters.get(id)!)).toBe(i);
    expect(() => groupedFolds(clusters, 118, 1)).toThrow(/only 117/);
  });
});
