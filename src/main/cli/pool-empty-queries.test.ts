import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from './test-cli';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-cli-empty-queries-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('pool create: queries BM25 finds nothing for', () => {
  it('are named in a note (they were kept in the pool without a word, with nothing to label)', async () => {
    const w = path.join(dir, 'w.qpairs');
    expect((await runCli('init', w)).code).toBe(0);
    const file = path.join(dir, 'q.jsonl');
    const rows = [
      { id: 'a1', title: 'wifi drops after suspend', body: 'network card driver' },
      { id: 'a2', title: 'wifi drops after resume', body: 'network card laptop' },
      { id: 'a3', title: 'network card driver missing', body: 'wifi laptop' },
      // Stop words only (the default analyzer drops them) and no body: no term to retrieve with.
      { id: 'stop', title: 'the of and', body: '' },
    ];
    writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    expect((await runCli('import', w, '--format', 'questions-jsonl', file)).code).toBe(0);
    const ids = path.join(dir, 'ids.txt');
    writeFileSync(ids, 'a1 stop a2\n');
    const r = await runCli('pool', 'create', w, '--name', 'p', '--queries', ids, '--depth', '2');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('created pool p: 3 queries, 4 candidate pairs (BM25 top-2)');
    expect(r.out).toContain('  note: 1 of the 3 queries has no candidate (BM25 finds no other question for it: stop): nothing to label there, and no metric counts it');
    // Every query with candidates: nothing to say.
    writeFileSync(ids, 'a1 a2\n');
    const full = await runCli('pool', 'create', w, '--name', 'q', '--queries', ids, '--depth', '2');
    expect(full.code, full.err).toBe(0);
    expect(full.out).not.toContain('no candidate');
    // --json names them too (an empty list when there are none).
    writeFileSync(ids, 'stop a3\n');
    const asJson = await runCli('pool', 'create', w, '--name', 'r', '--queries', ids, '--depth', '2', '--json');
    expect(asJson.code, asJson.err).toBe(0);
    expect(JSON.parse(asJson.out)).toMatchObject({ name: 'r', queriesWithoutCandidate: ['stop'] });
  });
});
