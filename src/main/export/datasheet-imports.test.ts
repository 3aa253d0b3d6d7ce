/**
 * The datasheet's "Imports into the workspace" lists where the data came from. An import that wrote
 * nothing (a file re-imported as the workspace held it; the imports audit marks it unchanged) is
 * not: it listed among the last 20 rows, and enough such re-imports pushed the imports that brought
 * the data out of the list ("N earlier imports not shown").
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runImport } from '../engine/work';
import { undoLastImport } from '../workspace/undo-last';
import { scratchWorkspaces } from '../workspace/scratch-workspaces';
import { buildExport } from './index';

const scratch = scratchWorkspaces('qpairs-datasheet-imports-');

function file(name: string, text: string): string {
  const f = path.join(scratch.dir, name);
  writeFileSync(f, text);
  return f;
}

/** The datasheet's imports part: from its heading to the next section. */
function importsPart(sheet: string): string {
  const from = sheet.indexOf('Imports into the workspace:');
  expect(from).toBeGreaterThan(0);
  const to = sheet.indexOf('\n## ', from);
  return sheet.slice(from, to < 0 ? undefined : to);
}

describe("the datasheet's list of imports", () => {
  it('leaves out re-imports that changed nothing, counts them, and keeps every import that brought data', async () => {
    const ws = scratch.fresh('w');
    const questions = file('corpus.jsonl', ['q', 'c1', 'c2'].map((id) => JSON.stringify({ id, title: `t ${id}`, body: `b ${id}` })).join('\n') + '\n');
    const more = file('more.jsonl', JSON.stringify({ id: 'c3', title: 't c3', body: 'b c3' }) + '\n');
    const labels = file('gold.csv', 'query_id,candidate_id,label\nq,c1,1\nq,c2,0\n');
    await runImport(ws, 'questions-jsonl', [questions], {});
    await runImport(ws, 'labels-csv', [labels], { pool: 'p' });
    for (let i = 0; i < 25; i++) await runImport(ws, 'questions-jsonl', [questions], {});
    await runImport(ws, 'questions-jsonl', [more], {});
    expect(ws.listImports().filter((i) => (i.report as { unchanged?: boolean }).unchanged)).toHaveLength(25);

    const part = importsPart(buildExport(ws, 'p', 'jsonl', 'p.jsonl', { bootstrap: 20 }).datasheet.content);
    const rows = part.split('\n').filter((l) => /^\| \d{4}-/.test(l));
    expect(rows.map((r) => r.split('|').slice(2, 4).map((c) => c.trim()))).toEqual([
      ['questions-jsonl', 'corpus.jsonl'],
      ['labels-csv', 'gold.csv'],
      ['questions-jsonl', 'more.jsonl'],
    ]);
    expect(part).toContain('(25 re-imports that changed nothing — each file as the workspace held it already — not listed)');
    expect(part).not.toContain('earlier imports not shown');
  });

  it('past 20 imports that brought data, the earlier ones are counted as before', async () => {
    const ws = scratch.fresh('w');
    await runImport(ws, 'labels-csv', [file('gold.csv', 'query_id,candidate_id,label\nq,c1,1\n')], { pool: 'p' });
    for (let i = 0; i < 21; i++) await runImport(ws, 'questions-jsonl', [file(`q${i}.jsonl`, JSON.stringify({ id: `x${i}`, title: 't', body: 'b' }) + '\n')], {});
    await runImport(ws, 'questions-jsonl', [path.join(scratch.dir, 'q0.jsonl')], {});
    const part = importsPart(buildExport(ws, 'p', 'jsonl', 'p.jsonl', { bootstrap: 20 }).datasheet.content);
    expect(part.split('\n').filter((l) => /^\| \d{4}-/.test(l))).toHaveLength(20);
    expect(part).toContain('(2 earlier imports not shown)');
    expect(part).toContain('(1 re-import that changed nothing — each file as the workspace held it already — not listed)');
  });

  it('counts an undone import instead of listing the undo as a format', async () => {
    const ws = scratch.fresh('w');
    await runImport(ws, 'labels-csv', [file('gold.csv', 'query_id,candidate_id,label\nq,c1,1\n')], { pool: 'p' });
    await runImport(ws, 'questions-jsonl', [file('wrong.jsonl', JSON.stringify({ id: 'x', title: 't', body: 'b' }) + '\n')], {});
    await undoLastImport(ws, {});
    const part = importsPart(buildExport(ws, 'p', 'jsonl', 'p.jsonl', { bootstrap: 20 }).datasheet.content);
    expect(part.split('\n').filter((l) => /^\| \d{4}-/.test(l)).map((r) => r.split('|')[2]!.trim())).toEqual(['labels-csv']);
    expect(part).toContain('(1 import undone since — its rows and its line here taken back out)');
  });
});
