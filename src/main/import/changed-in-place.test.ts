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

  it('a question a pool holds given an answer, an answer updated or moved away; not an answer to a question no pool holds', async () => {
    const ws = tempWorkspace();
    const dir = tempDir();
    const posts = (...rows: string[]): string => `<posts>\n${rows.map((r) => `<row ${r}/>\n`).join('')}</posts>\n`;
    const question = (id: number): string => `Id="${id}" PostTypeId="1" Title="question ${id}" Body="&lt;p&gt;body ${id}&lt;/p&gt;"`;
    const answer = (id: number, parent: number, text = `answer ${id}`): string => `Id="${id}" PostTypeId="2" ParentId="${parent}" Body="${text}"`;
    // A dump as the site ships it again and again: the same questions 1-3, answers coming and going.
    const inPlace = async (...answers: string[]): Promise<string[] | undefined> => {
      const f = path.join(dir, `Posts-${Math.random().toString(36).slice(2)}.xml`);
      writeFileSync(f, posts(question(1), question(2), question(3), ...answers));
      return (await importFiles(ws, 'stackexchange', [f], { source: 'site' })).poolsChangedInPlace;
    };
    expect(await inPlace()).toBeUndefined();
    ws.transaction(() => {
      ws.createPool({ name: 'p', scheme: 'binary' });
      ws.createPool({ name: 'other', scheme: 'binary' });
      ws.addPoolQuery('p', '1', ['2']);
      ws.addPoolQuery('other', '2', ['1']);
    });
    // Question 3 is in no pool: none.
    expect(await inPlace(answer(10, 3))).toBeUndefined();
    // Question 1 given an answer: both pools hold it (p's query, other's candidate).
    expect(await inPlace(answer(10, 3), answer(11, 1))).toEqual(['other', 'p']);
    // The same dump again: nothing changed, none.
    expect(await inPlace(answer(10, 3), answer(11, 1))).toBeUndefined();
    // Answer 11's text updated: the pools holding its question.
    expect(await inPlace(answer(10, 3), answer(11, 1, 'a better answer'))).toEqual(['other', 'p']);
    // Answer 10 moved from question 3 (no pool) to question 2: the pools holding 2.
    expect(await inPlace(answer(10, 2), answer(11, 1, 'a better answer'))).toEqual(['other', 'p']);
    // …and back to 3: question 2 lost it.
    expect(await inPlace(answer(10, 3), answer(11, 1, 'a better answer'))).toEqual(['other', 'p']);
    expect(ws.listImports().at(-1)!.report).toMatchObject({ poolsChangedInPlace: ['other', 'p'] });
    ws.close();
  });
});
