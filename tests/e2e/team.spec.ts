/**
 * Issue 23, running a team end to end: the owner (invited into the workspace, token kept hashed)
 * opens her link, invites erin in Pools → Team access and copies the link; erin's link opens
 * Annotate on her assigned pool (the other pool is not offered); the owner revokes erin and erin's
 * next request is refused. The server runs with --require-tokens and no token on its command line.
 * Also, as QA found them with an owner's token: gold and system are not roles a person can get
 * (and their rows are read-only); a judge's rulings are not annotator progress; the owner reviews
 * as any judge; Annotate reloads by itself when the server comes back; a revoked page says its
 * access ended, counts only saved labels, and a reload gets a readable page; the top bar keeps to
 * one line at 1360 px; in a fresh browser, an annotator's link opens on her next pool with work and
 * a judge's on the first pool with disagreements left.
 * The tests share state and run in order.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type BrowserContext, type Page, type Route } from '@playwright/test';
import { startServe, type ServeProcess } from './serve';
import { importSemEvalDev, invoke } from './api';

const PORT = Number(process.env.QPAIRS_E2E_PORT ?? 27613) + 5;
const SCREENS = path.resolve(import.meta.dirname, '../../test-results/screens');

test.describe.configure({ mode: 'serial' });

let dir: string;
let server: ServeProcess | null = null;
let ownerLink = '';
const contexts: BrowserContext[] = [];

test.beforeAll(async ({ playwright }) => {
  dir = mkdtempSync(path.join(tmpdir(), 'qpairs-e2e-team-'));
  mkdirSync(SCREENS, { recursive: true });
  const workspace = path.join(dir, 'team.qpairs');
  // Set up as the local owner (loopback, no tokens): a corpus, two pools, the owner's own invitation.
  const setup = await startServe({ workspace, port: PORT });
  const request = await playwright.request.newContext({ baseURL: setup.url });
  try {
    await importSemEvalDev(request);
    await invoke(request, 'pool.create', { name: 'erins', sample: { n: 3, seed: 5 }, depth: 5 });
    await invoke(request, 'pool.create', { name: 'others', sample: { n: 3, seed: 6 }, depth: 5 });
    await invoke(request, 'pool.assign', { pool: 'erins', annotators: ['erin'] });
    await invoke(request, 'pool.assign', { pool: 'others', annotators: ['zed'] });
    // One query for two annotators, one each: one of them has nothing assigned.
    await invoke(request, 'pool.create', { name: 'tiny', sample: { n: 1, seed: 7 }, depth: 5 });
    await invoke(request, 'pool.assign', { pool: 'tiny', annotators: ['una', 'ulf'], perQuery: 1 });
    // A judge, imported gold and a reference system.
    await invoke(request, 'annotator.add', { name: 'judy', role: 'judge' });
    await invoke(request, 'annotator.add', { name: 'gold' });
    await invoke(request, 'annotator.add', { name: 'ref', role: 'system' });
    // An open pool (nobody assigned) for the owner to label.
    await invoke(request, 'pool.create', { name: 'open', sample: { n: 2, seed: 8 }, depth: 5 });
    // A pool two annotators labeled, disagreeing on one pair the judge settled.
    await invoke(request, 'pool.create', { name: 'judged', sample: { n: 1, seed: 9 }, depth: 5 });
    await invoke(request, 'pool.assign', { pool: 'judged', annotators: ['ann1', 'ann2'] });
    const q = await invoke<{ queryId: string; candidates: Array<{ id: string }> }>(request, 'annotate.query', { pool: 'judged', annotator: 'ann1' });
    for (const c of q.candidates) await invoke(request, 'label.set', { pool: 'judged', queryId: q.queryId, candidateId: c.id, annotator: 'ann1', value: '1' });
    const first = { pool: 'judged', queryId: q.queryId, candidateId: q.candidates[0]!.id };
    await invoke(request, 'label.set', { ...first, annotator: 'ann2', value: '0' });
    await invoke(request, 'review.settle', { ...first, judge: 'judy', value: '1' });
    const inv = await invoke<{ token: string }>(request, 'annotator.invite', { name: 'olga', role: 'owner' });
    ownerLink = `/?token=${encodeURIComponent(inv.token)}#pools`;
  } finally {
    await request.dispose();
    await setup.stop();
  }
  server = await startServe({ workspace, port: PORT, requireTokens: true });
});

test.afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});


let olga: Page;
let erinLink = '';
/** Answers the owner's page got with status 4xx/5xx, as "status command". */
const olgaErrors: string[] = [];

test('the owner invites erin in Team access and gets her link once', async ({ browser }) => {
  const anon = await browser.newContext({ baseURL: server!.url });
  contexts.push(anon);
  expect((await anon.request.post('/api/invoke', { headers: { 'X-QPairs': '1' }, data: { command: 'app.info', args: {} } })).status()).toBe(401);

  const ctx = await browser.newContext({ baseURL: server!.url });
  contexts.push(ctx);
  olga = await ctx.newPage();
  olga.on('response', (r) => {
    if (r.status() >= 400) olgaErrors.push(`${r.status()} ${r.request().postData() ?? r.url()}`);
  });
  await olga.goto(ownerLink);
  await expect(olga.getByTestId('header-role')).toHaveAttribute('data-role', 'owner');
  const panel = olga.getByTestId('access-panel');
  await expect(panel).toBeVisible();
  await panel.getByTestId('access-name').fill('erin');
  await panel.getByTestId('access-role').selectOption('annotator');
  await panel.getByTestId('access-invite').click();
  const link = panel.getByTestId('access-link');
  await expect(link).toHaveValue(/\?token=qp_[\w-]{12}\.[\w-]{32}#annotate$/);
  erinLink = await link.inputValue();
  await panel.getByTestId('access-copy').click();
  await expect(panel.getByText(/Link copied|Selected: press Ctrl\+C/)).toBeVisible();
  await expect(panel.getByTestId('access-state-erin')).toHaveText(/^invited/);
  await panel.getByTestId('access-done').click();
  await expect(panel.getByTestId('access-link')).toHaveCount(0);
});

test('Invite refuses a name with a live link or another role, and Add a listed name, saying what to use; nobody’s role or link changes', async () => {
  const panel = olga.getByTestId('access-panel');
  await expect(panel.getByTestId('access-role-judy')).toHaveValue('judge');
  await expect(panel.getByTestId('access-state-erin')).toHaveText(/^invited/);
  const erinSince = await panel.getByTestId('access-state-erin').textContent();
  // By keyboard: the name, then Enter (the role select keeps its default, annotator).
  for (const [who, message] of [
    ['judy', '"judy" is already on the team as judge: choose that role to invite them, or change their role in their row first.'],
    [' erin ', '"erin" already has a link (annotator): use New link in their row to replace it, or Revoke.'],
  ] as const) {
    await panel.getByTestId('access-name').fill(who);
    await panel.getByTestId('access-name').press('Enter');
    await expect(panel.getByTestId('access-error')).toHaveText(message);
    await expect(panel.getByTestId('access-link')).toHaveCount(0);
  }
  await olga.reload();
  await expect(panel.getByTestId('access-role-judy')).toHaveValue('judge');
  await expect(panel.getByTestId('access-state-judy')).toHaveText('no link');
  await expect(panel.getByTestId('access-state-erin')).toHaveText(erinSince!);
  // erin's link still works.
  const r = await olga.request.post('/api/invoke', { headers: { 'X-QPairs': '1', Authorization: `Bearer ${new URL(erinLink).searchParams.get('token')}` }, data: { command: 'app.info', args: {} } });
  expect(r.status()).toBe(200);

  // Team → Add: the same for a listed name.
  await olga.getByTestId('person-name').fill('judy');
  await olga.getByTestId('person-name').press('Enter');
  await expect(olga.getByTestId('role-error')).toHaveText('"judy" is already listed (judge): change the role in their row.');
  await olga.reload();
  await expect(olga.getByTestId('people-table').getByTestId('role-judy')).toHaveValue('judge');
});

test('New link asks first, as Revoke does (it ends the current link at once): Esc keeps the link, Enter replaces it', async () => {
  const panel = olga.getByTestId('access-panel');
  const works = async (link: string): Promise<number> =>
    (await olga.request.post('/api/invoke', { headers: { 'X-QPairs': '1', Authorization: `Bearer ${new URL(link).searchParams.get('token')}` }, data: { command: 'app.info', args: {} } })).status();
  const asked: string[] = [];
  // By keyboard: the row's New link, then the question's answer (dismissed first, accepted then).
  olga.once('dialog', (d) => {
    asked.push(d.message());
    void d.dismiss();
  });
  await panel.getByTestId('access-reinvite-erin').focus();
  await olga.keyboard.press('Enter');
  await expect.poll(() => asked.length).toBe(1);
  expect(asked[0]).toBe('Give erin a new link? Their current link stops working at once (open pages too); send them the new one.');
  await expect(panel.getByTestId('access-link')).toHaveCount(0);
  expect(await works(erinLink)).toBe(200);

  olga.once('dialog', (d) => void d.accept());
  await olga.keyboard.press('Enter');
  await expect(panel.getByTestId('access-link')).toHaveValue(/\?token=qp_/);
  const fresh = await panel.getByTestId('access-link').inputValue();
  expect(fresh).not.toBe(erinLink);
  expect(await works(erinLink)).toBe(401);
  expect(await works(fresh)).toBe(200);
  erinLink = fresh;
  await panel.getByTestId('access-done').click();
});

test('Team access’s errors show under its form, in view where the owner typed, not below the whole team', async () => {
  const panel = olga.getByTestId('access-panel');
  // A team long enough that the table runs past the window's bottom.
  for (let i = 1; i <= 12; i++) {
    const r = await olga.request.post('/api/invoke', { headers: { 'X-QPairs': '1' }, data: { command: 'annotator.add', args: { name: `extra${i}` } } });
    expect(r.status()).toBe(200);
  }
  await olga.reload();
  await expect(panel.getByTestId('access-extra12')).toBeAttached();
  await panel.getByTestId('access-name').scrollIntoViewIfNeeded();
  await panel.getByTestId('access-name').fill('@aggregate');
  await panel.getByTestId('access-name').press('Enter');
  await expect(panel.getByTestId('access-error')).toHaveText('annotator names starting with "@" are reserved ("@aggregate")');
  await expect(panel.getByTestId('access-error')).toBeInViewport();
  await expect(panel.getByTestId('access-name')).toBeInViewport();
});

test('a pool is assigned to one annotator with full overlap, by Assign or Enter: the overlap does not switch to per query', async () => {
  for (const [pool, how] of [
    ['solo-click', 'click'],
    ['solo-enter', 'Enter'],
  ] as const) {
    const r = await olga.request.post('/api/invoke', { headers: { 'X-QPairs': '1' }, data: { command: 'pool.create', args: { name: pool, sample: { n: 1, seed: 12 }, depth: 3 } } });
    expect(r.status()).toBe(200);
    await olga.getByTestId('team-pool').selectOption(pool);
    await expect(olga.getByTestId('assignment-mode')).toHaveAttribute('data-mode', 'open');
    await expect(olga.getByTestId('assign-mode-full')).toBeChecked();
    await expect(olga.getByTestId('assign-k')).toHaveValue('2');
    await olga.getByTestId('assign-chip-zed').click();
    if (how === 'click') await olga.getByTestId('assign-submit').click();
    else await olga.getByTestId('assign-annotators').press('Enter');
    await expect(olga.getByTestId('assign-message')).toHaveText('Assigned to zed (full overlap).');
    await expect(olga.getByTestId('assign-mode-full')).toBeChecked();
    await expect(olga.getByTestId('assignment-mode')).toHaveAttribute('data-mode', 'full');
  }
});

test('a person with a space in their name is assigned as one person, by chip or typed, not as two new annotators “Jane” and “Doe”', async () => {
  const api = async <T,>(command: string, args: unknown): Promise<T> => {
    const r = await olga.request.post('/api/invoke', { headers: { 'X-QPairs': '1' }, data: { command, args } });
    expect(r.status(), command).toBe(200);
    return (await r.json()) as T;
  };
  await api('pool.create', { name: 'janes', sample: { n: 1, seed: 11 }, depth: 3 });
  const panel = olga.getByTestId('access-panel');
  await panel.getByTestId('access-name').fill('Jane Doe');
  await panel.getByTestId('access-invite').click();
  await expect(panel.getByTestId('access-link')).toBeVisible();
  await panel.getByTestId('access-done').click();
  await olga.getByTestId('team-pool').selectOption('janes');
  await olga.getByTestId('assign-chip-Jane Doe').click();
  await expect(olga.getByTestId('assign-annotators')).toHaveValue('Jane Doe');
  await olga.getByTestId('assign-annotators').fill(' Jane   Doe ');
  await olga.getByTestId('assign-annotators').press('Enter');
  await expect(olga.getByTestId('assign-message')).toHaveText('Assigned to Jane Doe (full overlap).');
  expect((await api<{ annotators: string[] }>('pool.assignment', { pool: 'janes' })).annotators).toEqual(['Jane Doe']);
  const names = (await api<Array<{ name: string }>>('annotator.list', {})).map((p) => p.name);
  expect(names).not.toContain('Jane');
  expect(names).not.toContain('Doe');
});

test('a role changes on Save only: arrow keys through the options save nothing, Esc goes back, Tab and Enter save', async () => {
  const roleOf = async (who: string): Promise<string> => {
    const r = await olga.request.post('/api/invoke', { headers: { 'X-QPairs': '1' }, data: { command: 'annotator.list', args: {} } });
    return ((await r.json()) as Array<{ name: string; role: string }>).find((p) => p.name === who)!.role;
  };
  const panel = olga.getByTestId('access-panel');
  const select = panel.getByTestId('access-role-erin');
  await select.focus();
  await olga.keyboard.press('ArrowDown');
  await olga.keyboard.press('ArrowDown');
  await expect(select).toHaveValue('owner');
  await expect(panel.getByTestId('access-role-erin-save')).toBeVisible();
  await olga.waitForTimeout(500);
  expect(await roleOf('erin')).toBe('annotator');
  await olga.keyboard.press('Escape');
  await expect(select).toHaveValue('annotator');
  await expect(panel.getByTestId('access-role-erin-save')).toHaveCount(0);
  // On purpose: one step, then Tab to Save and Enter.
  await select.focus();
  await olga.keyboard.press('ArrowDown');
  await olga.keyboard.press('Tab');
  await expect(panel.getByTestId('access-role-erin-save')).toBeFocused();
  await olga.keyboard.press('Enter');
  await expect(panel.getByTestId('access-role-erin-save')).toHaveCount(0);
  expect(await roleOf('erin')).toBe('judge');
  // The Team panel's rows work the same way (here with the mouse), and the change shows in both.
  const people = olga.getByTestId('people-table');
  await expect(people.getByTestId('role-erin')).toHaveValue('judge');
  await people.getByTestId('role-erin').selectOption('annotator');
  expect(await roleOf('erin')).toBe('judge');
  await people.getByTestId('role-erin-save').click();
  await expect(select).toHaveValue('annotator');
  expect(await roleOf('erin')).toBe('annotator');
});

test('at 1360×900 the top bar keeps to one line with "olga · owner" and the tfjs chip; at 1024×700 it wraps without overlap', async () => {
  // The Models screen learns the tfjs backend: the chip is shown from then on.
  await olga.getByTestId('tab-models').click();
  await expect(olga.getByTestId('header-backend')).toBeVisible({ timeout: 60_000 });
  await olga.getByTestId('tab-pools').click();
  await expect(olga.getByTestId('header-role')).toContainText('olga · owner');
  const tops = async (): Promise<Record<string, { top: number; bottom: number; left: number; right: number }>> =>
    olga.evaluate(() => {
      const out: Record<string, { top: number; bottom: number; left: number; right: number }> = {};
      for (const el of document.querySelectorAll<HTMLElement>('header.topbar > *')) {
        const r = el.getBoundingClientRect();
        if (el.classList.contains('spacer') || r.width === 0 || r.height === 0) continue;
        out[el.dataset.testid ?? el.className] = { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
      }
      return out;
    });
  const header = (): Promise<number> => olga.evaluate(() => document.querySelector('header.topbar')!.getBoundingClientRect().height);
  expect(await header()).toBeLessThan(56);
  const wide = await tops();
  expect(wide['keys-button']!.top).toBeLessThan(wide['header-role']!.bottom); // the ⌨ button on the first line
  await olga.screenshot({ path: path.join(SCREENS, 'topbar-owner-1360.png') });

  await olga.setViewportSize({ width: 1024, height: 700 });
  const narrow = Object.values(await tops());
  for (const [i, a] of narrow.entries()) {
    for (const b of narrow.slice(i + 1)) {
      const overlap = a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
      expect(overlap, `top bar items overlap at 1024: ${JSON.stringify([a, b])}`).toBe(false);
    }
  }
  expect(await olga.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1024);
  await olga.screenshot({ path: path.join(SCREENS, 'topbar-owner-1024.png') });
  await olga.setViewportSize({ width: 1360, height: 900 });
});

test('an annotator with nothing assigned reads "nothing assigned", not a bar that looks like loading', async () => {
  await olga.getByTestId('team-pool').selectOption('tiny');
  await expect(olga.getByTestId('assignment-table').locator('tr[data-assigned]')).toHaveCount(2);
  const none = olga.getByTestId('assignment-table').locator('tr[data-assigned="0"]');
  await expect(none).toHaveCount(1);
  const who = (await none.getAttribute('data-testid'))!.replace('assignment-row-', '');
  await expect(none.getByTestId(`assignment-none-${who}`)).toHaveText('nothing assigned');
  await expect(none.getByRole('progressbar')).toHaveCount(0);
  await expect(olga.getByTestId('assignment-table').locator('tr[data-assigned="1"]').getByRole('progressbar')).toHaveCount(1);
});

test('gold and system are not a person’s roles: their rows are read-only, people get annotator, judge or owner, and the engine refuses the rest', async () => {
  await olga.getByTestId('tab-pools').click();
  const people = olga.getByTestId('people-table');
  for (const source of ['gold', 'ref']) {
    const cell = people.getByTestId(`role-${source}`);
    await expect(cell).toContainText('not a person');
    expect(await cell.evaluate((e) => e.tagName)).not.toBe('SELECT');
  }
  for (const select of [people.getByTestId('role-erin'), people.getByTestId('role-judy'), olga.getByTestId('person-role')]) {
    expect(await select.locator('option').allTextContents()).toEqual(['annotator', 'judge', 'owner']);
  }
  // The engine refuses it however it is asked (here the API, with the owner's token), saying why.
  const setRole = (name: string, role: string) => olga.request.post('/api/invoke', { headers: { 'X-QPairs': '1' }, data: { command: 'annotator.setRole', args: { name, role } } });
  for (const [name, role, why] of [
    ['erin', 'gold', /the role "gold" is reserved/],
    ['judy', 'system', /the role "system" is reserved/],
    ['gold', 'annotator', /"gold" is not a person/],
    ['ref', 'owner', /"ref" is not a person/],
  ] as const) {
    const r = await setRole(name, role);
    expect(r.status(), `${name} → ${role}`).toBe(422);
    expect((await r.json()).message).toMatch(why);
  }
  await olga.reload();
  await expect(people.getByTestId('role-erin')).toHaveValue('annotator');
  await expect(people.getByTestId('role-gold')).toContainText('gold');
});

test('a judge may be assigned to label a pool: the Team panel says what that means instead of forbidding it, and the answer says they stay a judge', async () => {
  const r = await olga.request.post('/api/invoke', { headers: { 'X-QPairs': '1' }, data: { command: 'pool.create', args: { name: 'judge-labels', sample: { n: 1, seed: 13 }, depth: 3 } } });
  expect(r.status()).toBe(200);
  await olga.getByTestId('team-pool').selectOption('judge-labels');
  // It read "they must not be annotators of the pool", though the engine (and qpairs assign) assign a judge as README says.
  const hint = olga.getByTestId('team-judges-hint');
  await expect(hint).not.toContainText('must not');
  await expect(hint).toContainText('A judge assigned below also labels this pool');
  await olga.getByTestId('assign-annotators').fill('zed, judy');
  await olga.getByTestId('assign-annotators').press('Enter');
  await expect(olga.getByTestId('assign-message')).toContainText('Assigned to zed, judy (full overlap).');
  await expect(olga.getByTestId('assign-message')).toContainText('judy is a judge and stays one');
  await expect(olga.getByTestId('role-judy')).toHaveValue('judge');
  // Review does not offer judy as this pool's judge (it offered her, and the queue answered 422 "judy annotates pool …").
  await olga.getByTestId('tab-review').click();
  await olga.getByTestId('review-pool').selectOption('judge-labels');
  await expect(olga.getByTestId('review-need-judge')).toContainText('No judge for this pool');
  await expect(olga.getByTestId('review-judge').locator('option', { hasText: 'judy' })).toHaveCount(0);
  await expect(olga.getByTestId('review-error')).toHaveCount(0);
  await olga.getByTestId('review-pool').selectOption('judged');
  await expect(olga.getByTestId('review-judge')).toHaveValue('judy');
  expect(olgaErrors.filter((e) => e.includes('review.queue'))).toEqual([]);
});

test('Pools: a judge’s rulings are shown apart from the annotators’ progress, with correct plurals', async () => {
  await olga.getByTestId('tab-pools').click();
  const cell = olga.getByTestId('pool-progress-judged');
  await expect(cell.locator('.annotator-progress')).toHaveCount(2);
  await expect(cell.getByTestId('progress-judged-ann1-pairs')).toHaveText('5 pairs');
  await expect(cell.getByTestId('progress-judged-ann2-pairs')).toHaveText('1 pair');
  await expect(cell.getByTestId('progress-judged-judges')).toContainText('judy (judge) 1 ruling');
  await expect(cell.getByTestId('progress-judged-judy')).toHaveAttribute('data-kind', 'judge');
  await olga.screenshot({ path: path.join(SCREENS, 'pools-progress-judge.png'), fullPage: true });
});

test('an owner with a token reviews as any judge: the first judge by default, no refused queue', async () => {
  await olga.getByTestId('tab-review').click();
  await olga.getByTestId('review-pool').selectOption('judged');
  const judge = olga.getByTestId('review-judge');
  await expect(judge).toBeEnabled();
  await expect(judge).toHaveValue('judy');
  await expect(olga.getByTestId('review-split')).toBeVisible();
  await expect(olga.locator('[data-testid^="review-row-"]')).toHaveCount(1);
  await expect(olga.getByTestId('review-error')).toHaveCount(0);
  await olga.screenshot({ path: path.join(SCREENS, 'review-owner-token.png') });
  expect(olgaErrors.filter((e) => e.includes('review.queue'))).toEqual([]);
});

test('the server restarts: Annotate, which failed to load while it was down, reloads by itself', async () => {
  test.setTimeout(120_000);
  await olga.getByTestId('tab-annotate').click();
  await olga.getByTestId('annotate-pool').selectOption('open');
  await expect(olga.getByTestId('query-title')).toBeVisible();
  const rows = olga.locator('[data-testid^="candidate-row-"]');
  await olga.keyboard.press('1');
  await expect(rows.and(olga.locator('[data-state="saved"]'))).toHaveCount(1);

  await server!.stop();
  await expect(olga.getByTestId('connection')).toHaveAttribute('data-state', 'closed');
  await olga.keyboard.press('0');
  await expect(olga.getByTestId('save-status')).toHaveAttribute('data-state', 'retrying');
  // Away and back while the server is down: the screen cannot load.
  await olga.getByTestId('tab-pools').click();
  await olga.getByTestId('tab-annotate').click();
  await expect(olga.getByTestId('annotate-error')).toContainText('cannot reach the QPairs server');

  server = await startServe({ workspace: path.join(dir, 'team.qpairs'), port: PORT, requireTokens: true });
  await expect(olga.getByTestId('connection')).toHaveAttribute('data-state', 'open', { timeout: 30_000 });
  await expect(olga.getByTestId('annotate-error')).toHaveCount(0);
  await expect(olga.getByTestId('query-title')).toBeVisible();
  await expect(olga.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
  await expect(rows.and(olga.locator('[data-state="saved"]'))).toHaveCount(2);
});

test("erin's link opens Annotate on her assigned pool; the other pool is not offered", async ({ browser }) => {
  const ctx = await browser.newContext({ baseURL: server!.url });
  contexts.push(ctx);
  const erin = await ctx.newPage();
  await erin.goto(erinLink.replace(server!.url, ''));
  await expect(erin.getByTestId('header-annotator')).toHaveText('erin');
  await expect(erin.getByTestId('tab-annotate')).toHaveAttribute('aria-selected', 'true');
  await expect(erin.getByTestId('annotate-pool')).toHaveValue('erins');
  const options = await erin.getByTestId('annotate-pool').locator('option').allTextContents();
  expect(options.join(' ')).not.toContain('others');
  await expect(erin.getByTestId('query-id')).toBeVisible();
  // Her token is no longer in the address bar.
  expect(erin.url()).not.toContain('token=');

  // She labels one pair.
  await erin.keyboard.press('1');
  await expect(erin.getByTestId('candidate-row-0')).toHaveAttribute('data-state', 'saved');
  await expect(erin.getByTestId('progress-pairs')).toHaveText('1');

  // A label on its way when the owner revokes her (held here until the page knows): refused.
  const held: Route[] = [];
  await erin.route('**/api/invoke', (route) => (route.request().postData()?.includes('"label.set"') ? void held.push(route) : route.continue()));
  await erin.keyboard.press('0');
  await expect(erin.getByTestId('candidate-row-1')).toHaveAttribute('data-state', /^(pending|saving)$/);

  // The owner revokes her while her page is open: her next request is refused.
  await olga.getByTestId('tab-pools').click();
  olga.once('dialog', (d) => void d.accept());
  await olga.getByTestId('access-revoke-erin').click();
  await expect(olga.getByTestId('access-state-erin')).toHaveText(/^revoked/);
  const r = await ctx.request.post('/api/invoke', { headers: { 'X-QPairs': '1' }, data: { command: 'pool.list', args: {} } });
  expect(r.status()).toBe(401);

  // Her page says her access ended (not "reconnecting"), and a refused label is not counted.
  const chip = erin.getByTestId('connection');
  await expect(chip).toHaveAttribute('data-state', 'ended');
  await expect(chip).toHaveText('access ended');
  await expect(chip).toHaveAttribute('title', /ask the workspace’s owner for a new one/);
  expect(held).toHaveLength(1);
  await held[0]!.continue();
  await erin.unroute('**/api/invoke');
  await expect(erin.getByTestId('candidate-row-1')).toHaveAttribute('data-state', 'failed');
  // It says what the chip says (it said "missing or invalid token: open the link with ?token=…", which she had done).
  await expect(erin.getByTestId('failed-labels')).toContainText('access ended: this link no longer works');
  await expect(erin.getByTestId('failed-labels')).toContainText('ask the workspace’s owner for a new one');
  await expect(erin.getByTestId('failed-labels')).not.toContainText('?token=');
  await expect(erin.getByTestId('progress-pairs')).toHaveText('1');
  // The keys give nothing more once access ended: one notice, no new "not saved" row each (it piled up one per key).
  for (const key of ['1', '0', '?']) await erin.keyboard.press(key);
  await expect(erin.getByTestId('annotate-notice')).toHaveText(/^Nothing given: access ended: .*ask the workspace’s owner for a new one\. What was not saved stays listed\.$/);
  await expect(erin.getByTestId('failed-labels').locator('li')).toHaveCount(1);
  await expect(erin.getByTestId('candidate-row-2')).toHaveAttribute('data-state', 'none');
  await expect(erin.getByTestId('note-offer')).toHaveCount(0);
  // Nor does it count in her pace: one label taken is no pace yet.
  await expect(erin.getByTestId('progress-pace')).toHaveText('pace: —');
  await erin.waitForTimeout(1500);
  await expect(chip).toHaveAttribute('data-state', 'ended');
  await erin.screenshot({ path: path.join(SCREENS, 'revoked-annotate.png') });
  // Discarding it shows the pair as it is saved: unlabeled, still not counted.
  await erin.getByTestId('failed-labels').getByRole('button', { name: 'Discard' }).click();
  await expect(erin.getByTestId('failed-labels')).toHaveCount(0);
  await expect(erin.getByTestId('candidate-row-1')).toHaveAttribute('data-label', '');
  await expect(erin.getByTestId('progress-pairs')).toHaveText('1');

  // A reload gets a readable page, not JSON.
  const page = await erin.reload();
  expect(page?.status()).toBe(401);
  await expect(erin.locator('h1')).toHaveText('This link no longer works');
  await expect(erin.locator('body')).toContainText('Ask the workspace’s owner for a new link');
  await expect(erin.locator('body')).not.toContainText('"code"');
  await erin.screenshot({ path: path.join(SCREENS, 'revoked-reload.png') });
});

test("a judge's link opens on the pool with disagreements left to settle, not on the workspace's first pool", async ({ browser }) => {
  // It opened on the first pool (here the imported SemEval gold, nothing to settle): Review said
  // "No disagreements in this pool (yet)" while `disputed` waited, and she had to find it herself.
  const request = olga.request;
  // A pool, made last, with one disagreement nobody settled yet.
  await invoke(request, 'pool.create', { name: 'disputed', sample: { n: 1, seed: 14 }, depth: 3 });
  await invoke(request, 'pool.assign', { pool: 'disputed', annotators: ['ann1', 'ann2'] });
  const d = await invoke<{ queryId: string; candidates: Array<{ id: string }> }>(request, 'annotate.query', { pool: 'disputed', annotator: 'ann1' });
  const pair = { pool: 'disputed', queryId: d.queryId, candidateId: d.candidates[0]!.id };
  await invoke(request, 'label.set', { ...pair, annotator: 'ann1', value: '1' });
  await invoke(request, 'label.set', { ...pair, annotator: 'ann2', value: '0' });
  const inv = await invoke<{ token: string }>(request, 'annotator.invite', { name: 'vera', role: 'judge' });
  const ctx = await browser.newContext({ baseURL: server!.url });
  contexts.push(ctx);
  const vera = await ctx.newPage();
  await vera.goto(`/?token=${encodeURIComponent(inv.token)}#review`);
  await expect(vera.getByTestId('header-annotator')).toHaveText('vera');
  await expect(vera.getByTestId('review-pool')).toHaveValue('disputed');
  await expect(vera.getByTestId('review-remaining')).toHaveText('1');
  // As an annotator's link does, a reload from a pool with nothing left opens the one with work again.
  await vera.getByTestId('review-pool').selectOption('judged');
  await expect(vera.getByTestId('review-remaining')).toHaveText('0');
  await vera.reload();
  await expect(vera.getByTestId('review-pool')).toHaveValue('disputed');
  await expect(vera.getByTestId('review-remaining')).toHaveText('1');
  // A revocation's own event can reach her before her socket closes: the queue it makes her read
  // is refused (401). That refusal once emptied the screen; the queue she had stays shown.
  let refused = 0;
  await vera.route('**/api/invoke', async (route) => {
    const body = route.request().postDataJSON() as { command?: string } | null;
    if (body?.command !== 'review.queue') return route.continue();
    refused++;
    return route.fulfill({ status: 401, contentType: 'application/json', body: JSON.stringify({ code: 'forbidden', message: 'missing or invalid token' }) });
  });
  await invoke(request, 'label.set', { ...pair, annotator: 'ann2', value: '0', note: 'checked again' });
  await expect.poll(() => refused).toBeGreaterThan(0);
  await expect(vera.getByTestId('connection')).toHaveAttribute('data-state', 'ended');
  await expect(vera.getByTestId('review-remaining')).toHaveText('1');
  await expect(vera.getByTestId('review-error')).toHaveCount(0);
  // Revoked, her keys settle nothing: one notice, no "not saved" ruling per key.
  await invoke(request, 'annotator.revoke', { name: 'vera' });
  await expect(vera.getByTestId('connection')).toHaveAttribute('data-state', 'ended');
  for (const key of ['1', '0', 'u']) await vera.keyboard.press(key);
  await expect(vera.getByTestId('review-notice')).toHaveText(/^Nothing given: access ended: /);
  await expect(vera.getByTestId('failed-labels')).toHaveCount(0);
  await expect(vera.getByTestId('review-remaining')).toHaveText('1');
});

test("an annotator's link opens on her next pool with work in a fresh browser, when her first pool is done", async ({ browser }) => {
  // Issue 23's start pool was dropped whenever nothing was remembered: the first pool put in the
  // empty selection read as her own choice, so she landed on a finished pool.
  const request = olga.request;
  await invoke(request, 'pool.assign', { pool: 'open', annotators: ['zed'] });
  for (const [pool, seed] of [['nia-done', 15], ['nia-next', 16]] as const) {
    await invoke(request, 'pool.create', { name: pool, sample: { n: 1, seed }, depth: 3 });
    await invoke(request, 'pool.assign', { pool, annotators: ['nia'] });
  }
  const done = await invoke<{ queryId: string; candidates: Array<{ id: string }> }>(request, 'annotate.query', { pool: 'nia-done', annotator: 'nia' });
  for (const c of done.candidates) await invoke(request, 'label.set', { pool: 'nia-done', queryId: done.queryId, candidateId: c.id, annotator: 'nia', value: '0' });
  const inv = await invoke<{ token: string }>(request, 'annotator.invite', { name: 'nia' });
  const ctx = await browser.newContext({ baseURL: server!.url });
  contexts.push(ctx);
  const nia = await ctx.newPage();
  await nia.goto(`/?token=${encodeURIComponent(inv.token)}#annotate`);
  await expect(nia.getByTestId('header-annotator')).toHaveText('nia');
  await expect(nia.getByTestId('annotate-pool').locator('option')).toHaveText(['nia-done', 'nia-next']);
  await expect(nia.getByTestId('annotate-pool')).toHaveValue('nia-next');
  await expect(nia.getByTestId('progress-pairs')).toHaveText('0');
});

test('an annotator whose last pool is unassigned while her page is open sees that no pool is open to her, and her keys give nothing', async ({ browser }) => {
  // The pool list emptied but the query stayed on screen: each key gave a label the engine refused,
  // one more "not saved" row per key ('open' is assigned to zed by the test before).
  const request = olga.request;
  await invoke(request, 'pool.create', { name: 'sams', sample: { n: 1, seed: 17 }, depth: 3 });
  await invoke(request, 'pool.assign', { pool: 'sams', annotators: ['sam'] });
  const inv = await invoke<{ token: string }>(request, 'annotator.invite', { name: 'sam' });
  const ctx = await browser.newContext({ baseURL: server!.url });
  contexts.push(ctx);
  const sam = await ctx.newPage();
  await sam.goto(`/?token=${encodeURIComponent(inv.token)}#annotate`);
  await expect(sam.getByTestId('annotate-pool').locator('option')).toHaveText(['sams']);
  await expect(sam.getByTestId('candidates')).toBeVisible();
  await invoke(request, 'pool.assign', { pool: 'sams', annotators: ['zed'] });
  await expect(sam.getByTestId('annotate-empty')).toHaveText('No pool is open to you yet: the workspace’s owner assigns pools.');
  await expect(sam.getByTestId('candidates')).toHaveCount(0);
  for (const key of ['1', '0']) await sam.keyboard.press(key);
  await sam.waitForTimeout(500); // a label given would be refused by now
  await expect(sam.getByTestId('failed-labels')).toHaveCount(0);
  await expect(sam.getByTestId('save-status')).toHaveAttribute('data-state', 'saved');
});
