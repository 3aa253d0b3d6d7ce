/**
 * Review after labels: the screen reads again only the queries the labels touched (review.queue
 * with `since`, an answer the size of a query's pairs, not the pool's) and shows the changed rows —
 * a new disagreement appears, a pair whose votes now agree leaves, a ruling shows as saved — while
 * the judge's r reads the whole queue.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { useServedReviewPool } from './review-pool';

const root = path.resolve(import.meta.dirname, '../..');
const QUERIES = 80;
const DEPTH = 4;

test.describe.configure({ mode: 'serial' });

const served = useServedReviewPool('review-refresh', 40, 'p', () => {
  const questions: string[] = [];
  const labels: string[] = [];
  for (let q = 0; q < QUERIES; q++) {
    const cands = Array.from({ length: DEPTH }, (_, c) => `c${q}x${c}`);
    for (const id of [`q${q}`, ...cands]) questions.push(JSON.stringify({ id, title: `Title of ${id}`, body: `Body of ${id}` }));
    // alice says 1 and bob 0 on each query's pairs but the last, where both say 1.
    cands.forEach((c, i) => labels.push(`q${q},${c},alice,1`, `q${q},${c},bob,${i === DEPTH - 1 ? 1 : 0}`));
  }
  return { questions, labels };
});

async function call<T>(page: Page, command: string, args: unknown): Promise<T> {
  const r = await page.request.post(`${served.server!.url}/api/invoke`, { headers: { 'X-QPairs': '1' }, data: { command, args } });
  expect(r.ok(), `${command}: ${await r.text()}`).toBe(true);
  return (await r.json()) as T;
}

async function invoke(page: Page, command: string, args: unknown): Promise<void> {
  await call(page, command, args);
}

test('after labels the screen reads the touched queries only and shows the changed rows', async () => {
  const page = served.page;
  test.setTimeout(120_000);
  const pairs = QUERIES * (DEPTH - 1);
  const reads: Array<{ args: { since?: number; queries?: string[] }; bytes: number }> = [];
  /** Queue reads asked for and not yet recorded: the counts below are taken when none is. */
  let pending = 0;
  const isQueueRead = (post: string | null, url: string): boolean => url.endsWith('/api/invoke') && (post ?? '').includes('"review.queue"');
  page.on('request', (r) => {
    if (isQueueRead(r.postData(), r.url())) pending++;
  });
  page.on('response', async (r) => {
    const post = r.request().postData() ?? '';
    if (!isQueueRead(post, r.url())) return;
    reads.push({ args: (JSON.parse(post) as { args: { since?: number; queries?: string[] } }).args, bytes: (await r.body().catch(() => Buffer.alloc(0))).length });
    pending--;
  });
  page.on('requestfailed', (r) => {
    if (isQueueRead(r.postData(), r.url())) pending--;
  });
  const quiet = (): Promise<void> => expect.poll(() => pending).toBe(0);
  await page.goto(`${served.server!.url}/#review`);
  await page.getByTestId('review-pool').selectOption('p');
  await page.getByTestId('review-judge').selectOption('judy');
  await page.getByTestId('review-judge').blur();
  await expect(page.getByTestId('review-total')).toHaveText(String(pairs));
  await expect.poll(() => reads.length).toBeGreaterThan(0);
  await quiet();
  const whole = reads.at(-1)!;
  expect(whole.args.since).toBeUndefined();
  const before = reads.length;

  // bob now says 0 on q5's agreed pair: a new disagreement, at the end of the list.
  await invoke(page, 'label.set', { pool: 'p', queryId: 'q5', candidateId: `c5x${DEPTH - 1}`, annotator: 'bob', value: '0' });
  await expect(page.getByTestId('review-total')).toHaveText(String(pairs + 1));
  await page.keyboard.press('End');
  const current = page.getByTestId('review-current');
  await expect(current).toHaveAttribute('data-query', 'q5');
  await expect(current).toHaveAttribute('data-candidate', `c5x${DEPTH - 1}`);
  await expect(page.getByTestId(`review-row-${pairs}`)).toContainText('Title of q5');
  await expect(page.getByTestId('review-votes')).toContainText('bob');
  mkdirSync(path.join(root, 'test-results', 'screens'), { recursive: true });
  await page.screenshot({ path: path.join(root, 'test-results', 'screens', 'review-refresh-new-row.png') });

  // The refresh read q5 only: a few hundred bytes, not the pool's queue.
  await quiet();
  expect(reads.length).toBeGreaterThan(before);
  const part = reads.slice(before);
  for (const r of part) {
    expect(r.args.since, JSON.stringify(r.args)).toBeDefined();
    expect(r.args.queries).toEqual(['q5']);
    expect(r.bytes, `refresh of ${r.bytes} bytes`).toBeLessThan(DEPTH * 600 + 800);
  }
  expect(part[0]!.bytes * 10).toBeLessThan(whole.bytes);

  // alice now says 0 on q9's first pair: it agrees and leaves the list.
  await quiet();
  await page.keyboard.press('Home');
  await expect(page.getByTestId('review-row-27')).toContainText('Title of q9');
  await invoke(page, 'label.set', { pool: 'p', queryId: 'q9', candidateId: 'c9x0', annotator: 'alice', value: '0' });
  await expect(page.getByTestId('review-total')).toHaveText(String(pairs));
  await expect(page.getByTestId('review-row-27')).toContainText('c9x1');

  // A ruling by key shows as saved and the count follows, through the same small reads.
  await quiet();
  const n = reads.length;
  await page.keyboard.press('1');
  await expect(page.getByTestId('review-remaining')).toHaveText(String(pairs - 1));
  await expect(page.getByTestId('review-row-0')).toHaveAttribute('data-state', 'saved');
  await expect.poll(() => reads.length).toBeGreaterThan(n);
  for (const r of reads.slice(n)) expect(r.args.queries ?? [], JSON.stringify(r.args)).toEqual(['q0']);

  // r re-sorts from a whole read: the same pairs and counts.
  await quiet();
  const m = reads.length;
  await page.keyboard.press('r');
  await expect.poll(() => reads.length).toBeGreaterThan(m);
  expect(reads[m]!.args.since).toBeUndefined();
  await expect(page.getByTestId('review-total')).toHaveText(String(pairs));
  await expect(page.getByTestId('review-remaining')).toHaveText(String(pairs - 1));
  await page.screenshot({ path: path.join(root, 'test-results', 'screens', 'review-refresh-after.png') });
});

test('a draw of an ordered pool (an annotator given their next query) reads nothing again; the next label reads its query only', async () => {
  const page = served.page;
  test.setTimeout(120_000);
  const pairs = QUERIES * (DEPTH - 1);
  const reads: Array<{ since?: number; queries?: string[] }> = [];
  let pending = 0;
  const isQueueRead = (post: string | null, url: string): boolean => url.endsWith('/api/invoke') && (post ?? '').includes('"review.queue"');
  page.on('request', (r) => {
    if (isQueueRead(r.postData(), r.url())) pending++;
  });
  page.on('response', (r) => {
    const post = r.request().postData() ?? '';
    if (!isQueueRead(post, r.url())) return;
    reads.push((JSON.parse(post) as { args: { since?: number; queries?: string[] } }).args);
    pending--;
  });
  page.on('requestfailed', (r) => {
    if (isQueueRead(r.postData(), r.url())) pending--;
  });
  const quiet = (): Promise<void> => expect.poll(() => pending).toBe(0);
  // Review of pool p by judy, opened here (run alone, the page is blank; after the first test it reloads).
  await page.goto('about:blank');
  await page.goto(`${served.server!.url}/#review`);
  await page.getByTestId('review-pool').selectOption('p');
  await page.getByTestId('review-judge').selectOption('judy');
  await page.getByTestId('review-judge').blur();
  await expect(page.getByTestId('review-total')).toHaveText(String(pairs));
  await quiet();
  const loaded = reads.length;
  // The owner orders the pool at random: a change of the pool, read whole.
  await invoke(page, 'pool.set', { pool: 'p', order: 'random', orderSeed: 3 });
  await expect.poll(() => reads.length).toBeGreaterThan(loaded);
  await quiet();
  expect(reads.at(-1)!.since).toBeUndefined();
  const n = reads.length;
  // carol (who has labeled nothing) asks for her first query: the pool draws (workspace.changed, as draws) and no label changes.
  await invoke(page, 'annotate.query', { pool: 'p', annotator: 'carol' });
  // bob now says 1 on q7's first pair: it agrees and leaves the list, read through q7 alone.
  await invoke(page, 'label.set', { pool: 'p', queryId: 'q7', candidateId: 'c7x0', annotator: 'bob', value: '1' });
  await expect(page.getByTestId('review-total')).toHaveText(String(pairs - 1));
  await quiet();
  expect(reads.length).toBeGreaterThan(n);
  for (const r of reads.slice(n)) {
    expect(r.since, JSON.stringify(r)).toBeDefined();
    expect(r.queries).toEqual(['q7']);
  }
});

test('a draw of the ordered pool makes no screen that shows nothing of it read again; a label does', async () => {
  const page = served.page;
  test.setTimeout(90_000);
  /** Requests per command, counted from here on. */
  const asked = new Map<string, number>();
  page.on('request', (r) => {
    const m = r.url().endsWith('/api/invoke') ? /"command":"([^"]+)"/.exec(r.postData() ?? '') : null;
    if (m) asked.set(m[1]!, (asked.get(m[1]!) ?? 0) + 1);
  });
  const count = (command: string): number => asked.get(command) ?? 0;
  /** The draws the page was told of (workspace.changed {what: 'draws'}): a draw that told none drew nothing, and pinned nothing. */
  let draws = 0;
  page.on('websocket', (ws) =>
    ws.on('framereceived', ({ payload }) => {
      const m = JSON.parse(String(payload)) as { event?: string; payload?: { what?: string } };
      if (m.event === 'workspace.changed' && m.payload?.what === 'draws') draws++;
    }),
  );
  // The pool is ordered here, whatever ran before: in the pool's own order (its default) nothing is drawn.
  await invoke(page, 'pool.set', { pool: 'p', order: 'random', orderSeed: 3 });
  /** carol finishes the query drawn for her (labels), so that her next one needs a draw. */
  const finishCarolsQuery = async (): Promise<void> => {
    const mine = await call<{ queryId: string; candidates: Array<{ id: string }> }>(page, 'annotate.query', { pool: 'p', annotator: 'carol' });
    for (const c of mine.candidates) await invoke(page, 'label.set', { pool: 'p', queryId: mine.queryId, candidateId: c.id, annotator: 'carol', value: '0' });
    await page.waitForTimeout(1_500); // past the screens' debounces (at most 800 ms): what the labels made them read has been asked for
  };
  /** carol's next query: a draw. The counts of `commands` past the debounces are those before it. */
  const drawAndExpectNoRead = async (commands: string[]): Promise<string> => {
    const before = commands.map(count);
    const drawsBefore = draws;
    const next = await call<{ queryId: string }>(page, 'annotate.query', { pool: 'p', annotator: 'carol' });
    await expect.poll(() => draws, 'the pool drew carol a query').toBeGreaterThan(drawsBefore);
    await page.waitForTimeout(1_500);
    expect(commands.map(count), commands.join(', ')).toEqual(before);
    return next.queryId;
  };

  // Agreement (and the app's pool list, on every screen): the report is computed for a label, not for a draw.
  // From a blank page, so that the app loads again and its event connection is one the listener above sees
  // (going from #review to #agreement only changes the hash: the earlier tests' connection would stay).
  await page.goto('about:blank');
  await page.goto(`${served.server!.url}/#agreement`);
  await page.getByTestId('agreement-pool').selectOption('p');
  await expect.poll(() => count('agreement.report')).toBeGreaterThan(0);
  await finishCarolsQuery();
  const next = await drawAndExpectNoRead(['agreement.report', 'pool.list']);
  const reports = count('agreement.report');
  await invoke(page, 'label.set', { pool: 'p', queryId: next, candidateId: `c${next.slice(1)}x0`, annotator: 'carol', value: '1' });
  await expect.poll(() => count('agreement.report')).toBeGreaterThan(reports);

  // The Workspace screen's counts and Browse's search: a draw changes neither.
  await page.goto(`${served.server!.url}/#workspace`);
  await expect.poll(() => count('workspace.stats')).toBeGreaterThan(0);
  await finishCarolsQuery();
  await drawAndExpectNoRead(['workspace.stats', 'pool.list']);
  await page.goto(`${served.server!.url}/#browse`);
  await page.getByTestId('browse-text').fill('Title');
  await page.getByTestId('browse-search').click();
  await expect.poll(() => count('questions.search')).toBeGreaterThan(0);
  await finishCarolsQuery();
  await drawAndExpectNoRead(['questions.search', 'pool.list']);
  // Evaluate: a draw changes no label (it evaluated again and read the label sources again).
  await page.goto(`${served.server!.url}/#evaluate`);
  await page.getByTestId('eval-pool').selectOption('p');
  await expect.poll(() => count('eval.pool')).toBeGreaterThan(0);
  await expect.poll(() => count('annotator.list')).toBeGreaterThan(0);
  await finishCarolsQuery();
  await drawAndExpectNoRead(['eval.pool', 'annotator.list', 'pool.list']);
});
