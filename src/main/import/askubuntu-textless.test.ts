/**
 * An AskUbuntu pool file lists ids only: imported before the texts, its report said "warnings: none",
 * and the owner found the pool's queries and candidates shown as bare ids only on the Annotate screen.
 * The import now says how many of the pool's questions have no text, and which import brings them.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runImport } from '../engine/work';
import { cleanupTemp, tempDir, tempWorkspace } from './test-helpers';

afterEach(cleanupTemp);

const textless = (warnings: readonly string[]): string[] => warnings.filter((w) => w.includes('no text in the workspace'));

describe('an askubuntu-pool import', () => {
  it('says how many of the pool’s questions have no text, until their texts are imported', async () => {
    const dir = tempDir();
    const ws = tempWorkspace();
    const pool = path.join(dir, 'dev.txt');
    writeFileSync(pool, '10\t11\t11 12 13\t3.5 2.5 1.5\n20\t21\t21 22 13\t4 3 2\n');

    const first = await runImport(ws, 'askubuntu-pool', [pool], { pool: 'au' });
    expect(textless(first.warnings)).toEqual([
      'pool "au": 7 of its 7 questions have no text in the workspace (e.g. 10): annotators see ids only — import their texts with askubuntu-corpus (AskUbuntu\'s text_tokenized file)',
    ]);

    const corpus = path.join(dir, 'text_tokenized.txt');
    writeFileSync(corpus, ['10', '11', '12', '13', '20'].map((id) => `${id}\tthe wifi ${id} drops\tafter suspend ${id}`).join('\n') + '\n');
    await runImport(ws, 'askubuntu-corpus', [corpus]);
    const again = await runImport(ws, 'askubuntu-pool', [pool], { pool: 'au' });
    expect(textless(again.warnings)).toEqual([
      'pool "au": 2 of its 7 questions have no text in the workspace (e.g. 21): annotators see ids only — import their texts with askubuntu-corpus (AskUbuntu\'s text_tokenized file)',
    ]);

    writeFileSync(corpus, ['21', '22'].map((id) => `${id}\tthe wifi ${id} drops\tafter suspend ${id}`).join('\n') + '\n');
    await runImport(ws, 'askubuntu-corpus', [corpus]);
    expect(textless((await runImport(ws, 'askubuntu-pool', [pool], { pool: 'au' })).warnings)).toEqual([]);
    ws.close();
  });

  it('counts a question held with an empty title and body as having no text', async () => {
    const dir = tempDir();
    const ws = tempWorkspace();
    ws.upsertQuestion({ id: '10', source: 'askubuntu', title: '', body: '' });
    ws.upsertQuestion({ id: '11', source: 'askubuntu', title: 'the wifi drops', body: '' });
    const pool = path.join(dir, 'dev.txt');
    writeFileSync(pool, '10\t11\t11 12\t3.5 2.5\n');
    const report = await runImport(ws, 'askubuntu-pool', [pool], { pool: 'au' });
    expect(textless(report.warnings)).toEqual([
      'pool "au": 2 of its 3 questions have no text in the workspace (e.g. 10): annotators see ids only — import their texts with askubuntu-corpus (AskUbuntu\'s text_tokenized file)',
    ]);
    expect(ws.poolTextCoverage(ws.pool('au').id)).toEqual({ questions: 3, withText: 1, textlessExample: '10' });
    ws.close();
  });
});
