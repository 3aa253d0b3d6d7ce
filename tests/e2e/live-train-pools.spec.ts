/**
 * "Learn as we label"'s training pools in Evaluate: the owner ticks the other pools the live models
 * also train on — a labelled group of checkboxes, by keyboard — where before only the API
 * (`live.set`'s trainPools) could set them. The choice is the engine's (live.status) and survives a reload.
 */
import { expect, test } from '@playwright/test';
import { useServedSmallPool } from './small-pool';
import type { LiveStatus } from '../../src/shared/live';

test.describe.configure({ mode: 'serial' });

// Pools dev (SemEval's, gold labels) and p (3 queries × 4 candidates, labeled by ann).
const served = useServedSmallPool('live-train-pools', 21, (ps) => ps.map(([q, c], i) => `${q},${c},ann,${i % 4 === 0 ? 1 : 0}`));

async function liveStatus(): Promise<LiveStatus> {
  const r = await served.page.request.post('/api/invoke', { headers: { 'X-QPairs': '1' }, data: { command: 'live.status', args: { pool: 'p' } } });
  expect(r.ok(), await r.text()).toBe(true);
  return (await r.json()) as LiveStatus;
}

test('the owner ticks a training pool by keyboard; the live setting keeps it', async () => {
  await served.page.goto('/#evaluate');
  await served.page.getByTestId('eval-pool').selectOption('p');
  const group = served.page.getByRole('group', { name: 'also train on' });
  await expect(group).toBeVisible();
  // Every other pool is offered, not the pool itself.
  await expect(group.getByRole('checkbox')).toHaveCount(1);
  const dev = group.getByRole('checkbox', { name: 'dev' });
  await expect(dev).not.toBeChecked();
  // Reached with Tab from the models' checkboxes, ticked with Space.
  await served.page.getByTestId('live-model-dae').focus();
  await served.page.keyboard.press('Tab');
  await expect(dev).toBeFocused();
  await served.page.keyboard.press('Space');
  await expect(dev).toBeChecked();
  await expect.poll(async () => (await liveStatus()).trainPools).toEqual(['dev']);
  await expect(served.page.getByTestId('live-status')).toContainText('Also trained on: dev.');
  // Switching live retraining on keeps the training pool (the panel sends every setting it shows).
  await served.page.getByTestId('live-enabled').check();
  await expect.poll(async () => (await liveStatus()).enabled).toBe(true);
  expect((await liveStatus()).trainPools).toEqual(['dev']);
  await served.page.getByTestId('live-enabled').uncheck();

  await served.page.reload();
  await served.page.getByTestId('eval-pool').selectOption('p');
  await expect(served.page.getByRole('group', { name: 'also train on' }).getByRole('checkbox', { name: 'dev' })).toBeChecked();
  // Unticked by keyboard: the live models train on this pool alone again.
  await served.page.getByTestId('live-train-pool-dev').focus();
  await served.page.keyboard.press('Space');
  await expect.poll(async () => (await liveStatus()).trainPools).toEqual([]);
  await expect(served.page.getByTestId('live-status')).not.toContainText('Also trained on');
});

test("another pool's retrain does not show as this pool's: the panel of dev stays idle while p retrains", async () => {
  test.setTimeout(180_000);
  await served.page.goto('/#evaluate');
  await served.page.getByTestId('eval-pool').selectOption('dev');
  await expect(served.page.getByTestId('live-status')).toContainText('Off:');
  // Every sight of "Retraining" on dev's panel is recorded while p retrains.
  await served.page.evaluate(() => {
    const w = window as unknown as { __seen: string[]; __watch: number };
    w.__seen = [];
    w.__watch = window.setInterval(() => {
      const t = document.querySelector('[data-testid="live-status"]')?.textContent ?? '';
      if (/Retrain/.test(t)) w.__seen.push(t);
    }, 20);
  });
  const invoke = (command: string, args: object) => served.page.request.post('/api/invoke', { headers: { 'X-QPairs': '1' }, data: { command, args } });
  expect((await invoke('live.set', { pool: 'p', enabled: true, everyLabels: 1000, idleSeconds: 0, models: ['tfidf'] })).ok()).toBe(true);
  expect((await invoke('live.retrain', { pool: 'p' })).ok()).toBe(true);
  await expect.poll(async () => (await liveStatus()).curve.length, { timeout: 150_000 }).toBeGreaterThan(0);
  const seen = await served.page.evaluate(() => {
    const w = window as unknown as { __seen: string[]; __watch: number };
    window.clearInterval(w.__watch);
    return w.__seen;
  });
  expect(seen).toEqual([]);
  await expect(served.page.getByTestId('live-status')).toContainText('Off:');
  await invoke('live.set', { pool: 'p', enabled: false });
});
