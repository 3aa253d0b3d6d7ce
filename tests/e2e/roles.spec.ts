/**
 * Serve mode with tokens, end to end: what each role sees. A workspace of its own is set up
 * through the API (loopback, no tokens: the owner), then served with tokens for olivia (owner),
 * carol (judge), alice and bob (annotators). alice opens her link: only the Annotate and Evaluate
 * screens, no blind switch but a "blind pool" badge, no scores, no one else's labels, and no
 * figures on Evaluate; olivia switches the pool open in her own browser context (asked first) and
 * alice's reload shows the rankers' scores and bob's labels. No screen calls a command its role
 * may not call (no 403 in any page).
 * The tests share state and run in order.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { startServe, type ServeProcess } from './serve';
import { importSemEvalDev, invoke } from './api';

const root = path.resolve(import.meta.dirname, '../..');
const PORT = Number(process.env.QPAIRS_E2E_PORT ?? 27613) + 3;
const POOL = 'team-blind';
const QUERIES = 3;
const DEPTH = 5;
const RUN = 'bm25';
const SECRETS = { olivia: 'olivia-secret-0001', carol: 'carol-secret-0001', alice: 'alice-secret-0001', bob: 'bob-secret-0001' } as const;
const SCREENS = path.join(root, 'test-results', 'screens');

test.describe.configure({ mode: 'serial' });

let dir: string;
let workspace: string;
let server: ServeProcess | null = null;
const contexts: BrowserContext[] = [];
/** Every 403 (and 422) answer any page got, as "who status command": the screens ask only what the caller may (a judge's Annotate asked for an assignment the pool does not have, a 422 in the console). */
const forbidden: string[] = [];

/** A browser context logged in with one person's link (?token=…, which sets the cookie). */
async function openAs(browser: Browser, who: keyof typeof SECRETS, hash: string): Promise<Page> {
  const ctx = await browser.newContext({ baseURL: server!.url });
  contexts.push(ctx);
  const p = await ctx.newPage();
  p.on('pageerror', (e) => console.log(`[${who} page error] ${e.message}`));
  p.on('response', (r) => {
    if (r.status() === 403 || r.status() === 422) forbidden.push(`${who} ${r.status()} ${r.request().postData() ?? r.url()}`);
  });
  await p.goto(`/?token=${SECRETS[who]}${hash}`);
  await expect(p.getByTestId('header-role')).toBeVisible();
  return p;
}

const tabIds = async (p: Page): Promise<string[]> =>
  (await p.locator('[data-testid^="tab-"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!))).map((t) => t.replace('tab-', ''));

test.beforeAll(async ({ playwright }) => {
  dir = mkdtempSync(path.join(tmpdir(), 'qpairs-e2e-roles-'));
  workspace = path.join(dir, 'team.qpairs');
  mkdirSync(SCREENS, { recursive: true });

  // Set up as the local owner (loopback, no tokens): corpus, a blind pool, the team, bob's labels.
  const setup = await startServe({ workspace, port: PORT });
  const request = await playwright.request.newContext({ baseURL: setup.url });
  try {
    await importSemEvalDev(request);
    const pool = await invoke<{ blind: boolean; queries: number }>(request, 'pool.create', { name: POOL, sample: { n: QUERIES, seed: 5 }, depth: DEPTH });
    expect(pool).toMatchObject({ blind: true, queries: QUERIES });
    await invoke(request, 'annotator.add', { name: 'olivia', role: 'owner' });
    await invoke(request, 'annotator.add', { name: 'carol', role: 'judge' });
    await invoke(request, 'pool.assign', { pool: POOL, annotators: ['alice', 'bob'] });
    for (let q = 0; q < QUERIES; q++) {
      const v = await invoke<{ queryId: string; candidates: Array<{ id: string }> }>(request, 'annotate.query', { pool: POOL, annotator: 'bob' });
      for (const c of v.candidates) await invoke(request, 'label.set', { pool: POOL, queryId: v.queryId, candidateId: c.id, annotator: 'bob', value: '1' });
    }
  } finally {
    await request.dispose();
    await setup.stop();
  }
  // Then serve it with tokens: every request must carry one.
  server = await startServe({ workspace, port: PORT, tokens: Object.entries(SECRETS).map(([n, s]) => `${n}=${s}`) });
});

test.afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

let alice: Page;

test('alice (annotator) sees only Annotate and Evaluate, labels blind, and no figures', async ({ browser }) => {
  // Her link asks for the Models screen: not hers, so the app shows her first screen.
  alice = await openAs(browser, 'alice', '#models');
  await expect(alice.getByTestId('header-role')).toHaveAttribute('data-role', 'annotator');
  await expect(alice.getByTestId('header-annotator')).toHaveText('alice');
  await expect(alice.getByTestId('workspace-name')).toHaveText('team.qpairs');
  await expect(alice.getByTestId('tab-annotate')).toHaveAttribute('aria-selected', 'true');
  expect(await tabIds(alice)).toEqual(['annotate', 'evaluate', 'browse']);
  expect(new URL(alice.url()).hash).toBe('#annotate');
  await expect(alice.getByTestId('header-backend')).toHaveCount(0);

  await alice.getByTestId('annotate-pool').selectOption(POOL);
  await expect(alice.getByTestId('annotator-input')).toHaveValue('alice');
  await expect(alice.getByTestId('annotator-input')).toBeDisabled();
  const table = alice.getByTestId('candidates');
  await expect(alice.getByTestId('query-title')).toBeVisible();
  await expect(alice.locator('[data-testid^="candidate-row-"]')).toHaveCount(DEPTH);
  await expect(alice.getByTestId('annotate-assigned')).toContainText(`${QUERIES} assigned to you`);

  // Blind: no switch, a badge; no scores, no pool order, no one else's labels (bob labeled every pair).
  await expect(alice.getByTestId('blind-toggle')).toHaveCount(0);
  await expect(alice.getByTestId('blind-badge')).toHaveText('blind pool');
  await expect(alice.getByTestId('blind-badge')).toHaveAttribute('title', /own order.*no rankers' scores.*no one else's labels.*owner/);
  await expect(table).toHaveAttribute('data-blind', 'true');
  await expect(table.locator('[data-testid^="run-col-"]')).toHaveCount(0);
  await expect(table.getByTestId('others-col')).toHaveCount(0);
  await expect(table.locator('th', { hasText: 'Pool pos.' })).toHaveCount(0);
  await expect(table).not.toContainText('bob');

  // She labels two pairs with the keyboard.
  await alice.keyboard.press('1');
  await alice.keyboard.press('0');
  await expect(alice.locator('[data-testid^="candidate-row-"][data-state="saved"]')).toHaveCount(2);
  await expect(alice.getByTestId('progress-pairs')).toHaveText('2');
  await alice.getByTestId('candidate-row-0').click();
  await alice.screenshot({ path: path.join(SCREENS, 'alice-annotate-blind.png'), fullPage: false });

  // Alt+1 (Workspace) and Alt+8 (Models) are not hers; Alt+6 (Evaluate) is.
  await alice.keyboard.press('Alt+Digit1');
  await alice.keyboard.press('Alt+Digit8');
  await expect(alice.getByTestId('tab-annotate')).toHaveAttribute('aria-selected', 'true');
  await alice.keyboard.press('Alt+Digit6');
  await expect(alice.getByTestId('tab-evaluate')).toHaveAttribute('aria-selected', 'true');
  // Her list of keys names her numbers (it said "Alt+1 … Alt+9, in the order of the tabs", and her first tab is Alt+3).
  await alice.keyboard.press('F1');
  await expect(alice.getByTestId('shortcut-global-keys')).toContainText('Alt+3 · Alt+6 · Alt+9');
  await expect(alice.getByTestId('shortcut-global-keys')).toContainText('Annotate, Evaluate, Browse');
  await expect(alice.getByTestId('shortcut-global-keys')).not.toContainText('Alt+1 … Alt+9');
  await alice.keyboard.press('Escape');
  await expect(alice.getByTestId('shortcut-overlay')).toHaveCount(0);
  await alice.getByTestId('eval-pool').selectOption(POOL);
  await expect(alice.getByTestId('eval-blind')).toContainText(`Pool “${POOL}” is blind`);
  await expect(alice.getByTestId('metrics-table')).toHaveCount(0);
  await expect(alice.getByTestId('drilldown')).toHaveCount(0);
  await alice.screenshot({ path: path.join(SCREENS, 'alice-evaluate-blind.png'), fullPage: false });
  expect(forbidden).toEqual([]);
});

test('Browse: alice’s matches come by title, without a rank or score column; a full page of matches says there may be more', async () => {
  await alice.getByTestId('tab-browse').click();
  await alice.getByTestId('browse-text').fill('qatar');
  await alice.getByTestId('browse-text').press('Enter');
  const results = alice.getByTestId('browse-results');
  await expect(results.locator('tbody tr')).toHaveCount(50);
  await expect(results.locator('thead th')).toHaveText([/Question/, /Source/]);
  const titles = await results.locator('[data-testid^="browse-open-"]').allTextContents();
  expect(titles).toEqual([...titles].sort((a, b) => a.localeCompare(b)));
  await expect(alice.getByTestId('browse-results-note')).toHaveText(
    'The 50 best matches are shown; there may be more: add words to narrow the search. In alphabetical order of title, without ranks or scores (so a search cannot rebuild a blind pool’s order).',
  );
  // A search with few matches: no "may be more".
  await alice.getByTestId('browse-text').fill('zzqxjvw');
  await alice.getByTestId('browse-text').press('Enter');
  await expect(results).toContainText('No question matches.');
  await expect(alice.getByTestId('browse-results-note')).toHaveText('In alphabetical order of title, without ranks or scores (so a search cannot rebuild a blind pool’s order).');
  expect(forbidden).toEqual([]);
});

test('carol (judge) sees the judge’s screens, and none of them calls what a judge may not', async ({ browser }) => {
  const carol = await openAs(browser, 'carol', '#pools');
  await expect(carol.getByTestId('header-role')).toHaveAttribute('data-role', 'judge');
  expect(await tabIds(carol)).toEqual(['annotate', 'review', 'agreement', 'evaluate', 'export', 'models', 'browse']);
  await expect(carol.getByTestId('tab-annotate')).toHaveAttribute('aria-selected', 'true');
  for (const t of ['review', 'agreement', 'evaluate', 'export', 'models', 'annotate']) {
    await carol.getByTestId(`tab-${t}`).click();
    await expect(carol.getByTestId(`tab-${t}`)).toHaveAttribute('aria-selected', 'true');
  }
  await carol.getByTestId('tab-models').click();
  await expect(carol.getByTestId('models-backend')).toHaveAttribute('data-backend', /^(tensorflow|wasm|cpu)$/);
  // On a pool no one is assigned to, Annotate says up front that a judge's label is taken only on a
  // pair in dispute (the engine refuses the rest), instead of letting every label fail.
  await carol.getByTestId('tab-annotate').click();
  const pools = await carol.getByTestId('annotate-pool').locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
  const open = pools.find((v) => v && v !== POOL);
  expect(open, `a pool besides ${POOL}: ${pools.join(', ')}`).toBeTruthy();
  await carol.getByTestId('annotate-pool').selectOption(open!);
  await expect(carol.getByTestId('annotate-not-assigned')).toContainText('no one is assigned to it');
  await expect(carol.getByTestId('annotate-not-assigned')).toContainText('taken only on a pair in dispute');
  await carol.waitForTimeout(300);
  expect(forbidden).toEqual([]);
});

test('olivia (owner, with a token) opens the pool after a warning; alice’s reload shows scores and bob’s labels', async ({ browser }) => {
  const olivia = await openAs(browser, 'olivia', '#workspace');
  await expect(olivia.getByTestId('header-role')).toHaveAttribute('data-role', 'owner');
  await expect(olivia.getByTestId('header-annotator')).toHaveText('olivia');
  expect(await tabIds(olivia)).toEqual(['workspace', 'pools', 'annotate', 'review', 'agreement', 'evaluate', 'export', 'models', 'browse']);
  // Her Browse matches are ranked, with their BM25 scores; a full page says there may be more.
  await olivia.getByTestId('tab-browse').click();
  await olivia.getByTestId('browse-text').fill('qatar');
  await olivia.getByTestId('browse-text').press('Enter');
  await expect(olivia.getByTestId('browse-results').locator('thead th')).toHaveText(['#', /Question/, /Source/, /BM25/]);
  await expect(olivia.getByTestId('browse-results').locator('tbody tr')).toHaveCount(50);
  await expect(olivia.getByTestId('browse-results-note')).toHaveText('The 50 best matches are shown; there may be more: add words to narrow the search.');
  await olivia.getByTestId('tab-workspace').click();
  // A token holder is not on the server's machine: she uploads, she cannot name server files.
  await expect(olivia.getByTestId('import-files')).toBeVisible();
  await expect(olivia.getByTestId('import-paths')).toHaveCount(0);
  await expect(olivia.getByTestId('import-update')).toBeVisible();
  await expect(olivia.getByTestId('import-strict')).toBeVisible();

  await olivia.getByTestId('tab-pools').click();
  const cell = olivia.getByTestId(`pool-blind-${POOL}`);
  await expect(cell).toHaveAttribute('data-blind', 'true');
  await expect(olivia.getByTestId('pool-blind')).toBeChecked();
  await olivia.getByTestId(`pool-blind-toggle-${POOL}`).click();
  const box = olivia.getByTestId(`pool-open-confirm-box-${POOL}`);
  await expect(box).toContainText('see each other’s labels and rankers’ scores, and the labels they gave blind so far');
  await expect(box).toContainText('datasheet will record');
  await olivia.getByTestId(`pool-open-confirm-${POOL}`).click();
  await expect(cell).toHaveAttribute('data-blind', 'false');

  await alice.getByTestId('tab-annotate').click();
  await alice.reload();
  const table = alice.getByTestId('candidates');
  await expect(table).toHaveAttribute('data-blind', 'false');
  await expect(alice.getByTestId('blind-badge')).toHaveCount(0);
  await expect(table.getByTestId(`run-col-${RUN}`)).toBeVisible();
  await expect(table.getByTestId('others-col')).toBeVisible();
  await expect(table).toContainText('bob: similar');
  // Her own labels are still hers.
  await expect(alice.locator('[data-testid^="candidate-row-"][data-label="1"]')).toHaveCount(1);
  await expect(alice.locator('[data-testid^="candidate-row-"][data-label="0"]')).toHaveCount(1);
  await alice.screenshot({ path: path.join(SCREENS, 'alice-annotate-open.png'), fullPage: false });

  // …and Evaluate now shows the figures.
  await alice.getByTestId('tab-evaluate').click();
  await expect(alice.getByTestId('eval-blind')).toHaveCount(0);
  await expect(alice.getByTestId('metrics-table')).toBeVisible();
  await expect(alice.getByTestId(`metrics-row-${RUN}`)).toBeVisible();

  // The owner's screens call nothing refused to her either.
  for (const t of ['review', 'agreement', 'evaluate', 'export', 'models', 'annotate', 'workspace']) {
    await olivia.getByTestId(`tab-${t}`).click();
    await expect(olivia.getByTestId(`tab-${t}`)).toHaveAttribute('aria-selected', 'true');
  }
  await olivia.waitForTimeout(300);
  expect(forbidden).toEqual([]);
});

test('alice’s label events come numbered by her own count: u and U undo and redo her label while bob labels in between', async () => {
  await alice.getByTestId('tab-annotate').click();
  await expect(alice.locator('[data-testid^="candidate-row-"]')).toHaveCount(DEPTH);
  const answer = (command: string) => alice.waitForResponse((r) => r.url().endsWith('/api/invoke') && (r.request().postData() ?? '').includes(`"command":"${command}"`));
  const set = answer('label.set');
  await alice.keyboard.press('1');
  const ack = (await (await set).json()) as { seq: number; record: { queryId: string; candidateId: string } };
  // Her third label event (two in the first test): bob's 15 labels of the pool are not counted.
  expect(ack.seq).toBe(3);
  // bob labels again, in between.
  for (const value of ['0', '1']) {
    const r = await alice.request.post('/api/invoke', {
      headers: { 'X-QPairs': '1', Authorization: `Bearer ${SECRETS.bob}` },
      data: { command: 'label.set', args: { pool: POOL, queryId: ack.record.queryId, candidateId: ack.record.candidateId, annotator: 'bob', value } },
    });
    expect(r.status()).toBe(200);
  }
  const undo = answer('label.undo');
  await alice.keyboard.press('u');
  const undone = await undo;
  expect(undone.status()).toBe(200);
  expect(((await undone.json()) as { seq: number }).seq).toBe(4);
  const redo = answer('label.set');
  await alice.keyboard.press('Shift+U');
  const redone = await redo;
  expect(redone.status(), await redone.text()).toBe(200);
  expect(((await redone.json()) as { seq: number }).seq).toBe(5);
  await expect(alice.getByTestId('annotate-error')).toHaveCount(0);
  expect(forbidden).toEqual([]);
});

test('alice signs out on a shared computer: the browser forgets her link, and the app is not served without it', async () => {
  await alice.getByTestId('tab-annotate').click();
  await expect(alice.getByTestId('header-signout')).toBeVisible();
  await alice.getByTestId('header-signout').click();
  await expect(alice.locator('h1')).toHaveText('Signed out');
  await expect(alice.locator('body')).toContainText('open your personal link again');
  await alice.goto('/#annotate');
  await expect(alice.locator('h1')).toHaveText('Open your personal link');
  await expect(alice.getByTestId('header-annotator')).toHaveCount(0);
});
