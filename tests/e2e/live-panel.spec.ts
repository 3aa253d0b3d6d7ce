/**
 * The owner's "Learn as we label" settings in Evaluate, by keyboard: a number typed into "every N
 * labels" is applied on Enter (or on leaving the field), not digit by digit — typing 100 used to set 1
 * first, which started a retrain at once. A running retrain has a Cancel button. In Annotate, the
 * floating panel of rankers never hides the candidate under the cursor, however many lines it takes.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { qpairs, useServedSmallPool } from './small-pool';
import type { LiveStatus } from '../../src/shared/live';

test.describe.configure({ mode: 'serial' });

// Every pair of the 3 queries labeled by ann (12 labels): q0's first candidate similar, q1's second, q2's
// third, so each run scores the queries differently and the panel shows each figure's interval (a run
// with the same AP on every query has none).
const served = useServedSmallPool('live-panel', 6, (ps) => ps.map(([q, c], i) => `${q},${c},ann,${i % 5 === 0 ? 1 : 0}`), ({ dir, workspace, pairs }) => {
  // Three more runs: Annotate's floating panel of rankers then takes four lines.
  const runs = path.join(dir, 'more-runs.txt');
  writeFileSync(runs, ['r1', 'r2', 'r3'].flatMap((tag, t) => pairs.map(([q, c], i) => `${q} Q0 ${c} ${((i + t) % 4) + 1} ${4 - ((i + t) % 4)} ${tag}`)).join('\n') + '\n');
  qpairs('import', workspace, '--format', 'trec-run', '--pool', 'p', runs);
});

async function liveStatus(): Promise<LiveStatus> {
  const r = await served.page.request.post('/api/invoke', { headers: { 'X-QPairs': '1' }, data: { command: 'live.status', args: { pool: 'p' } } });
  expect(r.ok(), await r.text()).toBe(true);
  return (await r.json()) as LiveStatus;
}

test("a burst of labels refreshes the panel's status once it settles, not once per label", async () => {
  await served.page.goto('/#evaluate');
  await served.page.getByTestId('eval-pool').selectOption('p');
  await expect(served.page.getByTestId('live-enabled')).toBeVisible();
  let asked = 0;
  let lastLabelDone = false;
  let askedAfterLast = 0;
  const count = (r: import('@playwright/test').Request): void => {
    if (!r.url().endsWith('/api/invoke') || !(r.postData() ?? '').includes('"live.status"')) return;
    asked++;
    if (lastLabelDone) askedAfterLast++;
  };
  served.page.on('request', count);
  try {
    // Two passes over the 12 pairs: each label flips the pair's value (so each is a label.changed
    // event), and the second pass puts ann's labels back as the tests after this one expect them.
    const labels = 2 * served.pairs.length;
    for (let i = 0; i < labels; i++) {
      const pair = i % served.pairs.length;
      const [q, c] = served.pairs[pair]!;
      const imported = pair % 5 === 0 ? 1 : 0; // as the file labels them (above)
      const value = String(i < served.pairs.length ? 1 - imported : imported);
      const r = await served.page.request.post('/api/invoke', { headers: { 'X-QPairs': '1' }, data: { command: 'label.set', args: { pool: 'p', annotator: 'ann', queryId: q, candidateId: c, value } } });
      expect(r.ok(), await r.text()).toBe(true);
    }
    lastLabelDone = true;
    // The panel still follows the labels: it asks once more after the burst (or it asked once per label).
    await expect.poll(() => askedAfterLast > 0 || asked >= labels).toBe(true);
    expect(asked).toBeLessThan(labels / 2);
  } finally {
    served.page.off('request', count);
  }
});

test('typing a number of labels applies it on Enter, not digit by digit (no retrain started on the way)', async () => {
  await served.page.goto('/#evaluate');
  await served.page.getByTestId('eval-pool').selectOption('p');
  await served.page.getByTestId('live-enabled').check();
  await expect(served.page.getByTestId('live-status')).toContainText('12 labels since the last retrain; the next starts at 20');
  const every = served.page.getByTestId('live-every');
  await every.focus();
  await served.page.keyboard.press('ControlOrMeta+a');
  await served.page.keyboard.type('100');
  // Nothing applied yet: the setting is still 20.
  expect((await liveStatus()).everyLabels).toBe(20);
  await served.page.keyboard.press('Enter');
  await expect(served.page.getByTestId('live-status')).toContainText('the next starts at 100');
  await expect(every).toHaveValue('100');
  const s = await liveStatus();
  // 12 labels are fewer than 100: no retrain ran, none failed.
  expect(s).toMatchObject({ everyLabels: 100, running: false, curve: [], lastError: null, labelsSinceLast: 12 });

  // A value out of range is not applied and the field goes back to the setting when left; Esc restores it too.
  await every.focus();
  await served.page.keyboard.press('ControlOrMeta+a');
  await served.page.keyboard.type('0');
  await expect(every).toHaveAttribute('aria-invalid', 'true');
  await served.page.keyboard.press('Tab');
  await expect(every).toHaveValue('100');
  const idle = served.page.getByTestId('live-idle');
  await idle.focus();
  await served.page.keyboard.press('ControlOrMeta+a');
  await served.page.keyboard.type('5');
  await served.page.keyboard.press('Escape');
  await expect(idle).toHaveValue('60');
  expect(await liveStatus()).toMatchObject({ everyLabels: 100, idleSeconds: 60, running: false, curve: [] });
});

test('a running retrain can be cancelled from the panel, by keyboard: it writes nothing and says so', async () => {
  test.setTimeout(120_000);
  await served.page.goto('/#evaluate');
  await served.page.getByTestId('eval-pool').selectOption('p');
  await expect(served.page.getByTestId('live-enabled')).toBeChecked();
  await served.page.getByTestId('live-retrain').focus();
  await served.page.keyboard.press('Enter');
  await expect(served.page.getByTestId('live-status')).toContainText('Retraining in the background');
  // Retrain now keeps the focus while the retrain runs (it turned disabled, which dropped the focus to the page).
  await expect(served.page.getByTestId('live-retrain')).toBeFocused();
  const cancel = served.page.getByTestId('live-cancel');
  await cancel.focus();
  await served.page.keyboard.press('Enter');
  await expect(served.page.getByTestId('live-last-error')).toHaveText('Last retrain: cancelled; the next retrain starts after the next labels');
  await expect(cancel).toHaveCount(0);
  const s = await liveStatus();
  expect(s).toMatchObject({ running: false, jobId: null, curve: [] });
  const runs = await served.page.request.post('/api/invoke', { headers: { 'X-QPairs': '1' }, data: { command: 'eval.pool', args: { pool: 'p', annotator: 'ann' } } });
  expect(Object.keys(((await runs.json()) as { runs: Record<string, unknown> }).runs)).not.toContain('live-fused');
});

test('Annotate: the candidate under the cursor is never behind the floating panel of rankers, however many lines it wraps to', async () => {
  const annotate = await served.context.newPage();
  await annotate.setViewportSize({ width: 1024, height: 700 });
  await annotate.goto('/#annotate');
  await annotate.getByTestId('annotate-pool').selectOption('p');
  await annotate.getByTestId('annotator-input').fill('ann');
  await annotate.getByTestId('annotator-input').press('Enter');
  await expect(annotate.getByTestId('live-run-r3')).toBeVisible();
  const panel = annotate.getByTestId('live-metrics');
  expect((await panel.boundingBox())!.height, 'the panel wraps to several lines').toBeGreaterThan(80);
  for (let query = 0; query < 3; query++) {
    await annotate.keyboard.press('Home');
    for (let row = 0; row < 4; row++) {
      if (row > 0) await annotate.keyboard.press('j');
      const current = annotate.locator('tr.cand-row.current');
      await expect(current).toHaveCount(1);
      await expect(async () => {
        const r = (await current.boundingBox())!;
        const p = (await panel.boundingBox())!;
        expect(r.y + r.height, `row ${row} of query ${query}: its bottom is above the panel's top`).toBeLessThanOrEqual(p.y + 1);
      }).toPass({ timeout: 3000 });
    }
    await annotate.keyboard.press('N');
  }
  await annotate.close();
});
