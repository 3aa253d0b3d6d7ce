/**
 * axe-core checks shared by the e2e specs: visit each tab and list every serious or critical
 * accessibility violation, and any of the few lesser ones we hold to as well, as one readable
 * line (empty = none).
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/** Moderate rules kept too: a screen reader's heading navigation starts at the page's level-one heading. */
const ALSO_REQUIRED: ReadonlySet<string> = new Set(['page-has-heading-one']);

export async function seriousViolationsOnTabs(page: Page, tabs: readonly string[], settleMs = 300): Promise<string[]> {
  const found: string[] = [];
  for (const t of tabs) {
    await page.getByTestId(`tab-${t}`).click();
    await expect(page.getByTestId(`tab-${t}`)).toHaveAttribute('aria-selected', 'true');
    await page.waitForTimeout(settleMs);
    const r = await new AxeBuilder({ page }).analyze();
    for (const v of r.violations) {
      if (v.impact !== 'serious' && v.impact !== 'critical' && !ALSO_REQUIRED.has(v.id)) continue;
      found.push(`${t}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 4).join(' | ')}`);
    }
  }
  if (found.length) console.log(found.join('\n'));
  return found;
}
