/**
 * Serve mode never offers to open another workspace (the desktop app's workspace menu): a remote
 * client never names a path on the server's machine. The menu is not shown to the owner in a
 * browser, and the shell commands behind it are unknown to the server.
 */
import { expect, test } from '@playwright/test';
import { useServedSmallPool } from './small-pool';

test.describe.configure({ mode: 'serial' });

const served = useServedSmallPool('served-no-workspace-menu', 110, () => []);

test('the owner in a browser: no workspace menu, and the server refuses the shell commands as unknown', async () => {
  const { page, port } = served;
  await page.goto('/#workspace');
  await expect(page.getByTestId('workspace-name')).toHaveText('w.qpairs');
  await expect(page.getByTestId('header-role')).toHaveText('owner');
  await expect(page.getByTestId('workspace-menu')).toHaveCount(0);
  for (const command of ['shell.openWorkspace', 'shell.newWorkspace', 'shell.recentWorkspaces', 'dialog.openFiles']) {
    const r = await page.request.post(`http://127.0.0.1:${port}/api/invoke`, { headers: { 'X-QPairs': '1' }, data: { command, args: { path: '/etc/passwd' } } });
    expect(r.status(), command).toBe(400);
    expect(await r.text(), command).toContain(`unknown command`);
  }
});
