/**
 * Undo last import while another owner tab imports: until that import ends the engine holds no
 * import to undo (the running import runs over the last one's journal). Before, this tab's button
 * still offered the last import, and a click took the button away without a word; now it waits,
 * disabled, saying why, and names the new import once it has ended.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { useServedWorkspace } from './served-workspace';

const served = useServedWorkspace('import-undo-other-tab', 93, { workspace: 'w.qpairs' });

function questionsFile(name: string, prefix: string, n: number): string {
  const file = path.join(served.dir, name);
  const lines: string[] = [];
  for (let i = 0; i < n; i++) lines.push(JSON.stringify({ id: `${prefix}${i}`, title: `question ${i} about mounting drive ${i % 97}`, body: `body ${i} with words ${(i * 7) % 1000}` }));
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

test("another tab's import under way: Undo waits, says why, then names that import", async () => {
  const importer = served.page;
  const small = questionsFile('small.jsonl', 's', 200);
  // Enough questions that the import runs for a few seconds.
  const large = questionsFile('large.jsonl', 'l', 150_000);

  await importer.goto('/#workspace');
  await importer.getByTestId('import-format').selectOption('questions-jsonl');
  await importer.getByTestId('import-paths').fill(small);
  await importer.getByTestId('import-start').click();
  await expect(importer.getByTestId('import-report')).toBeVisible({ timeout: 60_000 });

  const other = await importer.context().newPage();
  await other.goto(importer.url());
  const undo = other.getByTestId('undo-import-start');
  await expect(undo).toContainText('Undo last import: questions-jsonl import of small.jsonl, ');
  await expect(undo).toBeEnabled();
  await expect(other.getByTestId('undo-import-waits')).toHaveCount(0);

  await importer.getByTestId('import-paths').fill(large);
  await importer.getByTestId('import-start').click();
  await expect(importer.getByTestId('import-running')).toBeVisible();
  // The other tab sees the import under way: its Undo waits, saying why.
  await expect(other.getByTestId('undo-import-waits')).toContainText('An import is under way: the last import can be undone once it ends');
  await expect(undo).toBeDisabled();

  await expect(importer.getByTestId('import-report')).toBeVisible({ timeout: 120_000 });
  await expect(other.getByTestId('undo-import-waits')).toHaveCount(0);
  await expect(undo).toContainText('Undo last import: questions-jsonl import of large.jsonl, ');
  await expect(undo).toBeEnabled();
  await other.close();
});
