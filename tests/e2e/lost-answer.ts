/**
 * A command's answer lost on its way back (the netdrop specs): the first request to /api/invoke that
 * `matches` reaches the server, which carries it out (saves the label, the undo, the ruling), and
 * the page then sees the connection reset. Every other request goes through. `lost()` counts the
 * answers lost so far (0 or 1); `restore()` takes the route away.
 */
import type { Page } from '@playwright/test';

/** What the page sent to /api/invoke. */
export interface InvokeBody {
  command?: string;
  args?: { candidateId?: string; ifLatest?: number };
}

export async function loseOneAnswer(page: Page, matches: (body: InvokeBody) => boolean): Promise<{ lost: () => number; restore: () => Promise<void> }> {
  let lost = 0;
  await page.route('**/api/invoke', async (route) => {
    const body = route.request().postDataJSON() as InvokeBody | null;
    if (body && lost === 0 && matches(body)) {
      lost++;
      await route.fetch();
      await route.abort('connectionreset');
      return;
    }
    await route.continue().catch(() => {});
  });
  return { lost: () => lost, restore: () => page.unroute('**/api/invoke') };
}
