/**
 * Who voted on a pair is no third judge of it, in the browser: judy labeled pool p as its third
 * annotator and was then left out of its assignment; her vote does not settle the pair, and her
 * ruling on it is refused with the reason (gold/review.ts checkJudgeDidNotVote) — it was counted as
 * her ruling. Review marks it as hers and her key says at once who settles it; and she overrules
 * another judge's ruling only by pressing the key twice. And a role change says what it does to a person's labels in a pool nobody is assigned
 * to: the judge jack made an annotator votes with his ruling there (it said nothing).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { qpairs, useServedSmallPool } from './small-pool';
import { saveRole } from './role-change';

test.describe.configure({ mode: 'serial' });

const served = useServedSmallPool(
  'judge-voted',
  130,
  (pairs) => [`${pairs[0]![0]},${pairs[0]![1]},alice,1`, `${pairs[0]![0]},${pairs[0]![1]},bob,0`],
  ({ workspace, pairs, dir }) => {
    const [q, c] = pairs[0]!;
    qpairs('annotators', 'add', workspace, 'judy', 'jack', '--role', 'judge');
    // judy votes as p's third annotator (after alice and bob), then is left out: she judges p.
    qpairs('assign', workspace, '--pool', 'p', '--annotators', 'alice,bob,judy');
    qpairs('label', workspace, '--pool', 'p', '--annotator', 'judy', '--query', q, '--candidate', c, '--value', '1');
    qpairs('assign', workspace, '--pool', 'p', '--annotators', 'alice,bob');
    // Pool o, nobody assigned: alice 1, bob 0 on one pair, which jack settles.
    qpairs('pool', 'create', workspace, '--name', 'o', '--sample', '1', '--seed', '7', '--depth', '2');
    const csv = path.join(dir, 'o.csv');
    qpairs('export', workspace, '--pool', 'o', '--format', 'csv', '--no-text', csv);
    const [oq, oc] = readFileSync(csv, 'utf8').trim().split('\n')[1]!.split(',');
    for (const [who, v] of [['alice', '1'], ['bob', '0'], ['jack', '0']]) {
      qpairs('label', workspace, '--pool', 'o', '--annotator', who!, '--query', oq!, '--candidate', oc!, '--value', v!);
    }
  },
);

test("judy's vote is no ruling: the pair waits, marked as hers, and her key says at once why she does not settle it and who does", async () => {
  const page = served.page;
  const [q, c] = served.pairs[0]!;
  await page.goto('/#review');
  await page.getByTestId('review-pool').selectOption('p');
  await page.getByTestId('review-judge').selectOption('judy');
  await page.getByTestId('review-judge').blur();
  await expect(page.getByTestId('review-total')).toHaveText('1');
  const current = page.getByTestId('review-current');
  await expect(current).toHaveAttribute('data-query', q);
  await expect(current).toHaveAttribute('data-candidate', c);
  // The list and the pair say she voted on it (the engine's votedByYou), in words.
  await expect(page.getByTestId('review-row-0').getByTestId('review-voted-by-you-mark')).toHaveText('· you voted');
  // Read "you voted", not "dot you voted".
  expect(await page.getByTestId('review-row-0').getByTestId('review-voted-by-you-mark').ariaSnapshot()).toBe('- text: you voted');
  const why = 'You voted on this pair before judging the pool, so you are not its third judge and your ruling would be refused: jack settles it.';
  await expect(current.getByTestId('review-voted-by-you')).toHaveText(why);
  // The key says so at once; nothing is sent (the engine refused it only after sending: "not saved" with the reason).
  await page.keyboard.press('0');
  await expect(page.getByTestId('review-notice')).toHaveText(why);
  await expect(page.getByTestId('review-judge-label')).toHaveAttribute('data-value', '');
  await expect(page.getByTestId('failed-labels')).toHaveCount(0);
  // Jack, who did not vote on it, sees no mark.
  await page.getByTestId('review-judge').selectOption('jack');
  await page.getByTestId('review-judge').blur();
  await expect(page.getByTestId('review-total')).toHaveText('1');
  await expect(page.getByTestId('review-voted-by-you-mark')).toHaveCount(0);
  await expect(current.getByTestId('review-voted-by-you')).toHaveCount(0);
});

test("judy overrules jack's ruling only by pressing the key twice (Esc keeps his), the pair says whom hers overrules, and u takes it back", async () => {
  const page = served.page;
  await page.goto('/#review');
  await page.getByTestId('review-pool').selectOption('o');
  await page.getByTestId('review-judge').selectOption('judy');
  await page.getByTestId('review-judge').blur();
  await expect(page.getByTestId('review-total')).toHaveText('1');
  const label = page.getByTestId('review-judge-label');
  await expect(label).toHaveAttribute('data-value', '0');
  const notice = page.getByTestId('review-notice');
  const ask = 'jack ruled not similar — press 1 again to overrule jack with similar, or Esc to keep that ruling.';
  await page.keyboard.press('1');
  await expect(notice).toHaveText(ask);
  await expect(label).toHaveAttribute('data-value', '0');
  await page.keyboard.press('Escape');
  await expect(notice).toHaveText('Kept jack’s ruling.');
  // After Esc (or any other key) one press asks again; it overruled at once before.
  await page.keyboard.press('1');
  await expect(notice).toHaveText(ask);
  await expect(label).toHaveAttribute('data-value', '0');
  await page.keyboard.press('1');
  await expect(label).toHaveAttribute('data-value', '1');
  await expect(page.getByTestId('review-state')).toHaveAttribute('data-state', 'saved');
  await expect(page.getByTestId('label-announce')).toContainText('It overrules jack’s ruling (not similar).');
  await expect(page.getByTestId('review-overrules')).toHaveText(' overrules jack (not similar)');
  // u takes her ruling back: jack's counts again.
  await page.keyboard.press('u');
  await expect(label).toHaveAttribute('data-value', '0');
  await expect(page.getByTestId('review-overrules')).toHaveCount(0);
  await expect(page.getByTestId('review-current')).toContainText('judge (jack)');
});

test('the judge jack made an annotator, then a judge again: Team access and Team say what becomes of his label in pool o (his ruling again)', async () => {
  const page = served.page;
  await page.goto('/#pools');
  const panel = page.getByTestId('access-panel');
  await saveRole(panel, 'access-role-', 'jack', 'annotator');
  await expect(panel.getByTestId('access-role-note')).toContainText(
    "jack labeled pool nobody is assigned to: o (1 label); those labels were rulings and now count as jack's votes",
  );
  // Back to judge in the Team panel's rows: his label there (now a vote) stops voting, and is no ruling either.
  const people = page.getByTestId('people-table');
  // The Team table reads the change first: a choice made before that refresh was reset by it (the Save button went).
  await expect(people.getByTestId('role-jack')).toHaveValue('annotator');
  await saveRole(people, 'role-', 'jack', 'judge');
  // His ruling there, given while he judged it, is a ruling again (it was taken for a vote set aside and lost), said in
  // one statement: beside it, the note said his labels there were "not rulings either".
  await expect(page.getByTestId('role-note')).toHaveText(
    'jack labeled pool nobody is assigned to: o (1 label); as a judge jack no longer votes there: that label, given as a judge before, is a ruling again.',
  );
});
