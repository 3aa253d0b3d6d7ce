/**
 * HNIL end to end on a real Stack Exchange dump (the shared cstheory-meta folder): import, train
 * through the CLI in the worker thread on the dump's duplicate links, score a BM25 pool as a run,
 * reload to identical scores; and the refusal on data without a network (AskUbuntu ids only).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Workspace } from '../workspace/workspace';
import { runImport } from '../engine/work';
import { main } from '../cli/index';
import { dataset } from '../../../tests/datasets';
import { findModel, listModels } from './store';
import { buildTrainingData } from './data';
import { loadModel } from '../models';
import { trainModel } from './train';

const SMALL = { hidden: 16, embDim: 24, embeddingEpochs: 1, maxBodyLen: 40, graphDim: 16, metaDim: 8, graphEpochs: 2, batchSize: 8 };

let dir: string;
let file: string;
const io = () => {
  const o = { out: '', err: '' };
  return { o, io: { log: (s: string) => (o.out += s + '\n'), err: (s: string) => (o.err += s + '\n') } };
};

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-hnil-'));
  file = path.join(dir, 'se.qpairs');
  const ws = Workspace.create(file);
  await runImport(ws, 'stackexchange', [dataset('stackexchange-cstheory-meta')]);
  ws.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('hnil on the cstheory-meta Stack Exchange dump', () => {
  it('reads the network the importer kept: askers, tags as categories, answerers', () => {
    const ws = Workspace.open(file);
    const { data } = buildTrainingData(ws, []);
    const qs = [...data.questions.values()];
    expect(qs.filter((q) => q.user).length).toBeGreaterThan(500);
    expect(qs.filter((q) => q.category).length).toBe(589);
    expect(data.answerers?.get('1')?.[0]).toBe('109'); // the first answer of question 1 (OwnerUserId 109)
    ws.close();
  });

  it('trains through the CLI in the worker thread, scores a pool as a run, and reloads to identical scores', async () => {
    const { o, io: out } = io();
    expect(await main(['pool', 'create', file, '--name', 'bm25', '--sample', '8', '--seed', '3'], out), o.err).toBe(0);
    const code = await main(['train', file, '--model', 'hnil', '--name', 'hnil-se', '--epochs', '2', '--seed', '4', '--config', JSON.stringify(SMALL), '--json'], out);
    expect(code, o.err).toBe(0);
    const res = JSON.parse(o.out.slice(o.out.indexOf('{')));
    expect(res.model).toBe('hnil');
    expect(res.report.notes.find((n: string) => n.startsWith('network:'))).toMatch(/^network: 589 questions, \d+ users, \d+ categories, \d+ edges/);
    const { o: o2, io: out2 } = io();
    expect(await main(['score', file, '--model', 'hnil-se', '--pool', 'bm25', '--json'], out2), o2.err).toBe(0);
    expect(JSON.parse(o2.out)).toMatchObject({ queries: 8, pairs: 160 });
    const ws = Workspace.open(file);
    expect(ws.listRuns('bm25').map((r) => r.name)).toContain('hnil-se');
    const pool = ws.poolQueries('bm25').slice(0, 3);
    const questions = buildTrainingData(ws, []).data.questions;
    const texts = (id: string) => questions.get(id)!;
    const m1 = await loadModel(findModel(ws, 'hnil-se')!.saved);
    const m2 = await loadModel(findModel(ws, 'hnil-se')!.saved);
    for (const q of pool) {
      const s1 = m1.score(texts(q.queryId), q.candidates.map(texts));
      expect(s1.every(Number.isFinite)).toBe(true);
      expect(m2.score(texts(q.queryId), q.candidates.map(texts))).toEqual(s1);
    }
    m1.dispose();
    m2.dispose();
    ws.close();
  });

  it('refuses a workspace without askers or categories (AskUbuntu ids) and stores nothing', async () => {
    const au = path.join(dir, 'au.qpairs');
    const ws = Workspace.create(au);
    await runImport(ws, 'askubuntu-pool', [dataset('askubuntu/dev.txt')], { pool: 'au' });
    // Texts for two of its questions (a pool without any is refused before, train-no-text.test), still no askers or categories.
    const texts = path.join(dir, 'au-texts.jsonl');
    writeFileSync(texts, ['421122', '502523'].map((id) => JSON.stringify({ id, title: `question ${id} about wifi`, body: 'it drops after suspend' })).join('\n') + '\n');
    await runImport(ws, 'questions-jsonl', [texts], {});
    const models = listModels(ws).length;
    await expect(trainModel(ws, { model: 'hnil', name: 'h', trainPools: ['au'], config: SMALL }, { workerPath: null })).rejects.toThrow(
      /hnil needs the forum's network, and none of the workspace's \d+ questions has askers \(user ids\) or categories \(or tags\)/,
    );
    expect(listModels(ws).length).toBe(models);
    expect(ws.listRuns('au').map((r) => r.name)).not.toContain('h');
    ws.close();
  });
});
