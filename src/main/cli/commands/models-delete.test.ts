/**
 * Deleting a model whose run another stored model fuses (ltr, fused take the pools' runs as
 * features). Before: `qpairs models delete W tf` said only "deleted model tf and the runs it scored",
 * and the app "Model “tf” deleted, with the runs it had scored." — nothing said that the ltr model
 * built on that run would, scored again, rank every pool without it. The CLI and models.delete now
 * name the models that took the run and what it means for them.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataset } from '../../../../tests/datasets';
import { Engine } from '../../engine/engine';
import { Workspace } from '../../workspace/workspace';
import { runCli } from '../test-cli';

let dir: string;
let w: string;
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-models-delete-'));
  w = path.join(dir, 'w.qpairs');
  expect((await runCli('init', w)).code).toBe(0);
  const imp = await runCli('import', w, '--format', 'semeval', '--pool', 'dev', dataset('semeval2016-task3/SemEval2016-Task3-CQA-QL-dev.xml'));
  expect(imp.code, imp.err).toBe(0);
  for (const name of ['tf', 'tf2']) {
    const r = await runCli('train', w, '--model', 'tfidf', '--name', name, '--train-pool', 'dev');
    expect(r.code, r.err).toBe(0);
  }
  const l = await runCli('train', w, '--model', 'ltr', '--name', 'l1', '--train-pool', 'dev', '--epochs', '1', '--config', '{"embedding":false}');
  expect(l.code, l.err).toBe(0);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('deleting a model whose run another model takes as a feature', () => {
  it('qpairs models delete names the fusing model and what it loses', async () => {
    const r = await runCli('models', 'delete', w, 'tf');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('deleted model tf and the runs it scored');
    expect(r.out).toContain('note: l1 takes run "tf" as a feature: scored again, it ranks without it (the feature is 0); a new model named "tf" gives it that run again, or train l1 again');
    // The fusing model itself takes no other model's run: deleting it says nothing more.
    const l = await runCli('models', 'delete', w, 'l1');
    expect(l.code, l.err).toBe(0);
    expect(l.out.trim()).toBe('deleted model l1 and the runs it scored');
    const none = await runCli('models', 'delete', w, 'l1');
    expect(none.code).toBe(1);
    expect(none.err).toContain('no model named "l1" (models: tf2)');
  });

  it('qpairs models delete --json prints JSON, as the command\'s usage says', async () => {
    const t = await runCli('train', w, '--model', 'tfidf', '--name', 'tf3', '--train-pool', 'dev');
    expect(t.code, t.err).toBe(0);
    const r = await runCli('models', 'delete', w, 'tf3', '--json');
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toEqual({ deleted: true, model: 'tf3', featureOf: [], note: null });
  });

  it('models.delete returns the fusing models and the note the app shows', async () => {
    const l = await runCli('train', w, '--model', 'ltr', '--name', 'l2', '--train-pool', 'dev', '--epochs', '1', '--config', '{"embedding":false}');
    expect(l.code, l.err).toBe(0);
    const engine = new Engine(Workspace.open(w), { transport: 'http' });
    try {
      const r = await engine.invoke('models.delete', { name: 'tf2' });
      expect(r).toEqual({ deleted: true, featureOf: ['l2'], note: expect.stringContaining('l2 takes run "tf2" as a feature') });
      expect(await engine.invoke('models.delete', { name: 'tf2' })).toEqual({ deleted: false, featureOf: [], note: null });
    } finally {
      engine.close();
    }
  });
});
