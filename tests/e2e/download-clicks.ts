/** What the export-download specs do to the page's download links. */
import type { Page } from '@playwright/test';

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
