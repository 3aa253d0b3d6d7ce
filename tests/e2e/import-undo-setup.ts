/**
 * The setup the import-undo specs share: a questions-jsonl file of their own, and an import of it from the Workspace
 * screen by its path on the server (the served workspace is on this machine), after which "Undo last import" names it.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';

/** Writes `dir/name`: `n` questions (questions-jsonl) with ids `${prefix}0`, `${prefix}1`, …; returns its path. */
export function questionsFile(dir: string, name: string, prefix: string, n: number): string {
  const file = path.join(dir, name);
  const lines: string[] = [];
  for (let i = 0; i < n; i++) lines.push(JSON.stringify({ id: `${prefix}${i}`, title: `question ${i % 977} about ${prefix}`, body: `body ${i % 613} text ${i}` }));
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/**
 * Opens the Workspace screen, imports `file` (questions-jsonl) and waits for its report (`timeout` ms). Returns the
 * question count shown before the import and the "Undo last import" button, which then names it.
 */
export async function importFromWorkspaceScreen(page: Page, file: string, timeout = 60_000): Promise<{ before: string; undo: Locator }> {
  await page.goto('/#workspace');
  await expect(page.getByTestId('stat-questions')).not.toHaveText('');
  const before = (await page.getByTestId('stat-questions').textContent())!;
  await page.getByTestId('import-format').selectOption('questions-jsonl');
  await page.getByTestId('import-paths').fill(file);
  await page.getByTestId('import-start').click();
  await expect(page.getByTestId('import-report')).toBeVisible({ timeout });
  const undo = page.getByTestId('undo-import-start');
  await expect(undo).toContainText(`Undo last import: questions-jsonl import of ${path.basename(file)}, `, { timeout });
  return { before, undo };
}
