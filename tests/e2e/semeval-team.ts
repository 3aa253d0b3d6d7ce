/**
 * The setup of the specs where annotators and a judge meet: a serve-mode workspace of the spec's
 * own holding the SemEval-2016 dev questions (pool `dev`, imported by the owner on loopback), the
 * spec's people, then `prepare` (its pools), and a page on it (`useServedSemevalDev`: set up before
 * the spec's tests, torn down after them).
 */
import { expect, test, type BrowserContextOptions, type Page } from '@playwright/test';
import { invoke, SEMEVAL_DEV } from './api';
import type { ServeProcess } from './serve';
import { useServedWorkspace, type ServedWorkspace } from './served-workspace';

/** Its server is never stopped by the spec. */
export type ServedSemevalDev = ServedWorkspace & { server: ServeProcess };

/**
 * Registers the spec's setup and teardown: before its tests, a served new workspace and a page on
 * it (useServedWorkspace: scratch directory `qpairs-e2e-NAME-`, the e2e base port + `portOffset`,
 * `context`: the page's viewport and options), the SemEval dev file imported as pool `dev` (waited
 * for to the end: its 550 questions indexed), `people` added with their roles and `prepare` run;
 * after them, the page closed, the server stopped and the directory removed. Returns the state the
 * tests read.
 */
export function useServedSemevalDev(
  name: string,
  portOffset: number,
  o: { people: ReadonlyArray<readonly [string, 'annotator' | 'judge' | 'owner']>; context?: BrowserContextOptions; prepare?: (page: Page) => Promise<void> },
): ServedSemevalDev {
  const served = useServedWorkspace(name, portOffset, { context: { viewport: { width: 1360, height: 900 }, colorScheme: 'light', ...o.context } }) as ServedSemevalDev;
  test.beforeAll(async () => {
    await served.page.goto('/#workspace');
    const request = served.page.request;
    await invoke(request, 'import.start', { format: 'semeval', sources: [{ path: SEMEVAL_DEV }], pool: 'dev' });
    // The import commits in chunks: pools sampled before its end would draw from part of the corpus.
    await expect.poll(async () => (await invoke<{ indexedQuestions: number }>(request, 'workspace.stats', {})).indexedQuestions, { timeout: 60_000 }).toBe(550);
    await expect.poll(async () => (await invoke<Array<{ name: string }>>(request, 'pool.list', {})).map((x) => x.name), { timeout: 60_000 }).toContain('dev');
    for (const [person, role] of o.people) await invoke(request, 'annotator.add', { name: person, role });
    await o.prepare?.(served.page);
  });
  return served;
}
