/**
 * What an annotator's page hears of the owner's imports and pools (serve mode, her link): an import
 * into a pool closed to her reaches her socket not at all (it told her when the owner imported
 * anything); a pool assigned to her does, and her Annotate opens on it at once.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { invokeAsOwner } from './api';
import { useServedSmallPool } from './small-pool';

// Another annotator's labels only, imported: pool p is closed to annotators until assigned.
const served = useServedSmallPool('annotator-pool-events', 176, (ps) => ps.map(([q, c]) => `${q},${c},other,0`));

/** The owner's command (loopback, no token, no cookie: the owner), refused = the test fails. */
const owner = <T>(command: string, args: unknown): Promise<T> => invokeAsOwner<T>(served.port, command, args);

test('her socket hears nothing of a gold set imported into a pool closed to her, and her page follows a pool assigned to her', async () => {
  test.setTimeout(120_000);
  const { token } = await owner<{ token: string }>('annotator.invite', { name: 'ann', role: 'annotator' });
  const page = served.page;
  const frames: string[] = [];
  page.on('websocket', (ws) => ws.on('framereceived', ({ payload }) => void frames.push(String(payload))));
  await page.goto(`/?token=${encodeURIComponent(token)}#annotate`);
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'open', { timeout: 15_000 });
  await expect(page.getByTestId('candidates')).toHaveCount(0);

  // The owner imports a gold set into a new pool g: closed to her.
  const labels = path.join(served.dir, 'goldset.csv');
  writeFileSync(labels, ['query_id,candidate_id,annotator,label', ...served.pairs.slice(0, 4).map(([q, c]) => `${q},${c},gold,1`)].join('\n') + '\n');
  const { jobId } = await owner<{ jobId: string }>('import.start', { format: 'labels-csv', pool: 'g', sources: [{ path: labels }] });
  await expect.poll(async () => (await owner<{ running: boolean }>('job.status', { jobId })).running, { timeout: 30_000 }).toBe(false);
  expect((await owner<Array<{ name: string }>>('pool.list', {})).map((p) => p.name)).toContain('g');

  // Then p is assigned to her: her page hears it, and Annotate opens on p.
  await owner('pool.assign', { pool: 'p', annotators: ['ann'] });
  await expect(page.getByTestId('candidates')).toHaveAttribute('data-pool', 'p', { timeout: 15_000 });
  const changes = frames.map((f) => JSON.parse(f) as { event: string; payload: unknown }).filter((f) => f.event === 'workspace.changed');
  expect(changes.map((c) => c.payload)).toEqual([{ what: 'pool', pool: 'p' }]);
  expect(frames.join('\n')).not.toContain('"g"');
});
