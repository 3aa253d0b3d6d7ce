/**
 * A label the server is busy with (serve mode): its request has had no answer for 20 s, but the
 * server, asked whether it still has it (GET /api/health?request=ID, the id the page gave the
 * request), says it has. The top bar said "cannot reach the engine, retrying" and the page sent a
 * second copy; it now says the server is busy, sends nothing again, and says saved once the server
 * answers. The network here holds the label's request on its way (the server has not got it yet), and
 * answers the page's question about that one request as a busy server would: the other requests,
 * and the question about any other, reach the server. The page's clock is Playwright's, moved on by
 * the test (nothing waits out the 20 s).
 */
import { expect, test, type Page, type Route } from '@playwright/test';
import { openAnnotate } from './annotate-page';
import type { InvokeBody } from './lost-answer';
import { useServedSmallPool } from './small-pool';

test.describe.configure({ mode: 'serial' });

// Another annotator's labels only: ann starts with every pair unlabeled.
const served = useServedSmallPool('netbusy', 160, (ps) => ps.map(([q, c]) => `${q},${c},other,0`));
let page: Page;

test.beforeAll(() => {
  page = served.page;
});

/** Holds the first label.set for `candidateId`; the question about it is answered `pending` (busy) until released. */
async function holdLabel(candidateId: string, pending: boolean): Promise<{ sent: () => number; asked: () => number; release: () => Promise<void> }> {
  let held: Route | null = null;
  let heldId: string | null = null;
  let sent = 0;
  let asked = 0;
  await page.route('**/api/invoke', async (route) => {
    const body = route.request().postDataJSON() as InvokeBody | null;
    if (body?.command === 'label.set' && body.args?.candidateId === candidateId) {
      sent++;
      if (!held) {
        held = route;
        heldId = (await route.request().headerValue('x-qpairs-request')) ?? null;
        return;
      }
    }
    await route.continue().catch(() => {});
  });
  await page.route('**/api/health?request=*', async (route) => {
    const id = new URL(route.request().url()).searchParams.get('request');
    if (heldId === null || id !== heldId) return route.continue().catch(() => {});
    asked++;
    await route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ ok: true, annotator: null, pending }) });
  });
  return {
    sent: () => sent,
    asked: () => asked,
    release: async () => {
      await page.unroute('**/api/health?request=*');
      await page.unroute('**/api/invoke');
      await held?.continue().catch(() => {});
    },
  };
}

test('a server busy with a label (it says it has it) reads as busy, not unreachable; the label is not sent again, and is saved once it answers', async () => {
  await page.clock.install();
  await openAnnotate(page, 'ann', 'p');
  const first = (await page.getByTestId('candidate-row-0').getAttribute('data-candidate-id'))!;
  const hold = await holdLabel(first, true);
  try {
    await page.keyboard.press('1');
    await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saving');
    await page.clock.fastForward(20_000);
    await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'busy');
    await expect(page.getByTestId('save-status')).toHaveText('1 label waiting to be saved — the server is busy (it answers, but has not saved it yet), waiting');
    await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'open');
    // Asked again every 20 s while it waits (fastForward fires a timer at most once per jump).
    for (const n of [2, 3]) {
      await page.clock.fastForward(20_000);
      await expect.poll(() => hold.asked()).toBe(n);
    }
    // Before: aborted after 20 s and sent again, "cannot reach the engine, retrying".
    expect(hold.sent()).toBe(1);
    await expect(page.getByTestId('row-state-0')).toHaveAttribute('data-state', 'pending');
    await expect(page.getByTestId('row-state-0')).toHaveAttribute('title', 'being saved: the server is busy with it');
  } finally {
    await hold.release();
  }
  await expect(page.getByTestId('row-state-0')).toHaveAttribute('data-state', 'saved');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  expect(hold.sent()).toBe(1);
});

test('a label the server answers it does not have (the network swallowed it) is sent again and saved once', async () => {
  await openAnnotate(page, 'ann', 'p');
  const second = (await page.getByTestId('candidate-row-1').getAttribute('data-candidate-id'))!;
  await page.keyboard.press('ArrowDown');
  const hold = await holdLabel(second, false);
  try {
    await page.keyboard.press('0');
    await page.clock.fastForward(20_000);
    await expect(page.getByTestId('row-state-1')).toHaveAttribute('data-state', 'saved');
    expect(hold.asked()).toBe(1);
    expect(hold.sent()).toBe(2);
  } finally {
    await hold.release();
  }
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await expect(page.getByTestId('label-1')).toHaveAttribute('data-value', '0');
});
