/**
 * An import undo's report says rows in the user's nouns: before, its kept and skipped lines named
 * database tables ("kept 2 pool_candidates rows", "skipped 3 labels rows"), in the CLI, serve mode
 * and the app's Undo panel alike (all print undoSummary's lines).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupTemp, tempWorkspace } from '../import/test-helpers';
import { undoSummary, type ImportUndone } from './undo-last';
import { TABLE_NOUNS } from './undo-nouns';
import { journaledTables } from './undo-triggers';

afterEach(cleanupTemp);

const report = (r: Partial<ImportUndone>): ImportUndone => ({
  what: 'labels-csv import of l.csv',
  started: '2026-01-01T00:00:00.000Z',
  undone: 10,
  kept: 0,
  keptBy: {},
  skipped: 0,
  skippedBy: {},
  failed: 0,
  rowsChanged: {},
  indexDropped: false,
  ...r,
});

describe("an undo's report in the user's nouns", () => {
  it('has a noun for every table the journal covers (each one a kept or skipped count can name), and none for a table that is gone', () => {
    const ws = tempWorkspace();
    const tables = journaledTables(ws.db).map((t) => t.name).sort();
    ws.close();
    expect(Object.keys(TABLE_NOUNS).sort()).toEqual(tables);
  });

  it('says kept and skipped rows of every table in words, one and several, never by table name', () => {
    for (const [table, [one, many]] of Object.entries(TABLE_NOUNS)) {
      const lines = undoSummary(report({ kept: 1, keptBy: { [table]: 1 }, skipped: 2, skippedBy: { [table]: 2 } }));
      expect(lines[1]).toMatch(new RegExp(`^kept 1 ${one.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} that rows written since the import refer to`));
      expect(lines[2]).toBe(`skipped 2 ${many} changed again since the import: their later values stay`);
      for (const l of lines) expect(l, table).not.toMatch(/\w_\w| rows? (that|changed)|\b\d+ \w+ rows?\b/);
    }
  });

  it('reads as the user says it: pool candidates, label events, assignments, people', () => {
    const lines = undoSummary(
      report({
        rowsChanged: { questions: -3, pool_queries: -1, labels: -4 },
        kept: 4,
        keptBy: { pool_candidates: 2, pools: 1, annotators: 1 },
        skipped: 4,
        skippedBy: { labels: 3, pool_assignments: 1 },
      }),
    );
    expect(lines).toEqual([
      'undid the labels-csv import of l.csv started 2026-01-01T00:00:00.000Z: took out 3 questions, 1 pool query, 4 label events (10 journal entries replayed)',
      'kept 2 pool candidates, 1 pool, 1 person that rows written since the import refer to (labels given since, and what they refer to)',
      'skipped 3 label events, 1 assignment changed again since the import: their later values stay',
    ]);
  });
});
