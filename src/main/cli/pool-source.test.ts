import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from './test-cli';
import { Workspace } from '../workspace/workspace';
import { Engine } from '../engine/engine';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-cli-source-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const run = runCli;

/** Two corpora about the same topic (so BM25 would mix them): "se" (6 questions) and "ql" (6). */
async function twoSources(w: string): Promise<void> {
  expect((await run('init', w)).code).toBe(0);
  for (const src of ['se', 'ql']) {
    const file = path.join(dir, `${src}.jsonl`);
    const rows = [0, 1, 2, 3, 4, 5].map((i) => JSON.stringify({ id: `${src}${i}`, title: `wifi drops after suspend ${i}`, body: `network card ${src} laptop ${i % 2 ? 'ubuntu' : 'driver'}` }));
    writeFileSync(file, rows.join('\n') + '\n');
    const r = await run('import', w, '--format', 'questions-jsonl', '--source', src, file);
    expect(r.code, r.err).toBe(0);
  }
}

function sourcesOfPool(w: string, pool: string): Set<string> {
  const ws = Workspace.open(w);
  try {
    const ids = ws.poolQueries(pool).flatMap((q) => [q.queryId, ...q.candidates]);
    return new Set([...ws.getQuestions(ids).values()].map((q) => q.source));
  } finally {
    ws.close();
  }
}

describe('pools by source (issue 13)', () => {
  it('--source keeps queries and candidates in one corpus; without it the CLI says the corpora mix', async () => {
    const w = path.join(dir, 'w.qpairs');
    await twoSources(w);
    const mixed = await run('pool', 'create', w, '--name', 'mix', '--sample', '6', '--seed', '3', '--depth', '8');
    expect(mixed.code, mixed.err).toBe(0);
    expect(mixed.out).toMatch(/no --source given.*2 sources.*se: 6.*--source S/s);
    expect(sourcesOfPool(w, 'mix')).toEqual(new Set(['se', 'ql']));

    for (const src of ['se', 'ql']) {
      const r = await run('pool', 'create', w, '--name', `only-${src}`, '--sample', '4', '--seed', '3', '--depth', '8', '--source', src);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toContain(`source ${src} only`);
      expect(r.out).not.toMatch(/no --source given/);
      expect(sourcesOfPool(w, `only-${src}`)).toEqual(new Set([src]));
      const ws = Workspace.open(w);
      // depth 8 but only 5 other questions in the corpus: every one of them, none from the other corpus
      expect(ws.poolQueries(`only-${src}`).every((q) => q.candidates.length === 5)).toBe(true);
      expect(ws.pool(`only-${src}`).sampling).toMatch(new RegExp(`source "${src}" only`));
      ws.close();
    }
    const bad = await run('pool', 'create', w, '--name', 'x', '--sample', '2', '--seed', '1', '--source', 'nope');
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/no questions of source "nope".*se/);
    const listed = path.join(dir, 'q.txt');
    writeFileSync(listed, 'se1 ql2\n');
    const wrong = await run('pool', 'create', w, '--name', 'y', '--queries', listed, '--source', 'se');
    expect(wrong.code).toBe(1);
    expect(wrong.err).toMatch(/not of source "se": ql2/);
  });

  it('pool.create {source} through the engine holds one corpus', async () => {
    const w = path.join(dir, 'w.qpairs');
    await twoSources(w);
    const engine = Engine.open(w, { transport: 'electron' });
    try {
      const info = (await engine.invoke('pool.create', { name: 'e', sample: { n: 3, seed: 2 }, depth: 20, source: 'ql' })) as { queries: number; pairs: number };
      expect(info.queries).toBe(3);
      expect(info.pairs).toBe(15);
      // Browse's search keeps one corpus too
      const found = (await engine.invoke('questions.search', { text: 'wifi suspend network', source: 'ql', limit: 4 })) as { results: Array<{ id: string; source: string }> };
      expect(found.results).toHaveLength(4);
      expect(found.results.every((r) => r.source === 'ql' && r.id.startsWith('ql'))).toBe(true);
      const both = (await engine.invoke('questions.search', { text: 'wifi suspend network', limit: 200 })) as { results: Array<{ source: string }> };
      expect(new Set(both.results.map((r) => r.source))).toEqual(new Set(['se', 'ql']));
      // A source no question has is named, with the workspace's sources, not answered with "no match".
      await expect(engine.invoke('questions.search', { text: 'wifi suspend network', source: 'qll' })).rejects.toMatchObject({
        code: 'not-found',
        message: 'no questions of source "qll" in the workspace (sources: ql, se)',
      });
    } finally {
      engine.close();
    }
    expect(sourcesOfPool(w, 'e')).toEqual(new Set(['ql']));
  });
});
