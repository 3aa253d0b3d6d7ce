import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Engine } from './engine';
import { Workspace } from '../workspace/workspace';
import { runImport } from './work';
import { dataset } from '../../../tests/datasets';
import type { PoolInfo } from '../../shared/contract';

let dir: string;
let engine: Engine;

beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-pool-analyzer-'));
  const ws = Workspace.create(path.join(dir, 'a.qpairs'));
  await runImport(ws, 'semeval', [dataset('semeval2016-task3/SemEval2016-Task3-CQA-QL-dev.xml')], { pool: 'dev' });
  engine = new Engine(ws, { transport: 'http' });
});
afterEach(() => {
  engine.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('pool.create with an analyzer', () => {
  it('retrieves with the named analyzer and records it as the pool retriever', async () => {
    const english = (await engine.invoke('pool.create', { name: 'stemmed', sample: { n: 5, seed: 1 }, analyzer: 'lucene-english' })) as PoolInfo;
    const plain = (await engine.invoke('pool.create', { name: 'plain', sample: { n: 5, seed: 1 } })) as PoolInfo;
    expect(english.retriever).toContain('analyzer lucene-english');
    expect(plain.retriever).toContain('analyzer lucene-standard-stop');
  });

  it('refuses an analyzer it does not know', async () => {
    await expect(engine.invoke('pool.create', { name: 'x', sample: { n: 5, seed: 1 }, analyzer: 'snowball' })).rejects.toMatchObject({ code: 'invalid-argument' });
  });
});
