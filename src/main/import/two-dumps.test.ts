/**
 * Issue 23, item 5: two Stack Exchange dumps that share post ids. The second must never silently
 * replace the texts of questions others work on (in a pool, or labeled): without --update the import
 * is refused and changes nothing; with --update it replaces them, keeps the old texts and says which
 * pools and labels it touched.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { QPairsError } from '../errors';
import { importFiles } from './index';
import { cleanupTemp, snapshot, tempDir, tempWorkspace } from './test-helpers';

afterEach(cleanupTemp);

const posts = (...rows: string[]): string => `<?xml version="1.0" encoding="utf-8"?>\n<posts>\n${rows.map((r) => `  <row ${r} />\n`).join('')}</posts>\n`;
function dump(name: string, rows: string[]): string {
  const dir = path.join(tempDir(), name);
  mkdirSync(dir, { recursive: true });
  const f = path.join(dir, 'Posts.xml');
  writeFileSync(f, posts(...rows));
  return f;
}
const q = (id: number, title: string): string => `Id="${id}" PostTypeId="1" Title="${title}" Body="&lt;p&gt;${title} body&lt;/p&gt;"`;

describe('two dumps sharing post ids', () => {
  it('the second never overwrites a pooled, labeled question without --update; with it, the old text is kept and the touch reported', async () => {
    const ws = tempWorkspace();
    const first = dump('cooking', [q(1, 'How long to boil an egg'), q(2, 'Why does bread rise'), q(3, 'Best pan for steak')]);
    await importFiles(ws, 'stackexchange', [first], { source: 'site' });
    ws.transaction(() => {
      ws.createPool({ name: 'p', scheme: 'binary' });
      ws.addPoolQuery('p', '1', ['2']);
      ws.addLabel({ pool: 'p', queryId: '1', candidateId: '2', annotator: 'alice', value: '1', origin: 'ui' });
    });
    const second = dump('physics', [q(1, 'Why is the sky blue'), q(2, 'What is a photon'), q(3, 'Escape velocity of Mars')]);
    const before = snapshot(ws);
    const e = await importFiles(ws, 'stackexchange', [second], { source: 'site' }).then(
      () => null,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(QPairsError);
    expect((e as Error).message).toMatch(/Posts\.xml, line \d+: question "1" would get a new text, but it is in pool "p" with 1 label event: .*--update/);
    expect(snapshot(ws)).toEqual(before);
    expect(ws.getQuestion('1')!.title).toBe('How long to boil an egg');
    expect(ws.getQuestion('2')!.title).toBe('Why does bread rise');

    const r = await importFiles(ws, 'stackexchange', [second], { source: 'site', update: true });
    expect(r.counts.questionsUpdatedInPools).toBe(2);
    expect(r.warnings.join('\n')).toMatch(/question 1 \(in pool "p" with 1 label event\) has a new text \(--update; the old one is kept in its history\)/);
    expect(ws.getQuestion('1')!.title).toBe('Why is the sky blue');
    expect(ws.questionTextHistory('1')).toEqual([expect.objectContaining({ source: 'site', title: 'How long to boil an egg', touched: { pools: ['p'], labels: 1 } })]);
    expect(ws.questionTextHistory('2')).toEqual([expect.objectContaining({ title: 'Why does bread rise' })]);
    expect(ws.questionTextHistory('3')).toEqual([]); // in no pool, no labels: an ordinary update
    ws.close();
  });
});
