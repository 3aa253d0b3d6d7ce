/**
 * Undo last import commits in chunks: its Cancel stops it partway, the Workspace screen says the
 * import is partly undone and its button then reads "Finish undoing last import", which carries the
 * undo on to the end (the whole import's rows counted in its report). The focus goes to that button
 * and it asks nothing (the undo was confirmed when it began; the import cannot be kept now): one key
 * finishes it. Before, the focus went to the note and the button asked "Undo the …? … Keep it".
 */
import { expect, test } from '@playwright/test';
import { useServedWorkspace } from './served-workspace';
import { focusedTestId } from './focus';
import { importFromWorkspaceScreen, questionsFile } from './import-undo-setup';

const served = useServedWorkspace('import-undo-cancel', 120, { workspace: 'w.qpairs' });

test('a cancelled undo leaves the import partly undone, and Finish undoing last import ends it', async () => {
  test.setTimeout(180_000);
  const page = served.page;
  const { before, undo } = await importFromWorkspaceScreen(page, questionsFile(served.dir, 'big.jsonl', 'b', 150_000), 120_000);

  await undo.click();
  await page.getByTestId('undo-import-confirm').click();
  await expect(page.getByTestId('undo-import-running')).toContainText('Labels go on meanwhile.');
  await page.getByTestId('undo-import-cancel').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('undo-import-error')).toHaveText(
    'Undo cancelled. The import is partly undone, and imports are refused, until the undo is finished: Finish undoing last import carries on where it stopped.',
    { timeout: 60_000 },
  );
  await expect(undo).toContainText('Finish undoing last import: questions-jsonl import of big.jsonl, ');
  expect(await focusedTestId(page)).toBe('undo-import-start');

  await page.keyboard.press('Enter');
  await expect(page.getByTestId('undo-import-confirm')).toHaveCount(0);
  await expect(page.getByTestId('undo-import-report')).toContainText('Import undone.', { timeout: 60_000 });
  await expect(page.getByTestId('undo-import-report')).toContainText(/undid the questions-jsonl import of big\.jsonl started \S+: took out 150,000 questions/);
  await expect(page.getByTestId('stat-questions')).toHaveText(before);
  await expect(page.getByTestId('undo-import-start')).toHaveCount(0);
});
