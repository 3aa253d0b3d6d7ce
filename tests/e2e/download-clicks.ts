/** What the export-download specs do on the Export screen and to the page's download links. */
import { expect, type Page } from '@playwright/test';

/** The browser ignores the first download link clicked (as when it blocks a site's downloads): nothing is fetched. */
export async function ignoreFirstDownloadClick(page: Page): Promise<void> {
  await page.evaluate(() => {
    const click = HTMLAnchorElement.prototype.click;
    let first = true;
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      if (first && this.hasAttribute('download')) first = false;
      else click.call(this);
    };
  });
}

/** On the open Export screen: pool p in `format`, Export pressed; answers the downloads `export.write` gave, in order. */
export async function exportPoolP(page: Page, format: string): Promise<Array<{ id: string; name: string; expiresAt: number }>> {
  await page.getByTestId('export-pool').selectOption('p');
  await page.getByTestId('export-format').selectOption(format);
  await expect(page.getByTestId('export-files')).toBeVisible();
  const answer = page.waitForResponse((r) => r.url().endsWith('/api/invoke') && (r.request().postData() ?? '').includes('"export.write"'));
  await page.getByTestId('export-write').click();
  return ((await (await answer).json()) as { downloads: Array<{ id: string; name: string; expiresAt: number }> }).downloads;
}
