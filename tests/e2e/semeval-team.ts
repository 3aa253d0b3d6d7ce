/**
 * The setup of the specs where annotators and a judge meet: a serve-mode workspace of the spec's
 * own holding the SemEval-2016 dev questions (pool `dev`, imported by the owner on loopback), the
 * spec's people, then `prepare` (its pools), and a page on it (`useServedSemevalDev`: set up before
 * the spec's tests, torn down after them).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type BrowserContextOptions, type Page } from '@playwright/test';
import { invoke, SEMEVAL_DEV } from './api';
import { startServe, type ServeProcess } from './serve';

export interface ServedSemevalDev {
  /** The spec's scratch directory (the workspace is in it). */
  dir: string;
  server: ServeProcess;
  page: Page;
}

/**
 * Registers the spec's setup and teardown: before its tests, a scratch directory `qpairs-e2e-NAME-`,
 * a server of a new workspace on the e2e base port + `portOffset`, a page on it (`context`: its
 * viewport and options), the SemEval dev file imported as pool `dev` (waited for to the end: its 550
 * questions indexed), `people` added with their roles and `prepare` run; after them, the page closed,
 * the server stopped and the directory removed. Returns the state the tests read.
 */
export function useServedSemevalDev(
  name: string,
  portOffset: number,
  o: { people: ReadonlyArray<readonly [string, 'annotator' | 'judge' | 'owner']>; context?: BrowserContextOptions; prepare?: (page: Page) => Promise<void> },
): ServedSemevalDev {
  const served = {} as ServedSemevalDev;
  test.beforeAll(async ({ browser }) => {
    served.dir = mkdtempSync(path.join(tmpdir(), `qpairs-e2e-${name}-`));
    served.server = await startServe({ workspace: path.join(served.dir, `${name}.qpairs`), port: Number(process.env.QPAIRS_E2E_PORT ?? 27613) + portOffset });
    const ctx = await browser.newContext({ viewport: { width: 1360, height: 900 }, colorScheme: 'light', ...o.context, baseURL: served.server.url });
    served.page = await ctx.newPage();
    served.page.on('pageerror', (e) => console.log(`[page error] ${e.message}`));
    await served.page.goto('/#workspace');
    const request = served.page.request;
    await invoke(request, 'import.start', { format: 'semeval', sources: [{ path: SEMEVAL_DEV }], pool: 'dev' });
    // The import commits in chunks: pools sampled before its end would draw from part of the corpus.
    await expect.poll(async () => (await invoke<{ indexedQuestions: number }>(request, 'workspace.stats', {})).indexedQuestions, { timeout: 60_000 }).toBe(550);
    await expect.poll(async () => (await invoke<Array<{ name: string }>>(request, 'pool.list', {})).map((x) => x.name), { timeout: 60_000 }).toContain('dev');
    for (const [person, role] of o.people) await invoke(request, 'annotator.add', { name: person, role });
    await o.prepare?.(served.page);
  });
  test.afterAll(async () => {
    await served.page?.context().close();
    await served.server?.stop();
    if (served.dir) rmSync(served.dir, { recursive: true, force: true });
  });
  return served;
}
