/**
 * Evaluate reads the list of label sources (annotator.list) once per visit and again only when the
 * people may have changed (a label from a name it does not list, a change to the workspace, a
 * reconnection): not with each re-evaluation that a label, or a choice on the screen, makes.
 */
import { expect, test } from '@playwright/test';
import { invoke } from './api';
import { useServedSmallPool } from './small-pool';

// ann: the first candidate of each query similar, the rest not.
const served = useServedSmallPool('eval-annotator-list', 67, (ps) => ps.map(([q, c], i) => `${q},${c},ann,${i % 4 === 0 ? 1 : 0}`));

test('labels and choices re-evaluate without reading the annotator list again; a new name and an invitation read it again', async () => {
  const page = served.page;
  const calls: Record<string, number> = {};
  page.on('request', (r) => {
    if (!r.url().endsWith('/api/invoke')) return;
    const command = (JSON.parse(r.postData() ?? '{}') as { command?: string }).command ?? '';
    calls[command] = (calls[command] ?? 0) + 1;
  });
  const count = (command: string): number => calls[command] ?? 0;
  await page.goto('/#evaluate');
  await page.getByTestId('eval-pool').selectOption('p');
  await page.getByTestId('eval-annotator').selectOption('ann');
  await expect(page.getByTestId('metric-rev-MAP')).toBeVisible();
  await expect.poll(() => count('annotator.list'), 'the visit reads the list').toBeGreaterThan(0);
  const lists = count('annotator.list');

  // ann's labels change, one at a time: each re-evaluates (the table follows), none reads the list.
  const map = page.getByTestId('metric-rev-MAP');
  for (let i = 0; i < 3; i++) {
    const [q, c] = served.pairs[4 * i + 3]!;
    const evals = count('eval.pool');
    const before = await map.innerText();
    await invoke(page.request, 'label.set', { pool: 'p', queryId: q, candidateId: c, annotator: 'ann', value: '1' });
    await expect.poll(() => count('eval.pool'), `label ${i + 1} re-evaluates`).toBeGreaterThan(evals);
    await expect(map).not.toHaveText(before);
  }
  // A choice on the screen re-evaluates too.
  const evals = count('eval.pool');
  await page.getByTestId('eval-ties').selectOption('trec-eval');
  await expect.poll(() => count('eval.pool')).toBeGreaterThan(evals);
  expect(count('annotator.list'), 'the list read again by re-evaluations').toBe(lists);

  // A label from someone the list does not have: read again, the name offered.
  const [q0, c0] = served.pairs[0]!;
  await invoke(page.request, 'label.set', { pool: 'p', queryId: q0, candidateId: c0, annotator: 'newcomer', value: '0' });
  await expect(page.getByTestId('eval-annotator').locator('option[value="newcomer"]')).toHaveCount(1);
  expect(count('annotator.list')).toBe(lists + 1);
  // The people change (an invitation): read again.
  await invoke(page.request, 'annotator.invite', { name: 'zoe', role: 'annotator' });
  await expect.poll(() => count('annotator.list')).toBe(lists + 2);
});
