/**
 * An annotator's open Annotate page follows an import that changes her pool in place (serve mode, her
 * link): the owner gives the query on her screen a new text (`update`), and her page shows it without
 * a reload; the import's undo puts the old text back on it. (Such an import changes none of the pool's
 * counts: it named no pool, so she was not told, and her page kept the old text.)
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { invokeAsOwner } from './api';
import { useServedSmallPool } from './small-pool';

const served = useServedSmallPool('annotator-text-update', 195, (ps) => ps.map(([q, c]) => `${q},${c},other,0`));

/** The owner's command (loopback, no token, no cookie: the owner), refused = the test fails. */
const owner = <T>(command: string, args: unknown): Promise<T> => invokeAsOwner<T>(served.port, command, args);

async function jobEnds(jobId: string): Promise<void> {
  await expect.poll(async () => (await owner<{ running: boolean }>('job.status', { jobId })).running, { timeout: 30_000 }).toBe(false);
}

test('her open query shows the text the owner imported with update, and the old one once that import is undone', async () => {
  test.setTimeout(120_000);
  const { token } = await owner<{ token: string }>('annotator.invite', { name: 'ann', role: 'annotator' });
  await owner('pool.assign', { pool: 'p', annotators: ['ann'] });
  const page = served.page;
  await page.goto(`/?token=${encodeURIComponent(token)}#annotate`);
  await expect(page.getByTestId('candidates')).toHaveAttribute('data-pool', 'p', { timeout: 15_000 });
  const queryId = (await page.getByTestId('candidates').getAttribute('data-query'))!;
  const oldTitle = (await page.getByTestId('query-title').textContent())!;

  const file = path.join(served.dir, 'retitled.jsonl');
  writeFileSync(file, `${JSON.stringify({ id: queryId, title: 'A title given by the owner today', body: 'Its new body.' })}\n`);
  const { jobId } = await owner<{ jobId: string }>('import.start', { format: 'questions-jsonl', update: true, sources: [{ path: file }] });
  await jobEnds(jobId);
  await expect(page.getByTestId('query-title')).toHaveText('A title given by the owner today', { timeout: 15_000 });

  const undo = await owner<{ jobId: string }>('import.undo', {});
  await jobEnds(undo.jobId);
  await expect(page.getByTestId('query-title')).toHaveText(oldTitle, { timeout: 15_000 });
  await expect(page.getByTestId('candidates')).toHaveAttribute('data-query', queryId);
});
