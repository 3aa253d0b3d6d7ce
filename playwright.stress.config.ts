import { defineConfig } from '@playwright/test';
import base from './playwright.config';

/** `npx playwright test --config playwright.stress.config.ts`: the stall reproduction of tests/e2e/stress/ (not part of `npm test`). */
export default defineConfig({ ...base, testDir: 'tests/e2e/stress', testMatch: '*.stress.ts', timeout: 3_600_000 });
