/**
 * A labels file imported into a mistyped pool (`dve` for dev) made a new pool of its pairs, and the
 * report said only "1 pool created": the labels were missing from dev, unseen. The import now warns,
 * naming the pool most likely meant; not for a series of pools (train1, train2) nor a name no pool is close to.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runImport } from '../engine/work';
import { cleanupTemp, tempDir, tempWorkspace } from './test-helpers';

afterEach(cleanupTemp);

describe('a labels import creating a pool', () => {
  it('warns when the new pool is named like an existing one, naming that pool', async () => {
    const dir = tempDir();
    const ws = tempWorkspace();
    const labels = path.join(dir, 'l.csv');
    writeFileSync(labels, 'query_id,candidate_id,label\nq1,c1,1\nq1,c2,0\n');
    const first = await runImport(ws, 'labels-csv', [labels], { pool: 'dev' });
    expect(poolNotes(first.warnings)).toEqual([]);

    const typo = await runImport(ws, 'qrels', [writeQrels(dir)], { pool: 'dve' });
    expect(typo.counts.poolsCreated).toBe(1);
    expect(poolNotes(typo.warnings)).toEqual(['pool "dve" was not in the workspace and is created by this import (did you mean dev? then undo this import and import again into pool dev)']);

    await runImport(ws, 'labels-csv', [labels], { pool: 'train1' });
    const series = await runImport(ws, 'labels-csv', [labels], { pool: 'train2' });
    expect(poolNotes(series.warnings)).toEqual([]);
    const far = await runImport(ws, 'labels-csv', [labels], { pool: 'heldout' });
    expect(poolNotes(far.warnings)).toEqual([]);
    ws.close();
  });
});

function writeQrels(dir: string): string {
  const f = path.join(dir, 'l.qrels');
  writeFileSync(f, 'q1 0 c1 1\n');
  return f;
}

/** The new-pool warnings (the others say the workspace lacks these questions). */
function poolNotes(warnings: readonly string[]): string[] {
  return warnings.filter((w) => w.includes('is created by this import'));
}
