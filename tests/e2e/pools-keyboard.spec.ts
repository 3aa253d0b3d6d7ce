/**
 * The Pools screen from the keyboard only, at 800×600: an action that replaces or removes the
 * focused control leaves the focus on what follows it, never on <body>, nor does the table updating; a pool's Guidelines button
 * takes the focus to the guidelines (far below the table); "open…" hands it to the question and back
 * (Esc keeps the pool blind); Revoke leaves it on the person's Invite.
 */
import { expect, test, type Page } from '@playwright/test';
import { qpairs } from './small-pool';
import { useServedWorkspace } from './served-workspace';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { focusedTestId } from './focus';

test.describe.configure({ mode: 'serial' });

const served = useServedWorkspace('pools-keyboard', 57, {
  context: { viewport: { width: 800, height: 600 } },
  prepare: ({ dir, workspace }) => {
    const ws = workspace!;
    const questions = Array.from({ length: 12 }, (_, i) => JSON.stringify({ id: `q${i}`, title: `question ${i} about printers`, body: `printers ${i}` }));
    writeFileSync(path.join(dir, 'q.jsonl'), questions.join('\n') + '\n');
    qpairs('init', ws);
    qpairs('import', ws, '--format', 'questions-jsonl', path.join(dir, 'q.jsonl'));
    qpairs('pool', 'create', ws, '--name', 'alpha', '--sample', '2', '--seed', '1', '--depth', '3');
    qpairs('pool', 'create', ws, '--name', 'beta', '--sample', '2', '--seed', '2', '--depth', '3');
    qpairs('annotators', 'invite', ws, 'erin');
  },
});

/** Tabs until the control `testId` has the focus (at most `max` presses). */
async function tabTo(page: Page, testId: string, max = 80): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((t) => document.activeElement?.getAttribute('data-testid') === t, testId)) return;
  }
  throw new Error(`${testId} not reached in ${max} Tabs`);
}

const focused = focusedTestId;

test('a button in the pools table keeps the focus while the table updates (a label given elsewhere)', async () => {
  // Every render of the screen remounted every cell of its tables (DataTable mounted each column's cell function as a component type), so the focus fell to <body>.
  const page = served.page;
  await page.goto(`${served.server!.url}/#pools`);
  await expect(page.getByTestId('pool-annotate-alpha')).toBeVisible();
  await tabTo(page, 'pool-annotate-alpha');
  const query = await page.request.post('/api/invoke', { headers: { 'X-QPairs': '1' }, data: { command: 'annotate.query', args: { pool: 'alpha', annotator: 'olga' } } });
  expect(query.ok(), await query.text()).toBe(true);
  const q = (await query.json()) as { queryId: string; candidates: Array<{ id: string }> };
  const set = await page.request.post('/api/invoke', {
    headers: { 'X-QPairs': '1' },
    data: { command: 'label.set', args: { pool: 'alpha', queryId: q.queryId, candidateId: q.candidates[0]!.id, annotator: 'olga', value: '1' } },
  });
  expect(set.ok(), await set.text()).toBe(true);
  await expect(page.getByTestId('pool-progress-alpha')).toContainText('olga');
  expect(await focused(page)).toBe('pool-annotate-alpha');
});

test('Guidelines takes the focus to the pool\'s guidelines, in view', async () => {
  // The button chose the pool and the focus fell to <body>; the guidelines stayed out of view below.
  const page = served.page;
  await page.goto(`${served.server!.url}/#pools`);
  await expect(page.getByTestId('pool-guidelines-beta')).toBeVisible();
  await tabTo(page, 'pool-guidelines-beta');
  await page.keyboard.press('Enter');
  await expect.poll(() => focused(page)).toBe('guidelines-heading');
  await expect(page.getByTestId('guidelines-heading')).toHaveText('Guidelines for “beta”');
  await expect(page.getByTestId('guidelines-heading')).toBeInViewport({ ratio: 1 });
  // The next Tab is the guidelines' text.
  await page.keyboard.press('Tab');
  expect(await focused(page)).toBe('guidelines-text');
});

test('"open…" puts the focus in its question; Esc and Keep blind give it back to the toggle', async () => {
  const page = served.page;
  await page.goto(`${served.server!.url}/#pools`);
  await expect(page.getByTestId('pool-blind-toggle-alpha')).toBeVisible();
  await tabTo(page, 'pool-blind-toggle-alpha');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('pool-open-confirm-box-alpha')).toBeVisible();
  await expect.poll(() => focused(page)).toBe('pool-open-keep-alpha');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('pool-open-confirm-box-alpha')).toHaveCount(0);
  await expect.poll(() => focused(page)).toBe('pool-blind-toggle-alpha');
  // Again, and keep blind by its button.
  await page.keyboard.press('Enter');
  await expect.poll(() => focused(page)).toBe('pool-open-keep-alpha');
  await page.keyboard.press('Enter');
  await expect.poll(() => focused(page)).toBe('pool-blind-toggle-alpha');
  await expect(page.getByTestId('pool-blind-toggle-alpha')).toHaveText('open…');
  // Open it: the toggle (now "make blind") has the focus again once saved.
  await page.keyboard.press('Enter');
  await page.keyboard.press('Shift+Tab');
  expect(await focused(page)).toBe('pool-open-confirm-alpha');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('pool-blind-toggle-alpha')).toHaveText('make blind');
  await expect.poll(() => focused(page)).toBe('pool-blind-toggle-alpha');
});

test('Revoke leaves the focus on the person\'s Invite', async () => {
  const page = served.page;
  page.once('dialog', (d) => void d.accept());
  await page.goto(`${served.server!.url}/#pools`);
  await expect(page.getByTestId('access-revoke-erin')).toBeVisible();
  await tabTo(page, 'access-revoke-erin');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('access-state-erin')).toContainText('revoked');
  await expect(page.getByTestId('access-revoke-erin')).toHaveCount(0);
  await expect.poll(() => focused(page)).toBe('access-reinvite-erin');
  await expect(page.getByTestId('access-reinvite-erin')).toHaveText('Invite');
});
