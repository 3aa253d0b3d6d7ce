/**
 * Undo last import on the Workspace screen: after an import the import area names it ("Undo last
 * import: <what>, <when>"), asks for confirmation, runs the undo with its progress and says what
 * it did; the workspace is back to its questions before the import, and there is nothing left to undo.
 * An import that fails or changes nothing in between leaves the same import to undo.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { useServedWorkspace } from './served-workspace';
import { askKeepThenReachConfirm, focusedTestId } from './focus';
import { importFromWorkspaceScreen, questionsFile } from './import-undo-setup';

const served = useServedWorkspace('import-undo', 61, { workspace: 'w.qpairs' });

test('an owner undoes the last import from the Workspace screen, after confirming', async () => {
  const page = served.page;
  const file = questionsFile(served.dir, 'wrong.jsonl', 'w', 5_000);
  const { before, undo } = await importFromWorkspaceScreen(page, file);

  // Asked first: "Keep it" changes nothing.
  await undo.click();
  await expect(page.getByRole('alertdialog', { name: 'Undo the last import?' })).toContainText('Undo the questions-jsonl import of wrong.jsonl started');
  await page.getByTestId('undo-import-keep').click();
  await expect(page.getByTestId('undo-import-confirm')).toHaveCount(0);
  await expect(page.getByTestId('stat-questions')).not.toHaveText(before);
  const named = (await undo.textContent())!;

  // An import refused halfway through a bad file, then wrong.jsonl again (nothing changed): neither takes its place.
  const bad = path.join(served.dir, 'bad.jsonl');
  writeFileSync(bad, `${JSON.stringify({ id: 'b1', title: 'fine', body: 'fine' })}\n{not json\n`);
  await page.getByTestId('import-paths').fill(bad);
  await page.getByTestId('import-start').click();
  await expect(page.getByTestId('import-error')).toContainText('bad.jsonl', { timeout: 60_000 });
  await expect(undo).toHaveText(named);
  await page.getByTestId('import-paths').fill(file);
  await page.getByTestId('import-start').click();
  await expect(page.getByTestId('import-report')).toContainText('nothing changed', { timeout: 60_000 });
  await expect(undo).toHaveText(named);

  await undo.click();
  await page.getByTestId('undo-import-confirm').click();
  await expect(page.getByTestId('undo-import-report')).toContainText('Import undone.', { timeout: 60_000 });
  await expect(page.getByTestId('undo-import-report')).toContainText(/undid the questions-jsonl import of wrong\.jsonl started \S+: took out 5,000 questions \([\d,]+ journal entr(y|ies) replayed\)/);
  await expect(page.getByTestId('stat-questions')).toHaveText(before);
  await expect(page.getByTestId('undo-import-start')).toHaveCount(0);
});

test('from the keyboard: the question takes the focus, Esc and Keep it give it back, and the undo\'s report takes it at the end', async () => {
  // The question replaced the focused button and the focus fell to <body>; so it did when the question went.
  const page = served.page;
  const focused = (): Promise<string> => focusedTestId(page);
  const { undo } = await importFromWorkspaceScreen(page, questionsFile(served.dir, 'few.jsonl', 'f', 20));
  await undo.focus();
  await askKeepThenReachConfirm(page, { start: 'undo-import-start', keep: 'undo-import-keep', confirm: 'undo-import-confirm', question: page.getByTestId('undo-import-confirm') });
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('undo-import-report')).toContainText('Import undone.', { timeout: 60_000 });
  await expect.poll(focused).toBe('undo-import-report');
});
