/**
 * Every screen, as each role sees it, checked by axe-core (WCAG 2.0/2.1 A and AA rules) with
 * something on it: the owner's Workspace (with its import and undo panels), Pools (with Team and
 * Access), Annotate with a query open, Review with a pair shown, Agreement, Evaluate with figures
 * and the Live panel, Export, Models and Browse with results and a question open; the judge's and the annotator's
 * screens, signed in by their links. A serious or critical violation fails the test, with the
 * screen, rule and elements named. Scoring a pool on Models is announced (a live region).
 *
 * QPAIRS_A11Y_INCOMPLETE=1 prints what axe left for review (element by element); QPAIRS_A11Y_ALL=1
 * runs every axe rule (best practices too) instead of the WCAG A/AA ones.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { qpairs, useServedSmallPool } from './small-pool';

test.describe.configure({ mode: 'serial' });

const SCREENS = path.resolve(import.meta.dirname, '../../test-results/screens');
const WCAG_A_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

const tokens: Record<string, string> = {};

// ann and bob label every pair of p and disagree on every third: Review and Agreement have work.
const served = useServedSmallPool(
  'a11y',
  73,
  (ps) => ps.flatMap(([q, c], i) => [`${q},${c},ann,${i % 4 === 0 ? 1 : 0}`, `${q},${c},bob,${i % 3 === 0 ? 1 : 0}`]),
  ({ workspace }) => {
    for (const [name, role] of [['judy', 'judge'], ['ann', 'annotator']] as const) {
      tokens[name] = (JSON.parse(qpairs('annotators', 'invite', workspace, name, '--role', role, '--json')) as { token: string }).token;
    }
    // rita judges on the owner's Review; judy annotates pool j (a judge who votes in p is not offered its Review).
    qpairs('annotators', 'add', workspace, 'rita', '--role', 'judge');
    qpairs('assign', workspace, '--pool', 'p', '--annotators', 'ann,bob');
    qpairs('pool', 'create', workspace, '--name', 'j', '--sample', '2', '--seed', '2', '--depth', '3', '--blind', 'false');
    qpairs('assign', workspace, '--pool', 'j', '--annotators', 'judy');
    // A trained model: Models lists it with its Score and Delete controls.
    qpairs('train', workspace, '--model', 'tfidf', '--name', 'tf', '--train-pool', 'p');
  },
);

/** How each screen is brought to a state worth checking (its pool chosen, a query open, results shown). */
const SETUP: Record<string, (page: Page, who: string) => Promise<void>> = {
  workspace: async (page) => {
    await expect(page.getByTestId('tab-workspace')).toHaveAttribute('aria-selected', 'true');
  },
  pools: async (page) => {
    await expect(page.getByText('p', { exact: true }).first()).toBeVisible();
  },
  annotate: async (page, who) => {
    if (who.startsWith('owner')) {
      // The field starts with the system's user name once the page knows it; then ann replaces it.
      await expect(page.getByTestId('annotator-input')).not.toHaveValue('');
      await page.getByTestId('annotator-input').fill('ann');
      await page.getByTestId('annotator-input').press('Enter');
    }
    const pool = who === 'judge' ? 'j' : 'p';
    await page.getByTestId('annotate-pool').selectOption(pool);
    await expect(page.getByTestId('candidates')).toHaveAttribute('data-pool', pool);
    await expect(page.getByTestId('candidate-row-0')).toBeVisible();
    // judy has labeled nothing in j: the empty label pill is read "no label", not "dot".
    if (who === 'judge') expect(await page.getByTestId('label-0').ariaSnapshot()).toBe('- text: no label');
  },
  review: async (page, who) => {
    await page.getByTestId('review-pool').selectOption('p');
    if (who.startsWith('owner')) await page.getByTestId('review-judge').selectOption('rita');
    await expect(page.getByTestId('review-current')).toHaveAttribute('data-texts', 'loaded');
    // rita has ruled on nothing: the judge's pill, in the pair and in the list, says so to a screen reader
    // (its "·" alone was read "dot").
    if (who.startsWith('owner')) {
      expect(await page.getByTestId('review-judge-label').ariaSnapshot()).toBe('- text: no ruling');
      expect(await page.getByTestId('review-row-0').ariaSnapshot()).toContain('- cell "no ruling"');
      // Its votes are read with commas ("ann: similar, bob: not similar"), not the "·" the list shows between them.
      expect(await page.getByTestId('review-row-0').ariaSnapshot()).not.toContain('·');
    }
  },
  agreement: async (page) => {
    await expect(page.getByTestId('agreement-summary')).toBeVisible();
  },
  evaluate: async (page, who) => {
    await page.getByTestId('eval-pool').selectOption('p');
    // ann labeled every pair (the aggregate of ann and bob leaves the unsure pairs unlabeled).
    if (who !== 'annotator') await page.getByTestId('eval-annotator').selectOption('ann');
    await expect(page.getByTestId('metric-bm25-MAP')).toHaveText(/\d/);
    if (who.startsWith('owner')) await expect(page.getByTestId('live-enabled')).toBeVisible();
  },
  export: async (page) => {
    await expect(page.getByTestId('export-write')).toBeVisible();
  },
  models: async (page) => {
    await expect(page.getByTestId('model-name')).toBeVisible();
    await expect(page.getByTestId('model-row-tf')).toBeVisible();
  },
  browse: async (page) => {
    await page.getByTestId('browse-text').fill('visa');
    await page.getByTestId('browse-search').click();
    await expect(page.getByTestId('browse-status')).toContainText('found');
    // The first result's question opened beside the results.
    await page.locator('[data-testid^="browse-open-"]').first().click();
    await expect(page.getByTestId('browse-question')).toBeVisible();
  },
};

/** Every violation axe finds on the screen shown, serious and critical first, one line each. */
async function violations(page: Page, label: string): Promise<{ serious: string[]; lesser: string[] }> {
  const builder = new AxeBuilder({ page });
  const r = await (process.env.QPAIRS_A11Y_ALL ? builder : builder.withTags(WCAG_A_AA)).analyze();
  if (process.env.QPAIRS_A11Y_INCOMPLETE) for (const v of r.incomplete) for (const n of v.nodes) console.log(`[incomplete] ${label} ${v.id} ${n.target.join(' ')} :: ${n.html.slice(0, 160)} :: ${n.any.map((c) => c.message).join('; ')}`);
  const serious: string[] = [];
  const lesser: string[] = [];
  console.log(`[axe] ${label}: ${r.passes.length} rules pass, ${r.violations.length} violated, ${r.incomplete.length} to check by hand (${r.incomplete.map((v) => `${v.id}×${v.nodes.length}`).join(', ')})`);
  for (const v of r.violations) {
    const line = `${label}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(' | ')}`;
    (v.impact === 'serious' || v.impact === 'critical' ? serious : lesser).push(line);
  }
  // axe leaves an aria-label on an element that may not be named (a plain span or div) for review when
  // the element has text of its own; a screen reader reads that text and never the label, so it fails here too.
  for (const v of r.incomplete.filter((x) => x.id === 'aria-prohibited-attr')) {
    serious.push(`${label}: ${v.id} (${v.impact}, left for review) ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join(' | ')}`);
  }
  return { serious, lesser };
}

async function checkScreens(page: Page, who: string, tabs: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for (const t of tabs) {
    await page.getByTestId(`tab-${t}`).click();
    await expect(page.getByTestId(`tab-${t}`)).toHaveAttribute('aria-selected', 'true');
    await SETUP[t]!(page, who);
    // Let late fetches (figures, texts, status lines) land before the check.
    await page.waitForLoadState('networkidle');
    const { serious, lesser } = await violations(page, `${who} ${t}`);
    mkdirSync(SCREENS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENS, `a11y-${who}-${t}.png`), fullPage: true });
    if (lesser.length) console.log(`[lesser] ${lesser.join('\n[lesser] ')}`);
    found.push(...serious);
  }
  if (found.length) console.log(found.join('\n'));
  return found;
}

test('the owner\'s screens have no serious or critical WCAG A/AA violation', async () => {
  const page = served.page;
  await page.goto('/#workspace');
  const tabs = ['workspace', 'pools', 'annotate', 'review', 'agreement', 'evaluate', 'export', 'models', 'browse'];
  expect(await checkScreens(page, 'owner', tabs)).toEqual([]);
});

test('the judge\'s screens have no serious or critical WCAG A/AA violation', async () => {
  const context = await served.context.browser()!.newContext({ baseURL: served.server!.url, viewport: { width: 1360, height: 900 } });
  const page = await context.newPage();
  try {
    await page.goto(`/?token=${encodeURIComponent(tokens.judy!)}#review`);
    await expect(page.getByTestId('header-annotator')).toHaveText('judy');
    expect(await checkScreens(page, 'judge', ['annotate', 'review', 'agreement', 'evaluate', 'export', 'models', 'browse'])).toEqual([]);
  } finally {
    await context.close();
  }
});

test('the annotator\'s screens have no serious or critical WCAG A/AA violation', async () => {
  const context = await served.context.browser()!.newContext({ baseURL: served.server!.url, viewport: { width: 1360, height: 900 } });
  const page = await context.newPage();
  try {
    await page.goto(`/?token=${encodeURIComponent(tokens.ann!)}#annotate`);
    await expect(page.getByTestId('header-annotator')).toHaveText('ann');
    expect(await checkScreens(page, 'annotator', ['annotate', 'evaluate', 'browse'])).toEqual([]);
  } finally {
    await context.close();
  }
});

test('in dark mode the owner\'s screens have no serious or critical WCAG A/AA violation (contrast included)', async () => {
  const context = await served.context.browser()!.newContext({ baseURL: served.server!.url, viewport: { width: 1360, height: 900 }, colorScheme: 'dark' });
  const page = await context.newPage();
  try {
    await page.goto('/#workspace');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    const tabs = ['workspace', 'pools', 'annotate', 'review', 'agreement', 'evaluate', 'export', 'models', 'browse'];
    expect(await checkScreens(page, 'owner-dark', tabs)).toEqual([]);
  } finally {
    await context.close();
  }
});

test('Annotate\'s dialogs (keys, go to query, guidelines, note) and a noted candidate have no serious or critical WCAG A/AA violation', async () => {
  const context = await served.context.browser()!.newContext({ baseURL: served.server!.url, viewport: { width: 1360, height: 900 } });
  const page = await context.newPage();
  try {
    await page.goto(`/?token=${encodeURIComponent(tokens.ann!)}#annotate`);
    await SETUP.annotate!(page, 'annotator');
    await page.getByTestId('candidate-row-0').click();
    const found: string[] = [];
    const check = async (label: string): Promise<void> => {
      const { serious } = await violations(page, `annotator ${label}`);
      await page.screenshot({ path: path.join(SCREENS, `a11y-annotator-${label}.png`) });
      found.push(...serious);
    };
    await page.keyboard.press('F1');
    await expect(page.getByTestId('shortcut-close')).toBeVisible();
    await check('keys-dialog');
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('shortcut-close')).toBeHidden();
    for (const [key, id] of [['g', 'goto-dialog'], ['h', 'guidelines-overlay']] as const) {
      await page.keyboard.press(key);
      await expect(page.getByTestId(id)).toBeVisible();
      await check(id);
      await page.keyboard.press('Escape');
      await expect(page.getByTestId(id)).toBeHidden();
    }
    await page.keyboard.press('c');
    const note = page.getByRole('dialog');
    await expect(note).toBeVisible();
    await check('note-dialog');
    await note.getByRole('textbox').fill('the pup is not a heart');
    await note.getByRole('button', { name: /save/i }).click();
    await expect(note).toBeHidden();
    await expect(page.getByTestId('note-mark-0')).toBeVisible();
    await check('noted-candidate');
    if (found.length) console.log(found.join('\n'));
    expect(found).toEqual([]);
  } finally {
    await context.close();
  }
});

test('scoring a pool with a model is announced: its progress and result are in a live region, and Models passes axe with the result shown', async () => {
  const page = served.page;
  await page.goto('/#models');
  await page.getByTestId('model-score-pool-tf').selectOption('p');
  await page.getByTestId('model-score-tf').click();
  const status = page.getByTestId('model-score-status-tf');
  await expect(status).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
  await expect(page.getByRole('status').filter({ hasText: 'Scored p:' })).toContainText('stored as the run “tf”');
  const { serious } = await violations(page, 'owner models-scored');
  expect(serious).toEqual([]);
});

test('the owner\'s screens after acting on them (an undo asked, a person invited, a ruling saved) have no serious or critical WCAG A/AA violation', async () => {
  const page = served.page;
  const found: string[] = [];
  const check = async (label: string): Promise<void> => {
    const { serious } = await violations(page, `owner ${label}`);
    await page.screenshot({ path: path.join(SCREENS, `a11y-owner-${label}.png`), fullPage: true });
    found.push(...serious);
  };
  await page.goto('/#workspace');
  await page.getByTestId('undo-import-start').click();
  await expect(page.getByTestId('undo-import-keep')).toBeFocused();
  await check('undo-question');
  await page.getByTestId('undo-import-keep').click();

  await page.getByTestId('tab-pools').click();
  await page.getByTestId('access-name').fill('zoe');
  await page.getByTestId('access-invite').click();
  await expect(page.getByTestId('access-link')).toBeVisible();
  await check('invited');

  await page.getByTestId('tab-review').click();
  await SETUP.review!(page, 'owner');
  await page.getByTestId('review-current').press('1');
  // The list's compact save state, ✓, is read by its meaning.
  await expect(page.getByRole('img', { name: 'saved' })).toHaveCount(1);
  await check('ruled');
  if (found.length) console.log(found.join('\n'));
  expect(found).toEqual([]);
});

test('Assign turned off by a K above the people named says why to screen readers: the message is a live region and describes the K field', async () => {
  const page = served.page;
  await page.goto('/#pools');
  await page.getByTestId('team-pool').selectOption('p');
  await page.getByTestId('assign-annotators').fill('ann, bob');
  await page.getByTestId('assign-mode-k').check();
  const k = page.getByTestId('assign-k');
  await k.selectText();
  await k.pressSequentially('3');
  await expect(page.getByTestId('assign-submit')).toBeDisabled();
  await expect(page.getByRole('status').filter({ hasText: 'only 2 annotators named' })).toBeVisible();
  await expect(k).toHaveAccessibleDescription('only 2 annotators named');
  await page.getByTestId('assign-submit').locator('xpath=ancestor::form[1]').screenshot({ path: path.join(SCREENS, 'a11y-owner-assign-k-short.png') });
  const { serious } = await violations(page, 'owner assign-k-short');
  expect(serious).toEqual([]);
});

test('Evaluate\'s Labeling order and Learn as we label panels that cannot load say so as an alert', async () => {
  const context = await served.context.browser()!.newContext({ baseURL: served.server!.url, viewport: { width: 1360, height: 900 } });
  const page = await context.newPage();
  try {
    // The engine refuses both panels' reads (as a server whose disk failed would).
    await page.route('**/api/invoke', async (route) => {
      const command = (route.request().postDataJSON() as { command?: string } | null)?.command;
      if (command === 'live.status' || command === 'eval.order') await route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ code: 'internal', message: `${command} failed: disk I/O error` }) });
      else await route.fallback();
    });
    await page.goto('/#evaluate');
    await page.getByTestId('eval-pool').selectOption('p');
    await page.getByTestId('eval-annotator').selectOption('ann');
    await expect(page.getByTestId('metric-bm25-MAP')).toHaveText(/\d/);
    await expect(page.getByRole('alert').filter({ hasText: 'live.status failed: disk I/O error' })).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: 'eval.order failed: disk I/O error' })).toBeVisible();
    const { serious } = await violations(page, 'owner evaluate-panels-failed');
    expect(serious).toEqual([]);
  } finally {
    await context.close();
  }
});
