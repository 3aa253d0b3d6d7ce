/**
 * A model evaluated on queries it was trained on is flagged wherever its figures are shown. The plain
 * table did; `eval --compare` printed ltr1 76.07 against the engine's 70.67 with p 0.02 on SemEval's
 * train part 2 — every one of the 67 queries a training query of ltr1 — with no word that the figure
 * was in-sample, and its `--json` runs carried no overlap either. Under the plain table, the verdict said
 * "decided: ltr1 is best on queries like these … labeling can stop here" from that in-sample lead.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCliOk } from './test-cli';
import { topicPoolsWorkspace } from './test-topic-pools';
import { Workspace } from '../workspace/workspace';
import { runComputeTask } from '../engine/compute-task';

let dir: string;
beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-cli-in-sample-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const ok = runCliOk;

/**
 * Pool T (the training pool) and pool E (other queries), 6 queries × 3 candidates each: candidate 0 shares
 * the query's topic (relevant), the others do not. Run "order" ranks them in reverse: the relevant one last.
 */
async function workspace(): Promise<string> {
  const w = await topicPoolsWorkspace(dir, {
    pools: ['T', 'E'],
    queryTitle: (pool, _q, topic) => `${pool === 'T' ? 'question about' : 'asking on'} ${topic}`,
    candidateBody: (text) => `${text} candidate`,
    runs: true,
  });
  await ok('train', w, '--model', 'tfidf', '--name', 'tf', '--train-pool', 'T');
  return w;
}

describe('a model evaluated on its own training queries', () => {
  it('is flagged in eval --compare, as in the plain table, and carries its overlap in --json', async () => {
    const w = await workspace();
    const plain = await ok('eval', w, '--pool', 'T');
    expect(plain).toMatch(/^! tf: trained on \d+ of these \d+ queries \(\d+ same id\) — not held out$/m);
    const cmp = await ok('eval', w, '--pool', 'T', '--compare', 'order,tf');
    expect(cmp).toMatch(/^! tf: trained on \d+ of these \d+ queries \(\d+ same id\) — not held out$/m);
    expect(cmp).not.toMatch(/^! order:/m);
    const j = JSON.parse(await ok('eval', w, '--pool', 'T', '--compare', 'order,tf', '--json')) as { queries: number; runs: Array<{ name: string; overlap?: { trainedOn: number; of: number } }> };
    expect(j.runs.find((r) => r.name === 'tf')!.overlap).toMatchObject({ trainedOn: j.queries, of: j.queries });
    expect(j.runs.find((r) => r.name === 'order')).not.toHaveProperty('overlap');
  }, 60_000);

  it("is flagged in the app's comparison (eval.compare's compute task) too", async () => {
    const w = await workspace();
    const ws = Workspace.open(w);
    try {
      const v = runComputeTask(ws, { kind: 'compare', pool: 'T', runs: ['order', 'tf'] });
      expect(v.runs.find((r) => r.name === 'tf')!.overlap).toMatchObject({ trainedOn: v.queries, of: v.queries, sameId: v.queries });
      expect(v.runs.find((r) => r.name === 'order')).not.toHaveProperty('overlap');
      const e = runComputeTask(ws, { kind: 'compare', pool: 'E', runs: ['order', 'tf'] });
      expect(e.runs.find((r) => r.name === 'tf')!.overlap).toMatchObject({ trainedOn: 0, of: e.queries });
    } finally {
      ws.close();
    }
  }, 60_000);

  it('never makes an in-sample leader "decided": the verdict says its lead is on its own training queries', async () => {
    const w = await workspace();
    const verdict = (out: string) => out.split('\n').find((l) => /^(not )?decided: /.test(l)) ?? `no verdict in:\n${out}`;
    const t = await ok('eval', w, '--pool', 'T');
    expect(t).toMatch(/^tf +6 +100\.00/m);
    expect(verdict(t)).toMatch(/^not decided: tf leads, but its model was trained on 6 of the 6 queries counted here \(same id, text or near-duplicate\): its lead over the 6 queries counted is in-sample/);
    expect(verdict(t)).not.toMatch(/can stop here|pool's MAPs are exact/);
    const j = JSON.parse(await ok('eval', w, '--pool', 'T', '--json')) as { runs: Record<string, { overlap?: unknown }> };
    expect(j.runs.tf!.overlap).toMatchObject({ trainedOn: 6, of: 6 });
    // On pool E, queries tf never saw, nothing is said of training.
    expect(verdict(await ok('eval', w, '--pool', 'E'))).not.toMatch(/trained on/);
  }, 60_000);
});
