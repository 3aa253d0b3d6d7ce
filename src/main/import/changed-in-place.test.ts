import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { importFiles } from './index';
import { cleanupTemp, tempDir, tempWorkspace } from './test-helpers';

afterEach(cleanupTemp);

describe('an import names the pools it changed in place (their counts do not show it)', () => {
  it('a question a pool lists given text or a new text, a run rescored; not an unrelated question nor a run given again as it was', async () => {
    const ws = tempWorkspace();
    const dir = tempDir();
    const file = (name: string, text: string): string => {
      const f = path.join(dir, name);
      writeFileSync(f, text);
      return f;
    };
    const question = (id: string, title: string): string => `${JSON.stringify({ id, title, body: `body of ${id}` })}\n`;
    ws.transaction(() => {
      for (const id of ['q1', 'c1', 'c2']) ws.upsertQuestion({ id, source: 'test', title: `title of ${id}`, body: `body of ${id}` });
      ws.createPool({ name: 'p', scheme: 'binary' });
      ws.createPool({ name: 'other', scheme: 'binary' });
      // c9: listed by pool p without text (an id-only pool).
      ws.addPoolQuery('p', 'q1', ['c1', 'c9']);
      ws.addPoolQuery('other', 'c2', ['c1']);
    });
    const inPlace = async (format: string, text: string, opts: { pool?: string; update?: boolean } = {}): Promise<string[] | undefined> =>
      (await importFiles(ws, format, [file(`f-${Math.random().toString(36).slice(2)}`, text)], { source: 'test', ...opts })).poolsChangedInPlace;

    // A question no pool holds: none.
    expect(await inPlace('questions-jsonl', question('n1', 'new'))).toBeUndefined();
    // c9 given text: the pool listing it shows it now.
    expect(await inPlace('questions-jsonl', question('c9', 'now with text'))).toEqual(['p']);
    // q1's text updated: its pool only; c1's, both pools that hold it.
    expect(await inPlace('questions-jsonl', question('q1', 'a new title'), { update: true })).toEqual(['p']);
    expect(await inPlace('questions-jsonl', question('c1', 'a new title'), { update: true })).toEqual(['other', 'p']);
    const run = (top: number): string => `q1 Q0 c1 1 ${top} bm\nq1 Q0 c9 2 1 bm\n`;
    // A new run changes the pool's counts (the engine's stamps see it); given again as it was, nothing; rescored, its pool.
    expect(await inPlace('trec-run', run(3), { pool: 'p' })).toBeUndefined();
    expect(await inPlace('trec-run', run(3), { pool: 'p' })).toBeUndefined();
    expect(await inPlace('trec-run', run(4), { pool: 'p' })).toEqual(['p']);
    // Kept in the imports audit (the undo's event reads it there).
    expect(ws.listImports().at(-1)!.report).toMatchObject({ poolsChangedInPlace: ['p'] });
    ws.close();
  });
});
