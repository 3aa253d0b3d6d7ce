/**
 * A model whose kept epoch was chosen on a pool's labels (its dev pool) is flagged wherever its figures
 * on that pool are shown: dae "kept epoch 6 (dev MAP 72.65)", then `qpairs eval` on that dev pool showed
 * 72.65 as if held out. A single dev figure (tfidf: one version, nothing chosen) is not flagged, nor is
 * the model on a pool that chose nothing; a fusing model carries its feature run's flag.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCliOk } from './test-cli';
import { topicPoolsWorkspace } from './test-topic-pools';
import { Workspace } from '../workspace/workspace';
import { runComputeTask } from '../engine/compute-task';
import { buildExport } from '../export';

let dir: string;
beforeEach(() => (dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-cli-selected-on-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const ok = runCliOk;

/** Pools T (training), D (dev) and E (neither), 6 queries × 3 candidates each (candidate 0 relevant); run "order" ranks the relevant one last. */
const workspace = (): Promise<string> =>
  topicPoolsWorkspace(dir, {
    pools: ['T', 'D', 'E'],
    queryTitle: (pool, q, topic) => `${pool} question ${q} about ${topic}`,
    candidateBody: (text, pool) => `${text} candidate ${pool}`,
    runs: true,
  });

const FLAG = /^! dae: chosen on these queries \(its dev pool: the version kept scored best here\) — optimistic, not held out$/m;

describe('a model chosen on a pool (its dev pool)', () => {
  it('is flagged in eval, eval --compare and their --json on its dev pool only; a one-version model is not', async () => {
    const w = await workspace();
    await ok('train', w, '--model', 'dae', '--name', 'dae', '--train-pool', 'T', '--dev-pool', 'D', '--epochs', '3');
    await ok('train', w, '--model', 'tfidf', '--name', 'tf', '--train-pool', 'T', '--dev-pool', 'D');
    const plain = await ok('eval', w, '--pool', 'D');
    expect(plain).toMatch(FLAG);
    expect(plain).not.toMatch(/^! tf: chosen/m);
    expect(await ok('eval', w, '--pool', 'E')).not.toMatch(/chosen on these queries/);
    expect(await ok('eval', w, '--pool', 'D', '--compare', 'order,dae')).toMatch(FLAG);
    const j = JSON.parse(await ok('eval', w, '--pool', 'D', '--json')) as { runs: Record<string, { selectedOn?: unknown }> };
    expect(j.runs.dae!.selectedOn).toEqual({ by: 'dev', model: 'dae' });
    expect(j.runs.tf).not.toHaveProperty('selectedOn');
    expect(j.runs.order).not.toHaveProperty('selectedOn');
    const c = JSON.parse(await ok('eval', w, '--pool', 'D', '--compare', 'order,dae,tf', '--json')) as { runs: Array<{ name: string; selectedOn?: unknown }> };
    expect(c.runs.find((r) => r.name === 'dae')!.selectedOn).toEqual({ by: 'dev', model: 'dae' });
    expect(c.runs.find((r) => r.name === 'tf')).not.toHaveProperty('selectedOn');
    // models list (and the Models screen, from the same modelPoolOverlaps) says it per pool too (the pool's name, then what chose it).
    const list = await ok('models', 'list', w);
    expect(list.split('\n').find((l) => l.startsWith('dae '))).toMatch(/ T 6\/6, D its dev pool /);
    expect(list.split('\n').find((l) => l.startsWith('tf '))).toMatch(/ T 6\/6 /);
    const listed = (JSON.parse(await ok('models', 'list', w, '--json')) as { models: Array<{ name: string; overlap: Array<{ pool: string; selectedOn?: unknown }> }> }).models;
    expect(listed.find((m) => m.name === 'dae')!.overlap.find((o) => o.pool === 'D')!.selectedOn).toEqual({ by: 'dev', model: 'dae' });
    expect(listed.find((m) => m.name === 'tf')!.overlap.filter((o) => o.selectedOn)).toEqual([]);
  }, 120_000);

  it("is flagged in the app's comparison and the export datasheet, and a fusing model carries its feature's flag", async () => {
    const w = await workspace();
    await ok('train', w, '--model', 'dae', '--name', 'dae', '--train-pool', 'T', '--dev-pool', 'D', '--epochs', '2');
    // fused without a dev pool: it chose nothing on D itself, but its feature run dae's kept epoch was chosen there.
    await ok('train', w, '--model', 'fused', '--name', 'fz', '--train-pool', 'T', '--epochs', '1');
    const ws = Workspace.open(w);
    try {
      const v = runComputeTask(ws, { kind: 'compare', pool: 'D', runs: ['order', 'dae', 'fz'] });
      expect(v.runs.find((r) => r.name === 'dae')!.selectedOn).toEqual({ by: 'dev', model: 'dae' });
      expect(v.runs.find((r) => r.name === 'fz')!.selectedOn).toEqual({ by: 'dev', model: 'dae' });
      expect(v.runs.find((r) => r.name === 'order')).not.toHaveProperty('selectedOn');
      const e = runComputeTask(ws, { kind: 'compare', pool: 'E', runs: ['order', 'dae', 'fz'] });
      expect(e.runs.filter((r) => r.selectedOn)).toEqual([]);
      const sheet = buildExport(ws, 'D', 'jsonl', 'd.jsonl', { version: 't' }).datasheet.content;
      expect(sheet).toContain("Run dae: its model was chosen on these queries (its dev pool: the version kept scored best here); its figures on this pool are optimistic, not held out.");
      expect(buildExport(ws, 'E', 'jsonl', 'e.jsonl', { version: 't' }).datasheet.content).not.toContain('chosen on these queries');
    } finally {
      ws.close();
    }
    expect(await ok('eval', w, '--pool', 'D')).toMatch(/^! fz: chosen on these queries \(its feature run dae's dev pool: the version kept scored best here\) — optimistic, not held out$/m);
  }, 180_000);

  it('is flagged on the queries a cross-validated run scores out of fold when the CV chose its epoch count there', async () => {
    const w = await workspace();
    await ok('train', w, '--model', 'ltr', '--name', 'lcv', '--train-pool', 'T', '--cv', '2', '--repeats', '2');
    const j = JSON.parse(await ok('eval', w, '--pool', 'T', '--json')) as { runs: Record<string, { selectedOn?: unknown; overlap?: { trainedOn: number } }> };
    expect(j.runs.lcv!.overlap).toMatchObject({ trainedOn: 0 });
    expect(j.runs.lcv!.selectedOn).toEqual({ by: 'cv', model: 'lcv' });
    expect(await ok('eval', w, '--pool', 'T')).toMatch(/^! lcv: chosen on these queries \(its cross-validation set the epoch count on them\) — optimistic, not held out$/m);
    expect(JSON.parse(await ok('eval', w, '--pool', 'E', '--json')).runs.lcv).not.toHaveProperty('selectedOn');
  }, 180_000);

  it('never makes a leader chosen on the counted queries "decided": the verdict says its lead is optimistic', async () => {
    const w = await workspace();
    await ok('train', w, '--model', 'dae', '--name', 'dae', '--train-pool', 'T', '--dev-pool', 'D', '--epochs', '3');
    const verdict = (out: string) => out.split('\n').find((l) => /^(not )?decided: /.test(l)) ?? `no verdict in:\n${out}`;
    const d = await ok('eval', w, '--pool', 'D');
    expect(d, d).toMatch(/^dae +6 +100\.00/m);
    expect(verdict(d)).toBe(
      'not decided: dae leads, but its model was chosen on these queries (its dev pool: the version kept scored best here): its lead over the 6 queries counted is optimistic — compare the runs on a pool that neither trained nor chose it',
    );
  }, 120_000);
});
