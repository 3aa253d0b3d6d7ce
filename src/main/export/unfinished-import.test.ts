/**
 * Imports commit in chunks, so an export taken while one runs (serve mode, or the CLI beside an import in
 * another process) holds the rows it has written so far — half a labels file — and the import may still add
 * more or be undone. The CLI said so on stderr for any reading command; the export itself, the file that
 * ships, said nothing: a gold set cut mid-import looked whole.
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { importTuning, runImport } from '../engine/work';
import { copyMidway, pastHalfCommitted } from '../import/test-helpers';
import { Workspace } from '../workspace/workspace';
import { scratchWorkspaces } from '../workspace/scratch-workspaces';
import { buildExport } from './index';

const scratch = scratchWorkspaces('qpairs-export-unfinished-');
afterEach(() => {
  importTuning.chunkMs = undefined;
});

function file(name: string, text: string): string {
  const f = path.join(scratch.dir, name);
  writeFileSync(f, text);
  return f;
}

const UNFINISHED = /an unfinished questions-jsonl import of more\.jsonl \(started \S+\) was in the workspace when this export was taken: what it had written so far is in this export/;

describe('an export taken while an import is unfinished', () => {
  it.runIf(existsSync('/proc/1'))('says so in its notes and its datasheet; once the import is over, nothing is said', async () => {
    const ws = scratch.fresh('w');
    await runImport(ws, 'questions-jsonl', [file('q.jsonl', ['q', 'c1', 'c2'].map((id) => JSON.stringify({ id, title: `t ${id}`, body: 'b' })).join('\n') + '\n')], {});
    await runImport(ws, 'labels-csv', [file('gold.csv', 'query_id,candidate_id,label\nq,c1,1\nq,c2,0\n')], { pool: 'p' });
    const more = file('more.jsonl', Array.from({ length: 6000 }, (_, i) => JSON.stringify({ id: `m${i}`, title: `title ${i}`, body: `body ${i}` })).join('\n') + '\n');
    // A copy of the workspace as another process sees it between two of the import's chunks.
    const copy = path.join(scratch.dir, 'mid.qpairs');
    importTuning.chunkMs = 0;
    const midway = copyMidway(ws, copy, pastHalfCommitted(ws.path));
    await runImport(ws, 'questions-jsonl', [more], midway);
    expect(midway.copied()).toBe(true);
    const raw = new Database(copy);
    raw.prepare('UPDATE import_journal SET pid = 1').run(); // still running, in another process
    raw.close();
    const mid = Workspace.open(copy);
    try {
      expect(mid.stats().questions).toBeGreaterThan(3); // its rows so far are there
      const built = buildExport(mid, 'p', 'jsonl', 'p.jsonl', { bootstrap: 20 });
      expect(built.warnings.some((w) => UNFINISHED.test(w))).toBe(true);
      expect(built.datasheet.content).toMatch(UNFINISHED);
      // Pseudonyms: a person's name in the import's file name is replaced there too.
      mid.ensureAnnotator('more');
      const named = buildExport(mid, 'p', 'jsonl', 'p.jsonl', { bootstrap: 20, pseudonymize: true });
      expect(named.warnings.join('\n')).toMatch(/an unfinished questions-jsonl import of A1\.jsonl \(started/);
      expect(named.datasheet.content).not.toMatch(/more\.jsonl/);
    } finally {
      mid.close();
    }
    const done = buildExport(ws, 'p', 'jsonl', 'p.jsonl', { bootstrap: 20 });
    expect(done.warnings.join('\n')).not.toContain('unfinished');
  });
});
