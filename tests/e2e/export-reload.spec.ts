/**
 * A page reloaded at once (serve mode): the server still counts the requests of the page that went until it
 * sees their connections close, and refused the new page's reads with 429 — the Export screen said "No
 * preview: too many requests at once from this caller: …; retry in a moment" and stayed so. Here the page
 * that went is played by requests the server holds open (sent, their bodies not yet); the reloaded page's
 * reads, refused, are sent again after Retry-After while the top bar says it is waiting for the server, and
 * once those requests are gone the preview is shown.
 */
import http from 'node:http';
import { expect, test } from '@playwright/test';
import { useServedSmallPool } from './small-pool';

test.describe.configure({ mode: 'serial' });

const served = useServedSmallPool('export-reload', 280, (pairs) => pairs.map(([q, c], i) => `${q},${c},ann,${i % 2}`));

/** `n` requests of the owner that the server counts in flight (headers sent, the body held back), and how to end them. */
function heldRequests(port: number, n: number): { end: () => void } {
  const reqs = Array.from({ length: n }, () => {
    const req = http.request({
      host: '127.0.0.1',
      port,
      path: '/api/invoke',
      method: 'POST',
      agent: false,
      headers: { 'Content-Type': 'application/json', 'X-QPairs': '1', 'Content-Length': '1000' },
    });
    req.on('error', () => {});
    req.flushHeaders();
    return req;
  });
  return { end: () => reqs.forEach((r) => r.destroy()) };
}

test('reloaded while the server still counts the earlier page: the preview comes once it is free, the top bar saying it waits', async () => {
  const page = served.page;
  await page.goto('/#export');
  await page.getByTestId('export-pool').selectOption('p');
  await expect(page.getByTestId('export-preview-p.qrels')).toBeVisible();
  const refused: string[] = [];
  page.on('response', (r) => {
    if (r.status() === 429) refused.push(JSON.parse(r.request().postData() ?? '{}').command as string);
  });
  // The page that goes: 16 requests in flight, the caller's limit.
  const earlier = heldRequests(served.port, 16);
  try {
    await expect.poll(async () => (await page.request.post('/api/invoke', { headers: { 'X-QPairs': '1' }, data: { command: 'pool.list', args: {} } })).status()).toBe(429);
    await page.reload();
    await expect(page.getByTestId('connection')).toHaveText('waiting for the server…');
    expect(refused.length).toBeGreaterThan(0);
  } finally {
    earlier.end();
  }
  await expect(page.getByTestId('export-preview-p.qrels')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('export-preview-error')).toHaveCount(0);
  await expect(page.getByTestId('connection')).toHaveText('connected');
});
