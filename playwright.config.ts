import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests: the real UI in Debian's Chromium against serve mode. The global setup
 * builds the renderer, creates a fresh temporary workspace and starts `scripts/serve.mjs` on
 * QPAIRS_E2E_PORT (default 47613); tests/e2e/electron.spec.ts drives the desktop shell where the
 * Electron binary is installed and skips (saying why) where it is not.
 * Never run `npx playwright install`: the browser is /usr/bin/chromium (apt install chromium),
 * or QPAIRS_CHROMIUM.
 */
export const E2E_PORT = Number(process.env.QPAIRS_E2E_PORT ?? 47613);

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
    launchOptions: {
      executablePath: process.env.QPAIRS_CHROMIUM ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
});
