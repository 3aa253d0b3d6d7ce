/**
 * Review in small windows, from the keyboard: at 800×600 (list above the detail) and 680×450 (1360×900
 * at 200% zoom: the split fills the window) j/k must bring the
 * pair being ruled on into view, not only its row; at 1024×700 the list of a Likert pool with long
 * titles, long annotator names and many votes must fit its column (no horizontal scrollbar); a
 * judge's F1 list keeps its keys' meanings inside the card; Agreement's expanders are named by their
 * query alone (the triangle is decoration); Browse at 800×600 shows the question opened beside the
 * results, the result keeping the focus in view, and the results' titles get the row (source and score
 * under them); a button that switches screens leaves the focus on the new screen (Annotate's
 * candidates, Review's list), ringed on the cursor's row; at 680×450 the pair says the cursor's place.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { qpairs } from './small-pool';
import { openAnnotate } from './annotate-page';
import { useServedWorkspace } from './served-workspace';

const SCREENS = path.resolve(import.meta.dirname, '../../test-results/screens');
const QUERIES = 30;
const DEPTH = 3;
/** Annotators with long names: every pair gets a vote from each (Likert) and they disagree. */
const ANNOTATORS = ['alexandra-konstantinopoulou', 'bartholomew-featherstonehaugh', 'chrysanthemum-wolfeschlegel', 'dmitri-vasilyevich-ostrogradsky'];

test.describe.configure({ mode: 'serial' });

const title = (id: string): string => `${id} ${'a rather long question title that keeps on going '.repeat(4)}`.slice(0, 180);

/** judy's sign-in token (a judge: her F1 list names seven Alt+N keys). */
let judyToken = '';

const served = useServedWorkspace('small-windows', 56, {
  context: { viewport: { width: 800, height: 600 } },
  prepare: ({ dir, workspace }) => {
    const ws = workspace!;
    const questions: string[] = [];
    const binary: string[] = [];
    const likert: string[] = [];
    for (let q = 0; q < QUERIES; q++) {
      const cands = Array.from({ length: DEPTH }, (_, c) => `c${q}x${c}`);
      for (const id of [`q${q}`, ...cands]) questions.push(JSON.stringify({ id, title: title(`T${id}`), body: `${id} body ${'words '.repeat(80)}` }));
      for (const c of cands) {
        binary.push(`q${q},${c},alice,1`, `q${q},${c},bob,0`);
        ANNOTATORS.forEach((a, i) => likert.push(`q${q},${c},${a},${i - 2}`));
      }
    }
    writeFileSync(path.join(dir, 'q.jsonl'), questions.join('\n') + '\n');
    writeFileSync(path.join(dir, 'bin.csv'), ['query_id,candidate_id,annotator,label', ...binary].join('\n') + '\n');
    writeFileSync(path.join(dir, 'lik.csv'), ['query_id,candidate_id,annotator,label', ...likert].join('\n') + '\n');
    qpairs('init', ws);
    qpairs('import', ws, '--format', 'questions-jsonl', path.join(dir, 'q.jsonl'));
    qpairs('import', ws, '--format', 'labels-csv', path.join(dir, 'bin.csv'), '--pool', 'bin');
    qpairs('import', ws, '--format', 'labels-csv', path.join(dir, 'lik.csv'), '--pool', 'lik', '--scheme', 'likert5');
    qpairs('annotators', 'add', ws, 'judy', '--role', 'judge');
    judyToken = (JSON.parse(qpairs('annotators', 'invite', ws, 'judy', '--json')) as { token: string }).token;
  },
});

async function openReview(page: Page, pool: string): Promise<void> {
  await page.goto(`${served.server!.url}/#review`);
  await page.getByTestId('review-pool').selectOption(pool);
  await page.getByTestId('review-judge').selectOption('judy');
  await page.getByTestId('review-judge').blur();
  await expect(page.getByTestId('review-total')).toHaveText(String(QUERIES * DEPTH));
  await expect(page.getByTestId('review-current')).toHaveAttribute('data-texts', 'loaded');
}

/**
 * Review's cursor is on item `at` (1-based) and the pair shown is its row's; the row (its votes, the
 * judge's label, the save state) and both titles are in full view, not cut by the window or the panes.
 */
async function pairInView(page: Page, at: string): Promise<void> {
  const index = Number(at) - 1;
  await expect(page.getByTestId('review-index')).toHaveText(at);
  await expect(page.getByTestId('review-current')).toHaveAttribute('data-candidate', (await page.getByTestId(`review-row-${index}`).getAttribute('data-candidate'))!);
  await expect(page.getByTestId(`review-row-${index}`), `row ${at}`).toBeInViewport({ ratio: 1 });
  for (const id of ['review-query-title', 'review-candidate-title']) await expect(page.getByTestId(id), `${id} at ${at}`).toBeInViewport({ ratio: 1 });
}

test('at 800×600, j/k keep the cursor\'s row and the titles of the pair being ruled on in view', async () => {
  // The list was the page's whole height above the detail: after j the row was in view, the pair's texts 3,000 px below.
  const page = served.page;
  await page.setViewportSize({ width: 800, height: 600 });
  await openReview(page, 'bin');
  mkdirSync(SCREENS, { recursive: true });
  const inView = (at: string): Promise<void> => pairInView(page, at);
  for (let i = 0; i < 14; i++) await page.keyboard.press('j');
  await inView('15');
  await page.screenshot({ path: path.join(SCREENS, 'review-800x600-j.png') });
  // The detail scrolled down to the votes and the reason: the next pair shows from its titles again.
  await page.getByTestId('review-current').evaluate((e) => e.scrollTo({ top: e.scrollHeight }));
  await expect(page.getByTestId('review-reason-button')).toBeInViewport();
  await page.keyboard.press('j');
  await inView('16');
  for (let i = 0; i < 11; i++) await page.keyboard.press('k');
  await inView('5');
  await page.keyboard.press('End');
  await inView(String(QUERIES * DEPTH));
  // Nothing of the page scrolls sideways.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(800);
});

test('at 680×450 (1360×900 at 200% zoom), j/k keep both titles, the start of both bodies and the cursor\'s place (item N of M) of the pair being ruled on in view', async () => {
  // The split's 320-px minimum ran it past the window's bottom: after j/k the candidate's title was cut off.
  const page = served.page;
  await page.setViewportSize({ width: 680, height: 450 });
  try {
    await openReview(page, 'bin');
    const inView = async (at: string): Promise<void> => {
      await pairInView(page, at);
      // The bodies' first line: their top and a line's height below it inside the window and inside the detail pane.
      const pane = await page.getByTestId('review-current').evaluate((e) => e.getBoundingClientRect().bottom);
      for (const id of ['review-query-body', 'review-candidate-body']) {
        const { top, line } = await page.getByTestId(id).evaluate((e) => ({ top: e.getBoundingClientRect().top, line: parseFloat(getComputedStyle(e).lineHeight) || 20 }));
        expect(top + line, `${id}'s first line at ${at} (pane ends at ${pane})`).toBeLessThanOrEqual(Math.min(450, pane));
        expect(top).toBeGreaterThanOrEqual(0);
      }
    };
    await page.keyboard.press('Home');
    await inView('1');
    for (let i = 0; i < 6; i++) await page.keyboard.press('j');
    await inView('7');
    // The progress line's "item N of M" scrolled away with the page: the pair's first line says it.
    await expect(page.getByTestId('review-detail-place')).toHaveText('item 7 of 90');
    await expect(page.getByTestId('review-detail-place'), 'the cursor\'s place').toBeInViewport({ ratio: 1 });
    mkdirSync(SCREENS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENS, 'review-680x450-j.png') });
    await page.keyboard.press('k');
    await inView('6');
    await page.keyboard.press('End');
    await inView(String(QUERIES * DEPTH));
    await expect(page.getByTestId('review-detail-place')).toHaveText(`item ${QUERIES * DEPTH} of ${QUERIES * DEPTH}`);
    await expect(page.getByTestId('review-detail-place')).toBeInViewport({ ratio: 1 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(680);
  } finally {
    await page.setViewportSize({ width: 800, height: 600 });
  }
});

test('at 1024×700, the list of a Likert pool with long names and many votes fits its column, and the detail\'s long titles do not overlap', async () => {
  // Names of 30 letters without a space made the list 11 px wider than its column; a four-line title ran the query's body over the candidate's heading.
  const page = served.page;
  await page.setViewportSize({ width: 1024, height: 700 });
  try {
    await openReview(page, 'lik');
    await page.screenshot({ path: path.join(SCREENS, 'review-1024x700-likert.png') });
    const pane = page.getByTestId('review-list-pane');
    const { scroll, client } = await pane.evaluate((e) => ({ scroll: e.scrollWidth, client: e.clientWidth }));
    expect(scroll, `list ${scroll} px in a ${client}-px column`).toBeLessThanOrEqual(client);
    // The detail's four-line titles: the query's block (its body included) ends above the candidate's, which ends above the votes.
    const box = async (id: string): Promise<{ top: number; bottom: number }> =>
      page.getByTestId(id).evaluate((e) => {
        const r = e.getBoundingClientRect();
        return { top: r.top, bottom: r.bottom };
      });
    const query = await box('review-query');
    const candidate = await box('review-candidate');
    const votes = await box('review-votes');
    const overflow = await page.getByTestId('review-query').evaluate((e) => e.scrollHeight - e.clientHeight);
    expect(overflow, 'the query block holds its content').toBeLessThanOrEqual(0);
    expect(query.bottom).toBeLessThanOrEqual(candidate.top);
    expect(candidate.bottom).toBeLessThanOrEqual(votes.top);
  } finally {
    await page.setViewportSize({ width: 800, height: 600 });
  }
});

test('at 800×600, a judge\'s F1 list keeps every key and its meaning inside the card', async () => {
  // Her "Alt+3 · Alt+4 · … Alt+9" stayed on one line and pushed its meaning past the card's right edge, cut off (at 1024 and 1360 too: the card is 760 px).
  const page = served.page;
  await page.setViewportSize({ width: 800, height: 600 });
  await page.goto(`${served.server!.url}/?token=${encodeURIComponent(judyToken)}#review`);
  await expect(page.getByTestId('review-total')).toHaveText(String(QUERIES * DEPTH));
  await page.keyboard.press('F1');
  const global = page.getByTestId('shortcut-global-keys');
  await expect(global).toContainText('Alt+3 · Alt+4 · Alt+5 · Alt+6 · Alt+7 · Alt+8 · Alt+9');
  await page.screenshot({ path: path.join(SCREENS, 'shortcuts-judge-800x600.png') });
  const card = await page.locator('.shortcut-card').evaluate((e) => e.getBoundingClientRect().right);
  for (const cell of await global.locator('td, th').all()) {
    const right = await cell.evaluate((e) => e.getBoundingClientRect().right);
    expect(right, `${await cell.innerText()} ends at ${right}, the card at ${card}`).toBeLessThanOrEqual(card);
  }
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('shortcut-overlay')).toHaveCount(0);
});

test('Agreement\'s expander buttons are named by their query, the triangle hidden from screen readers', async () => {
  // Screen readers said "▸ q0" (black right-pointing small triangle q0): the triangle was in the button's name.
  const page = served.page;
  await page.goto(`${served.server!.url}/#agreement`);
  await page.getByTestId('agreement-pool').selectOption('bin');
  const expander = page.getByTestId('disagreement-query-q0').locator('button[aria-expanded]');
  await expect(expander).toHaveAttribute('aria-expanded', 'false');
  await expect(expander).toHaveText(/▸/);
  await expect(expander).toHaveAccessibleName('q0');
  await expander.click();
  await expect(expander).toHaveAttribute('aria-expanded', 'true');
  await expect(expander).toHaveAccessibleName('q0');
});

test('Browse at 800×600: Enter on a result shows the question beside the results, the result keeps the focus in view; → reads the question, Esc comes back', async () => {
  // The question opened below the results and the page scrolled to it: the focused result went out of view, the reader lost their place.
  const page = served.page;
  await page.setViewportSize({ width: 800, height: 600 });
  await page.goto(`${served.server!.url}/#browse`);
  await page.getByTestId('browse-text').fill('body words');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('browse-status')).toHaveText('50 questions found');
  const result = page.getByTestId('browse-results').locator('button.link-button').nth(11);
  await result.focus();
  const id = (await result.getAttribute('data-testid'))!.replace('browse-open-', '');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('browse-question-id')).toHaveText(id);
  // Two frames: the old code scrolled to the question in the next one (the assertions below would pass before it).
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(null)))));
  await expect(result).toBeFocused();
  await expect(result, 'the result that was opened').toBeInViewport({ ratio: 1 });
  await expect(page.getByTestId('browse-question-title'), 'the question shown').toBeInViewport({ ratio: 1 });
  await expect(page.getByTestId('browse-question').locator('.query-body')).toBeInViewport();
  await expect(page.getByTestId('browse-shown-announce')).toContainText(id);
  // Nor does it, or its pools' table, scroll sideways.
  for (const box of [page.getByTestId('browse-question'), page.getByTestId('browse-pools').locator('xpath=..')]) {
    const { scroll, client } = await box.evaluate((e) => ({ scroll: e.scrollWidth, client: e.clientWidth }));
    expect(scroll, `${await box.getAttribute('class')}: ${scroll} px in ${client}`).toBeLessThanOrEqual(client);
  }
  mkdirSync(SCREENS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENS, 'browse-800x600-open.png') });
  // → on the result takes the focus to the question (its title), Esc back to the result.
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('browse-question-title')).toBeFocused();
  await expect(result).toBeInViewport({ ratio: 1 });
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('browse-question').locator('.query-body')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(result).toBeFocused();
  // The next result opens the same way, the first still in view.
  await page.keyboard.press('Shift+Tab');
  const previous = page.getByTestId('browse-results').locator('button.link-button').nth(10);
  await expect(previous).toBeFocused();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(800);
  // Under 760 px (680×450: 1360×900 at 200% zoom) the question stands below the results: opening one takes the focus there, Esc brings it back.
  await page.setViewportSize({ width: 680, height: 450 });
  try {
    const third = page.getByTestId('browse-results').locator('button.link-button').nth(2);
    await third.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('browse-question-title')).toBeFocused();
    await expect(page.getByTestId('browse-question-title')).toBeInViewport();
    await page.keyboard.press('Escape');
    await expect(third).toBeFocused();
    await expect(third).toBeInViewport();
  } finally {
    await page.setViewportSize({ width: 800, height: 600 });
  }
});

test('Shift+Tab back up a long page keeps each control it reaches clear of the sticky top bar (Browse at 800×600 and 680×450)', async () => {
  // Going back up, the browser scrolled each control to the window's top edge, under the top bar (two rows of tabs at 680 px): the focus was hidden.
  const page = served.page;
  try {
    for (const [width, height] of [[800, 600], [680, 450]] as const) {
      await page.setViewportSize({ width, height });
      await page.goto(`${served.server!.url}/#browse`);
      await page.getByTestId('browse-text').fill('body words');
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('browse-status')).toHaveText('50 questions found');
      await page.getByTestId('browse-results').locator('button.link-button').last().focus();
      for (let i = 0; i < 12; i++) {
        await page.keyboard.press('Shift+Tab');
        const { id, top, bar } = await page.evaluate(() => ({
          id: document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName ?? '',
          top: document.activeElement!.getBoundingClientRect().top,
          bar: document.querySelector('header.topbar')!.getBoundingClientRect().bottom,
        }));
        expect(top, `${id} at ${width}×${height}: its top ${top}, the bar's bottom ${bar}`).toBeGreaterThanOrEqual(bar);
      }
      await page.screenshot({ path: path.join(SCREENS, `browse-${width}-shift-tab.png`) });
    }
  } finally {
    await page.setViewportSize({ width: 800, height: 600 });
  }
});

/** The pools table's box: whether it scrolls sideways, and its pool `name`'s cell is at its left and on top (not under another cell). */
async function poolNameShown(page: Page, name: string, label: string): Promise<void> {
  const wrap = page.getByTestId('pools-table').locator('xpath=..');
  const box = await wrap.evaluate((e) => e.getBoundingClientRect().left);
  const cell = page.getByTestId(`pool-row-${name}`).locator('td').first();
  await expect(cell).toContainText(name);
  const left = await cell.evaluate((e) => e.getBoundingClientRect().left);
  expect(left, `the name's cell at ${left}, the table's box at ${box} (${label})`).toBeGreaterThanOrEqual(box - 1);
  const hit = await cell.evaluate((e) => {
    const r = e.getBoundingClientRect();
    return e.contains(document.elementFromPoint(r.left + r.width / 2, r.top + 8));
  });
  expect(hit, `the name cell is on top (${label})`).toBe(true);
}

test('the pools table fits windows from 680 to 1000 px wide (its lesser columns in a line under each name, their sort buttons in the Name header): Tab on a pool\'s Annotate shows its name; annotators\' names are whole', async () => {
  // Under about 950 px the table (894 px) scrolled sideways: the pool's name stayed pinned at its left, but half the row was out of view at any time.
  const page = served.page;
  await page.goto(`${served.server!.url}/?signout`); // the owner (the F1 test signed judy in)
  try {
    for (const [width, height] of [[680, 450], [760, 600], [800, 600], [900, 700], [950, 700], [1000, 700], [1001, 700], [1024, 700]] as const) {
      const label = `${width}×${height}`;
      await page.setViewportSize({ width, height });
      await page.goto(`${served.server!.url}/#pools`);
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: path.join(SCREENS, `pools-${width}-table.png`) });
      await page.getByTestId('pool-guidelines-lik').focus();
      await page.keyboard.press('Tab');
      await expect(page.getByTestId('pool-annotate-lik')).toBeFocused();
      await expect(page.getByTestId('pool-annotate-lik')).toBeInViewport({ ratio: 1 });
      const wrap = page.getByTestId('pools-table').locator('xpath=..');
      const { scroll, client } = await wrap.evaluate((e) => ({ scroll: e.scrollWidth, client: e.clientWidth }));
      expect(scroll, `the table ${scroll} px in a ${client}-px box at ${label}`).toBeLessThanOrEqual(client);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `the page at ${label}`).toBeLessThanOrEqual(width);
      await poolNameShown(page, 'lik', label);
      await expect(page.getByTestId('pool-row-lik').locator('td').first().locator('strong'), `the name beside its Annotate at ${label}`).toBeInViewport({ ratio: 1 });
      // The progress column's long annotator names break onto lines, whole (they were cut to "alex…").
      for (const who of await page.getByTestId('pool-row-lik').locator('.annotator-progress .who').all()) {
        const { scroll: s, client: c, text } = await who.evaluate((e) => ({ scroll: e.scrollWidth, client: e.clientWidth, text: e.textContent ?? '' }));
        expect(ANNOTATORS).toContain(text);
        expect(s, `${text}: ${s} px in ${c} at ${label}`).toBeLessThanOrEqual(c);
      }
      // Every column's figures and sort control, in its column or under the name.
      const details = page.getByTestId('pool-details-lik');
      if (width <= 1000) await expect(details, `the lesser columns under the name at ${label}`).toHaveText('likert5 · 30 queries · 90 pairs');
      else await expect(details).toBeHidden();
      for (const column of ['name', 'scheme', 'retriever', 'depth', 'queries', 'pairs', 'blind']) {
        const button = page.locator(`[data-testid="pools-table-sort-${column}"]:visible, [data-testid="pools-table-sort-${column}-folded"]:visible`);
        await expect(button, `${column}'s sort control at ${label}`).toHaveCount(1);
        await expect(button, `${column}'s sort control at ${label}`).toBeInViewport();
      }
      await page.screenshot({ path: path.join(SCREENS, `pools-${width}-annotate-focused.png`) });
    }
    // The Depth control under the name sorts from the keyboard.
    await page.setViewportSize({ width: 800, height: 600 });
    const depth = page.getByTestId('pools-table-sort-depth-folded');
    await depth.focus();
    await page.keyboard.press('Enter');
    await expect(depth).toContainText(/[▲▼]/);
    await expect(depth).toHaveAccessibleName(/sort by Depth/);
    // Narrower still (480 px), the table scrolls sideways with each pool's name kept at its left.
    await page.setViewportSize({ width: 480, height: 600 });
    await page.goto(`${served.server!.url}/#pools`);
    await page.getByTestId('pool-guidelines-lik').focus();
    await page.keyboard.press('Tab');
    await expect(page.getByTestId('pool-annotate-lik')).toBeInViewport({ ratio: 1 });
    expect(await page.getByTestId('pools-table').locator('xpath=..').evaluate((e) => e.scrollLeft), 'the table scrolled sideways at 480 px').toBeGreaterThan(0);
    await poolNameShown(page, 'lik', '480×600');
  } finally {
    await page.setViewportSize({ width: 800, height: 600 });
  }
});

test('Annotate at 800×600: the candidate under the cursor is in full view under the sticky query, on opening and after j/k', async () => {
  // The sticky query (a three-line title, its body up to 22% of the window) left the rows 160 px: every candidate of two lines and a body was cut at the window's bottom (by 11 to 52 px).
  const page = served.page;
  await page.setViewportSize({ width: 800, height: 600 });
  await page.goto(`${served.server!.url}/?signout`);
  await openAnnotate(page, 'alice', 'bin');
  const cursorInView = async (at: number): Promise<void> => {
    await expect(page.getByTestId(`candidate-row-${at}`)).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByTestId(`candidate-row-${at}`), `candidate ${at + 1}`).toBeInViewport({ ratio: 1 });
    // Not under the sticky query either.
    const head = await page.locator('.annotate-head').evaluate((e) => e.getBoundingClientRect().bottom);
    const top = await page.getByTestId(`candidate-row-${at}`).evaluate((e) => e.getBoundingClientRect().top);
    expect(top, `candidate ${at + 1}'s top, the query's bottom ${head}`).toBeGreaterThanOrEqual(head);
  };
  await cursorInView(0);
  await page.keyboard.press('j');
  await cursorInView(1);
  await page.keyboard.press('j');
  await cursorInView(2);
  await page.screenshot({ path: path.join(SCREENS, 'annotate-800x600-jj.png') });
  await page.keyboard.press('k');
  await cursorInView(1);
  await page.keyboard.press('k');
  await cursorInView(0);
  // The query's body still shows its first lines, and scrolls (Tab reaches it).
  await expect(page.locator('.annotate-head .query-body')).toBeInViewport();
});

/**
 * The focus ring of a keys' list (Annotate's candidates, Review's list) on its cursor's row, in
 * view (`ringed` false: no ring). The table's own outline was all there was: around a table taller
 * than the window or clipped by the review list's pane, it could not be seen.
 */
async function cursorRowRinged(page: Page, list: string, ringed = true): Promise<void> {
  const row = page.getByTestId(list).locator('tr[aria-selected="true"]');
  if (ringed) await expect(row).toBeInViewport();
  const shadows = await row.locator('td').evaluateAll((cells) => cells.map((c) => getComputedStyle(c).boxShadow));
  for (const shadow of shadows) {
    if (ringed) expect(shadow, `a cell of ${list}'s cursor row`).toMatch(/inset/);
    else expect(shadow).toBe('none');
  }
}

test('Browse at 800×600 and 1024×700, the question open beside: a result\'s title has the row, its source and score under it', async () => {
  // The title had 133 px of an 800-px window beside Source and BM25: a 180-character title stood on ten lines.
  const page = served.page;
  await page.setViewportSize({ width: 800, height: 600 });
  try {
    await page.goto(`${served.server!.url}/#browse`);
    await page.getByTestId('browse-text').fill('body words');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('browse-status')).toHaveText('50 questions found');
    await page.getByTestId('browse-results').locator('button.link-button').first().click();
    await expect(page.getByTestId('browse-question-id')).not.toBeEmpty();
    const results = page.getByTestId('browse-results');
    for (const width of [800, 1024]) {
      await page.setViewportSize({ width, height: width === 800 ? 600 : 700 });
      const title = await results.locator('td:has(button.link-button)').first().evaluate((e) => e.getBoundingClientRect().width);
      const table = await results.evaluate((e) => e.getBoundingClientRect().width);
      expect(title, `the title's cell at ${width}: ${title} px of the table's ${table}`).toBeGreaterThanOrEqual(0.7 * table);
      await expect(results.locator('thead th:visible')).toHaveText(['#', /^Question/]); // (the hidden columns' sort buttons beside it)
      const first = results.locator('tbody tr').first();
      await expect(first.locator('.browse-hit-meta')).toHaveText(/^q · BM25 \d+\.\d\d$/);
      await expect(first.locator('.browse-hit-meta')).toBeVisible();
      // The question beside still fits its panel.
      const { scroll, client } = await page.getByTestId('browse-question').evaluate((e) => ({ scroll: e.scrollWidth, client: e.clientWidth }));
      expect(scroll).toBeLessThanOrEqual(client);
      await page.screenshot({ path: path.join(SCREENS, `browse-${width}-results.png`) });
    }
    // A wide window keeps the columns (the line under the title hidden).
    await page.setViewportSize({ width: 1360, height: 900 });
    await expect(results.locator('thead th:visible')).toHaveText(['#', /^Question/, 'Source', 'BM25']);
    await expect(results.locator('.folded-sorts')).toBeHidden();
    await expect(results.locator('.browse-hit-meta').first()).toBeHidden();
  } finally {
    await page.setViewportSize({ width: 800, height: 600 });
  }
});

test('a button that switches screens leaves the focus on the new screen, ringed on the cursor\'s row: Pools → Annotate on the candidates, Agreement → Review on the list, the keys acting at once', async () => {
  // The button went with its screen and the focus fell to <body>: Tab started again from the top of the page.
  const page = served.page;
  await page.goto(`${served.server!.url}/?signout`); // the owner again (the F1 test signed judy in)
  await openAnnotate(page, 'alice', 'bin');
  await page.goto(`${served.server!.url}/#pools`);
  await page.getByTestId('pool-annotate-bin').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('candidates')).toHaveAttribute('data-pool', 'bin');
  await expect(page.getByTestId('candidates')).toBeFocused();
  await cursorRowRinged(page, 'candidates');
  await page.keyboard.press('Home');
  await page.keyboard.press('j');
  await expect(page.getByTestId('candidate-row-1')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('candidates')).toBeFocused();

  await page.goto(`${served.server!.url}/#agreement`);
  await page.getByTestId('agreement-pool').selectOption('bin');
  await page.getByTestId('disagreement-review-q3').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('review-current')).toHaveAttribute('data-query', 'q3');
  await expect(page.getByTestId('review-list')).toBeFocused();
  await cursorRowRinged(page, 'review-list');
  // The list's own ring is clipped by its pane (and mostly out of it): the pane shows one, in view.
  const pane = page.getByTestId('review-list-pane');
  await expect(pane).toBeInViewport({ ratio: 1 });
  expect(await pane.evaluate((e) => getComputedStyle(e).outlineStyle), 'the pane of the focused list').toBe('solid');
  const at = Number(await page.getByTestId('review-index').textContent());
  await page.keyboard.press('j');
  await expect(page.getByTestId('review-index')).toHaveText(String(at + 1));
  await expect(page.getByTestId('review-list')).toBeFocused();
  await cursorRowRinged(page, 'review-list');
  await page.screenshot({ path: path.join(SCREENS, 'review-from-agreement-800x600.png') });
  // Unfocused, neither ring shows (the row keeps its cursor's colours).
  await page.getByTestId('review-filter').focus();
  await cursorRowRinged(page, 'review-list', false);
  expect(await pane.evaluate((e) => getComputedStyle(e).outlineStyle)).toBe('none');
  // Browse's open in Annotate: on the candidates of the query opened.
  await page.goto(`${served.server!.url}/#browse`);
  await page.getByTestId('browse-text').fill('q3 body');
  await page.keyboard.press('Enter');
  await page.getByTestId('browse-open-q3').click();
  await page.getByTestId('browse-annotate-bin-q3').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('candidates')).toHaveAttribute('data-query', 'q3');
  await expect(page.getByTestId('candidates')).toBeFocused();
  await cursorRowRinged(page, 'candidates');
  // A tab of the top bar keeps the focus (on the tab).
  await page.getByTestId('tab-agreement').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('tab-agreement')).toBeFocused();
});

test('a click on a keys\' list rings its cursor\'s row at once, before any key: Annotate\'s candidates, Review\'s list, Browse\'s results; a clicked plain button shows no ring', async () => {
  // The rings were drawn with :focus-visible: after a click they showed only from the first key press, so a keyboard-first reader who clicked once did not see where the keys would act.
  const page = served.page;
  await page.setViewportSize({ width: 800, height: 600 });
  await page.goto(`${served.server!.url}/?signout`);
  await openAnnotate(page, 'alice', 'bin');
  // A click on the second candidate's position cell (the mouse again after openAnnotate's keys).
  await page.getByTestId('candidate-row-1').locator('td').first().click();
  await expect(page.getByTestId('candidate-row-1')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('candidates')).toBeFocused();
  await cursorRowRinged(page, 'candidates');

  await openReview(page, 'bin');
  await page.getByTestId('review-row-2').locator('td').first().click();
  await expect(page.getByTestId('review-index')).toHaveText('3');
  await expect(page.getByTestId('review-list')).toBeFocused();
  await cursorRowRinged(page, 'review-list');
  expect(await page.getByTestId('review-list-pane').evaluate((e) => getComputedStyle(e).outlineStyle), 'the pane of the list clicked').toBe('solid');

  await page.goto(`${served.server!.url}/#browse`);
  await page.getByTestId('browse-text').fill('body words');
  await page.getByTestId('browse-search').click();
  await expect(page.getByTestId('browse-status')).toHaveText('50 questions found');
  // The Search button clicked: a plain button keeps :focus-visible (no ring after a click).
  await expect(page.getByTestId('browse-search')).toBeFocused();
  expect(await page.getByTestId('browse-search').evaluate((e) => getComputedStyle(e).outlineStyle), 'the clicked Search button').toBe('none');
  const result = page.getByTestId('browse-results').locator('button.link-button').nth(3);
  const id = (await result.getAttribute('data-testid'))!.replace('browse-open-', '');
  await result.click();
  await expect(page.getByTestId('browse-question-id')).toHaveText(id);
  await expect(result).toBeFocused();
  const row = page.getByTestId(`browse-hit-${id}`);
  await expect(row).toHaveAttribute('aria-current', 'true');
  for (const shadow of await row.locator('td:visible').evaluateAll((cells) => cells.map((c) => getComputedStyle(c).boxShadow))) expect(shadow, 'a cell of the clicked result\'s row').toMatch(/inset/);
  mkdirSync(SCREENS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENS, 'browse-800x600-clicked.png') });
  // The focus elsewhere: the row shown keeps its marker (aria-current, the accent at its left), without the ring.
  await page.getByTestId('browse-text').focus();
  for (const shadow of await row.locator('td').evaluateAll((cells) => cells.map((c) => getComputedStyle(c).boxShadow))) expect(shadow).toBe('none');
  expect(await row.locator('td').first().evaluate((e) => getComputedStyle(e).borderLeftStyle)).toBe('solid');
});

test('Review\'s "item N of M" stays in view while the judge scrolls the pair\'s detail (and the page), at 1360×900, 1024×700, 800×600 and 680×450', async () => {
  // At 680×450 the place stood in the pair's first line and scrolled away with the detail: a judge reading the votes lost where the cursor was.
  const page = served.page;
  try {
    for (const [width, height] of [[1360, 900], [1024, 700], [800, 600], [680, 450]] as const) {
      await page.setViewportSize({ width, height });
      await openReview(page, 'lik');
      await page.keyboard.press('Home');
      for (let i = 0; i < 6; i++) await page.keyboard.press('j');
      await expect(page.getByTestId('review-index')).toHaveText('7');
      await page.getByTestId('review-current').evaluate((e) => e.scrollTo({ top: e.scrollHeight }));
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      expect(await page.getByTestId('review-current').evaluate((e) => e.scrollTop), `the detail scrolled at ${width}×${height}`).toBeGreaterThan(width > 1100 ? -1 : 0);
      // The progress line's "item N of M", else the pair's own: in the window, below a sticky top bar, not under anything.
      const shown = await page.evaluate(() => {
        const bar = document.querySelector('header.topbar')!;
        const barBottom = getComputedStyle(bar).position === 'sticky' ? bar.getBoundingClientRect().bottom : 0;
        const visible = (e: Element | null): boolean => {
          if (!e || !(e instanceof HTMLElement) || e.offsetParent === null) return false;
          const r = e.getBoundingClientRect();
          if (r.top < barBottom || r.bottom > window.innerHeight || r.width === 0) return false;
          const hit = document.elementFromPoint(r.left + Math.min(r.width / 2, 4), r.top + r.height / 2);
          return !!hit && (e.contains(hit) || hit.contains(e));
        };
        const progress = document.querySelector('[data-testid=review-index]');
        if (visible(progress)) return `item ${progress!.textContent} of ${progress!.parentElement!.textContent!.replace(/^.*of\s*/, '')}`;
        const place = document.querySelector('[data-testid=review-detail-place]');
        return visible(place) ? place!.textContent : 'none';
      });
      await page.screenshot({ path: path.join(SCREENS, `review-${width}x${height}-detail-scrolled.png`) });
      expect(shown, `the cursor's place at ${width}×${height}`).toMatch(/^item 7 of 90\b/);
    }
  } finally {
    await page.setViewportSize({ width: 800, height: 600 });
  }
});

test('Browse\'s results: every column\'s sort control is visible and works from the keyboard at every width from 680 px up', async () => {
  // From 761 to 1100 px the Source and BM25 columns went (their values under the title) and their sort buttons with them: no way to sort by source or score.
  const page = served.page;
  try {
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.goto(`${served.server!.url}/#browse`);
    await page.getByTestId('browse-text').fill('body words');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('browse-status')).toHaveText('50 questions found');
    await page.getByTestId('browse-results').locator('button.link-button').first().click();
    await expect(page.getByTestId('browse-question-id')).not.toBeEmpty();
    const results = page.getByTestId('browse-results');
    const headerOf = { rank: '#', title: 'Question', source: 'Source', score: 'BM25' } as const;
    for (const width of [680, 760, 761, 800, 1024, 1100, 1101, 1360]) {
      await page.setViewportSize({ width, height: 700 });
      for (const column of ['rank', 'title', 'source', 'score'] as const) {
        // The column's own button, or the one standing for it in the title's header.
        const button = page.locator(`[data-testid="browse-results-sort-${column}"]:visible, [data-testid="browse-results-sort-${column}-folded"]:visible`);
        await expect(button, `${column}'s sort control at ${width} px`).toHaveCount(1);
        await expect(button, `${column}'s sort control at ${width} px`).toBeInViewport();
        await expect(button).toContainText(headerOf[column]);
        if (width !== 800 && width !== 1360) continue;
        // From the keyboard: Enter sorts by it (numbers from the largest), again reverses it, a third time gives the search's order back.
        const order = async (): Promise<string[]> => results.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-testid') ?? ''));
        const before = await order();
        await button.focus();
        await page.keyboard.press('Enter');
        await expect(button).toBeFocused();
        const [first, second] = column === 'rank' || column === 'score' ? ['▼', '▲'] : ['▲', '▼'];
        await expect(button).toContainText(first);
        await expect(button, 'says what it sorts by').toHaveAccessibleName(new RegExp(headerOf[column]));
        if (column === 'rank') expect(await order(), 'by rank, from the last').toEqual([...before].reverse());
        await page.keyboard.press('Enter');
        await expect(button).toContainText(second);
        if (column === 'rank') expect(await order(), 'by rank, from the first').toEqual(before);
        await page.keyboard.press('Enter');
        await expect(button).not.toContainText(/[▲▼]/);
        expect(await order()).toEqual(before);
      }
      await page.screenshot({ path: path.join(SCREENS, `browse-${width}-sorts.png`) });
    }
  } finally {
    await page.setViewportSize({ width: 800, height: 600 });
  }
});

/** The focused element is wholly in the window, below the top bar when that is sticky; `label` names it in failures. */
async function focusedWhollyShown(page: Page, label: string): Promise<void> {
  const { top, bottom, bar, height, id } = await page.evaluate(() => {
    const e = document.activeElement!;
    const r = e.getBoundingClientRect();
    const topbar = document.querySelector('header.topbar')!;
    const inDialog = !!e.closest('[role=dialog]');
    return {
      top: r.top,
      bottom: r.bottom,
      bar: !inDialog && getComputedStyle(topbar).position === 'sticky' ? topbar.getBoundingClientRect().bottom : 0,
      height: window.innerHeight,
      id: e.getAttribute('data-testid') ?? e.tagName,
    };
  });
  expect(top, `${label} (${id}): its top ${top}, the bar's bottom ${bar}`).toBeGreaterThanOrEqual(bar - 0.5);
  expect(bottom, `${label} (${id}): its bottom ${bottom}, the window's ${height}`).toBeLessThanOrEqual(height + 0.5);
}

test('at 680×450 a tall text box reached with Tab stands wholly in the window (the guidelines\' Markdown, a note), scrolling inside itself', async () => {
  // The guidelines' 14-line box was 322 px under a 140-px top bar in a 450-px window: Tab scrolled its top into view, its bottom 30 px below the window.
  const page = served.page;
  await page.goto(`${served.server!.url}/?signout`);
  await page.setViewportSize({ width: 680, height: 450 });
  try {
    await page.goto(`${served.server!.url}/#pools`);
    await page.getByTestId('pool-guidelines-bin').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('guidelines-heading')).toBeFocused();
    await page.keyboard.press('Tab');
    const text = page.getByTestId('guidelines-text');
    await expect(text).toBeFocused();
    await focusedWhollyShown(page, 'the guidelines\' Markdown');
    // Long guidelines scroll inside the box, which stays in the window.
    await text.fill(Array.from({ length: 60 }, (_, i) => `- rule ${i + 1}`).join('\n'));
    await page.keyboard.press('Control+End');
    await focusedWhollyShown(page, 'the guidelines\' Markdown, 60 lines');
    expect(await text.evaluate((e) => e.scrollHeight > e.clientHeight && e.scrollTop > 0), 'the box scrolls inside itself').toBe(true);
    await page.screenshot({ path: path.join(SCREENS, 'guidelines-680x450-tab.png') });
    // Back up and down again with Shift+Tab and Tab.
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await expect(text).toBeFocused();
    await focusedWhollyShown(page, 'the guidelines\' Markdown, again');
    // The Save button after it (and the preview, a scroller), too.
    for (let i = 0; i < 3 && !(await page.getByTestId('guidelines-save').evaluate((e) => e === document.activeElement)); i++) await page.keyboard.press('Tab');
    await expect(page.getByTestId('guidelines-save')).toBeFocused();
    await focusedWhollyShown(page, 'Save guidelines');

    // A note on a label (c in Annotate): its box and buttons in the window, a long note scrolling inside the box.
    await openAnnotate(page, 'alice', 'bin');
    await page.keyboard.press('c');
    const note = page.getByTestId('note-dialog-input');
    await expect(note).toBeFocused();
    await focusedWhollyShown(page, 'the note');
    await note.fill(Array.from({ length: 40 }, (_, i) => `line ${i + 1}`).join('\n'));
    await focusedWhollyShown(page, 'the note, 40 lines');
    await page.keyboard.press('Tab');
    await expect(page.getByTestId('note-dialog-save')).toBeFocused();
    await focusedWhollyShown(page, 'the note\'s Save');
    await page.screenshot({ path: path.join(SCREENS, 'note-680x450.png') });
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('note-dialog')).toHaveCount(0);
  } finally {
    await page.setViewportSize({ width: 800, height: 600 });
  }
});

test('at 680×450, Home or End on the pair the cursor is already on brings it into view too (the first key after opening Review)', async () => {
  // The page scrolled the split into view only when the cursor changed: opened on the first pair, Home left its row cut by the window's bottom (62% shown).
  const page = served.page;
  await page.setViewportSize({ width: 680, height: 450 });
  try {
    await page.goto(`${served.server!.url}/#review`);
    await page.reload();
    await openReview(page, 'bin');
    await page.evaluate(() => window.scrollTo(0, 0));
    const at = (await page.getByTestId('review-index').textContent())!;
    await page.keyboard.press(at === '1' ? 'Home' : 'End');
    await expect(page.getByTestId('review-index')).toHaveText(at);
    await pairInView(page, at);
  } finally {
    await page.setViewportSize({ width: 800, height: 600 });
  }
});
