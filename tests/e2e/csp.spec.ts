/** The Content-Security-Policy: in the built index.html (Electron) and as a header (serve mode). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { CSP_HEADER, CSP_META } from '../../src/main/serve/csp';

const root = path.resolve(import.meta.dirname, '../..');

test('the built renderer index.html carries the CSP meta tag', () => {
  const html = readFileSync(path.join(root, 'out/renderer/index.html'), 'utf8');
  const m = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]+)"/i.exec(html);
  expect(m, 'no CSP meta tag in out/renderer/index.html').not.toBeNull();
  expect(m![1]).toBe(CSP_META);
  expect(CSP_META).toContain("script-src 'self'");
  expect(CSP_META).not.toContain('unsafe-eval');
  expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline scripts
});

test('the served page sends the CSP and security headers, and the app runs under them', async ({ page, request }) => {
  const r = await request.get('/');
  expect(r.status()).toBe(200);
  const h = r.headers();
  expect(h['content-security-policy']).toBe(CSP_HEADER);
  expect(h['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(h['x-content-type-options']).toBe('nosniff');
  expect(h['x-frame-options']).toBe('DENY');
  expect(h['access-control-allow-origin']).toBeUndefined();

  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __csp: string[] }).__csp ??= [];
      (window as unknown as { __csp: string[] }).__csp.push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  await page.goto('/#workspace');
  await expect(page.getByTestId('stat-questions')).toBeVisible();
  // the event WebSocket connects under connect-src 'self'
  await expect(page.getByTestId('connection')).toHaveAttribute('data-state', 'open');
  // progress bars and swatches set styles through the CSSOM, which style-src 'self' allows
  for (const tab of ['evaluate', 'pools', 'annotate', 'review', 'agreement', 'export', 'workspace']) {
    await page.getByTestId(`tab-${tab}`).click();
    await expect(page.getByTestId(`tab-${tab}`)).toHaveAttribute('aria-selected', 'true');
  }
  await page.waitForTimeout(300); // let the screens' first requests render
  const seen = await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? []);
  expect([...violations, ...seen]).toEqual([]);
});
