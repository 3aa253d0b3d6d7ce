/**
 * A read-only workspace in serve mode (the desktop app's is desktop-readonly.spec): the owner on the
 * server's machine (loopback, no token) sees why it opened read-only, and the forms that would change
 * it are replaced by one line; an annotator signed in with her link sees the same notes but never a
 * path on the server (in the page's text, its notices or its errors), and her label keys give nothing
 * and say why once, instead of each key being sent, refused and listed as not saved.
 *
 * Read-only as a user meets it: the file not writable (read-only-file.ts; skipped, saying why, where it cannot be made so).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { useReadOnlyFile } from './read-only-file';
import { expect, test, type Page } from '@playwright/test';
import { buildLabeledPool } from './labeled-pool';
import { useServedWorkspace } from './served-workspace';
import { qpairs } from './small-pool';

test.describe.configure({ mode: 'serial' });

// Registered before the workspace's teardown, so the file is writable again when its folder is removed.
const readOnlyFile = useReadOnlyFile();

let ninaToken = '';
const served = useServedWorkspace('served-readonly', 52, {
  workspace: 'w.qpairs',
  prepare(s) {
    const workspace = s.workspace!;
    buildLabeledPool(s.dir, workspace, 10);
    ninaToken = (JSON.parse(qpairs('annotators', 'invite', workspace, 'nina', '--json')) as { token: string }).token;
    qpairs('assign', workspace, '--pool', 'big', '--annotators', 'nina');
    readOnlyFile.make(workspace);
  },
});

const NOTHING_GIVEN = 'Nothing given: this workspace opened read-only. Once it can be written, open it again.';

/** Everything the page shows or holds as text (attributes too: a title, an aria-label). */
async function pageText(page: Page): Promise<string> {
  return `${await page.locator('body').innerText()}\n${await page.content()}`;
}

test('the owner on the server’s machine sees why the workspace opened read-only; no form that would change it', async () => {
  const { page } = served;
  await page.goto('/#workspace');
  await expect(page.getByTestId('header-readonly')).toBeVisible();
  await expect(page.getByTestId('open-notice-read-only')).toContainText(
    'This workspace opened read-only (the file is not writable): labels, imports and other changes are refused. Once it can be written, open it again.',
  );
  await expect(page.getByTestId('stat-questions')).toHaveText('40');
  await expect(page.getByTestId('import-readonly')).toContainText('so importing (or undoing an import) cannot be done here');
  await expect(page.getByTestId('import-start')).toHaveCount(0);
  await page.getByTestId('tab-pools').click();
  await expect(page.getByTestId('new-pool-readonly')).toContainText('so making a pool cannot be done here');
});

test('an annotator with her link: no server path anywhere; her label keys give nothing and say why once', async () => {
  const context = await served.page.context().browser()!.newContext({ baseURL: served.server!.url });
  try {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`/?token=${encodeURIComponent(ninaToken)}#annotate`);
    await expect(page.getByTestId('header-readonly')).toBeVisible();
    await expect(page.getByTestId('annotate-readonly')).toContainText('so labeling cannot be done here');
    await expect(page.getByTestId('annotate-pool')).toHaveValue('big');
    await expect(page.getByTestId('query-title')).toBeVisible();
    await page.keyboard.press('1');
    await page.keyboard.press('0');
    await expect(page.getByTestId('annotate-notice')).toHaveText(NOTHING_GIVEN);
    await expect(page.getByTestId('failed-labels')).toHaveCount(0);
    // Her own view: no notice meant for the owner, and the server's folder named nowhere.
    await expect(page.getByTestId('open-notices')).toHaveCount(0);
    expect(await pageText(page)).not.toContain(served.dir);
    for (const tab of ['tab-workspace', 'tab-pools']) {
      if ((await page.getByTestId(tab).count()) === 0) continue;
      await page.getByTestId(tab).click();
      await expect(page.getByTestId('header-readonly')).toBeVisible();
      expect(await pageText(page), tab).not.toContain(served.dir);
    }
    // A label she sends over the API is refused by the workspace's name only.
    const [queryId, candidateId] = readFileSync(path.join(served.dir, 'pairs.csv'), 'utf8').split('\n')[1]!.split(',');
    const r = await context.request.post('/api/invoke', {
      headers: { 'X-QPairs': '1', Authorization: `Bearer ${ninaToken}` },
      data: { command: 'label.set', args: { pool: 'big', queryId, candidateId, annotator: 'nina', value: '1' } },
    });
    const body = (await r.json()) as { message?: string };
    expect(body.message).toBe('workspace w.qpairs is read-only (the file is not writable): it cannot be changed');
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
});
