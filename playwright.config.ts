import { defineConfig } from '@playwright/test';
import { findBrowser } from './tests/e2e/browser';

/**
 * End-to-end tests: the real UI in Chromium against serve mode. The global setup
 * builds the renderer, creates a fresh temporary workspace and starts `scripts/serve.mjs` on
 * QPAIRS_E2E_PORT (default 27613: below Linux's ephemeral range, 32768-60999, where an outgoing connection's
 * own port once took a spec's fixed port — 47614 — mid-run); tests/e2e/electron.spec.ts drives the desktop shell where the
 * Electron binary is installed and skips (saying why) where it is not.
 * The browser is found by tests/e2e/browser.ts, in order: QPAIRS_CHROMIUM; an installed Chrome,
 * Edge or Chromium; on Linux x64 the headless Chromium of the npm package @sparticuz/chromium
 * (the global setup unpacks it); else the global setup fails saying what was tried.
 * Never run `npx playwright install`: Playwright's own browser downloads are not used.
 */
export const E2E_PORT = Number(process.env.QPAIRS_E2E_PORT ?? 27613);
// Synchronous and side-effect free: the runner and each worker load this file. When nothing is
// found, the global setup throws the error before any test would launch a browser.
const browser = findBrowser();

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '*.spec.ts',
  globalSetup: './tests/e2e/global-setup.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    browserName: 'chromium',
    viewport: { width: 1360, height: 900 },
    trace: 'retain-on-failure',
    launchOptions: 'launchOptions' in browser ? browser.launchOptions : {},
  },
});
