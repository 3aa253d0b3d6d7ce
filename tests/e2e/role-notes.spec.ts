/**
 * A judge made an annotator stops ruling in the pools assigned to others, and the Team panels said
 * nothing of it (their note spoke of pools nobody is assigned to only): jack's ruling in pool p,
 * assigned to alice and bob, went back to Review unsaid. Made a judge again, it is a ruling again.
 */
import { expect, test } from '@playwright/test';
import { qpairs, useServedSmallPool } from './small-pool';
import { saveRole } from './role-change';

test.describe.configure({ mode: 'serial' });

const served = useServedSmallPool(
  'role-notes',
  170,
  (pairs) => [`${pairs[0]![0]},${pairs[0]![1]},alice,1`, `${pairs[0]![0]},${pairs[0]![1]},bob,0`],
  ({ workspace, pairs }) => {
    const [q, c] = pairs[0]!;
    qpairs('annotators', 'add', workspace, 'jack', '--role', 'judge');
    qpairs('assign', workspace, '--pool', 'p', '--annotators', 'alice,bob');
    // jack settles alice's and bob's disagreement.
    qpairs('label', workspace, '--pool', 'p', '--annotator', 'jack', '--query', q, '--candidate', c, '--value', '0');
  },
);

test('jack made an annotator: Team access says his ruling in pool p settles nothing any more; made a judge in Team, that it is a ruling again', async () => {
  const page = served.page;
  await page.goto('/#pools');
  const panel = page.getByTestId('access-panel');
  await saveRole(panel, 'access-role-', 'jack', 'annotator');
  await expect(panel.getByTestId('access-role-note')).toHaveText(
    'jack ruled in pool assigned to others: p (1 ruling); as an annotator jack judges it no more and is not assigned to label it: ' +
      'those rulings settle nothing any more and are not votes either (they count again if jack is made a judge again), and the disagreements jack settled are back in Review.',
  );
  const people = page.getByTestId('people-table');
  // The Team table reads the change first: a choice made before that refresh was reset by it (the Save button went).
  await expect(people.getByTestId('role-jack')).toHaveValue('annotator');
  await saveRole(people, 'role-', 'jack', 'judge');
  await expect(page.getByTestId('role-note')).toHaveText('1 label jack gave there as a judge before (in p) is a ruling again.');
});
