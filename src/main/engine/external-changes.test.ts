/**
 * The engine notices commits made by another process (PRAGMA data_version) and reloads what it
 * caches: a server whose BM25 index was loaded before another process imported questions must
 * retrieve those questions in its next pool.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Workspace } from '../workspace/workspace';
import { Engine } from './engine';
import { createPool, runImport } from './work';

const root = path.resolve(import.meta.dirname, '../../..');
const qpairs = path.join(root, 'bin/qpairs.mjs');

let dir: string;
let w: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-external-'));
  w = path.join(dir, 'w.qpairs');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function jsonl(name: string, rows: Array<[string, string]>): string {
  const f = path.join(dir, name);
  writeFileSync(f, rows.map(([id, title]) => JSON.stringify({ id, title, body: title })).join('\n') + '\n');
  return f;
}

describe('changes committed by another connection or process', () => {
  it('Workspace.noticeExternalChanges sees only other connections\' commits and tells its listeners', () => {
    const a = Workspace.create(w);
    const b = Workspace.open(w);
    let calls = 0;
    const off = a.onExternalChange(() => calls++);
    expect(a.noticeExternalChanges()).toBe(false);
    a.upsertQuestion({ id: 'own', source: 's', title: 'own write' });
    expect(a.noticeExternalChanges()).toBe(false); // its own commits do not count
    b.upsertQuestion({ id: 'other', source: 's', title: 'other write' });
    expect(a.noticeExternalChanges()).toBe(true);
    expect(calls).toBe(1);
    expect(a.noticeExternalChanges()).toBe(false);
    off();
    b.upsertQuestion({ id: 'other2', source: 's', title: 'again' });
    expect(a.noticeExternalChanges()).toBe(true);
    expect(calls).toBe(1);
    a.close();
    b.close();
  });

  it('a second process imports; the engine\'s next pool creation retrieves the new questions', async () => {
    const ws = Workspace.create(w);
    await runImport(ws, 'questions-jsonl', [jsonl('a.jsonl', [['a1', 'install printer driver'], ['a2', 'printer driver crashes'], ['a3', 'sound card silent'], ['a4', 'wifi drops often']])], { source: 'forum' });
    const engine = new Engine(ws, { transport: 'electron' });
    try {
      await engine.invoke('pool.create', { name: 'before', queries: ['a1'], depth: 10 });
      expect(ws.poolQueries('before')[0]!.candidates).toEqual(['a2']); // the index is loaded now

      // Another process (the CLI) imports more questions into the same file.
      const b = jsonl('b.jsonl', [['b1', 'printer driver install fails'], ['b2', 'install the printer driver again']]);
      execFileSync(process.execPath, [qpairs, 'import', w, '--format', 'questions-jsonl', '--source', 'forum', b], { encoding: 'utf8' });

      // Without noticing, the cached index is stale: the new questions are not retrieved.
      await createPool(ws, { name: 'stale', queries: ['a1'], depth: 10, scheme: 'binary' });
      expect(ws.poolQueries('stale')[0]!.candidates).toEqual(['a2']);

      // Engine.invoke notices the other process's commit and reloads the index.
      await engine.invoke('pool.create', { name: 'after', queries: ['a1'], depth: 10 });
      expect(new Set(ws.poolQueries('after')[0]!.candidates)).toEqual(new Set(['a2', 'b1', 'b2']));
      expect(((await engine.invoke('workspace.stats', {})) as { questions: number }).questions).toBe(6);
    } finally {
      engine.close();
    }
  });
});
