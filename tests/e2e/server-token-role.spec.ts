/**
 * Team access, a person the server signs in with a token of its own (--token or a --tokens-file
 * line, listed as "server token") whom the workspace does not know yet: choosing their role and
 * pressing Save keeps it (before: an error, "no annotator named …"), and it is theirs at their next
 * request.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startServe, type ServeProcess } from './serve';
import { invoke } from './api';

const PORT = Number(process.env.QPAIRS_E2E_PORT ?? 27613) + 34;
const FRED = 'fred-secret-000000001';

let dir: string;
let server: ServeProcess | null = null;
let ownerLink = '';

test.beforeAll(async ({ playwright }) => {
  dir = mkdtempSync(path.join(tmpdir(), 'qpairs-e2e-server-token-'));
  const workspace = path.join(dir, 'w.qpairs');
  // As the local owner (loopback, no tokens): the owner's own invitation. Then served with fred's server token.
  const setup = await startServe({ workspace, port: PORT });
  const request = await playwright.request.newContext({ baseURL: setup.url });
  try {
    const inv = await invoke<{ token: string }>(request, 'annotator.invite', { name: 'olga', role: 'owner' });
    ownerLink = `/?token=${encodeURIComponent(inv.token)}#pools`;
  } finally {
    await request.dispose();
    await setup.stop();
  }
  server = await startServe({ workspace, port: PORT, tokens: [`fred=${FRED}`] });
});

test.afterAll(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("a server-token person's role is chosen with the keyboard, saved, and applies to their next request", async ({ page, request }) => {
  await page.goto(`${server!.url}${ownerLink}`);
  const panel = page.getByTestId('access-panel');
  await expect(panel.getByTestId('access-state-fred')).toContainText('server token');
  const select = panel.getByTestId('access-role-fred');
  await expect(select).toHaveValue('annotator');
  const asFred = async (command: string): Promise<number> =>
    (await request.post(`${server!.url}/api/invoke`, { headers: { 'X-QPairs': '1', Authorization: `Bearer ${FRED}` }, data: { command, args: {} } })).status();
  expect(await asFred('annotator.team')).toBe(403);

  await select.focus();
  await select.selectOption('owner');
  await panel.getByTestId('access-role-fred-save').focus();
  await page.keyboard.press('Enter');
  await expect(panel.getByTestId('access-role-fred-save')).toHaveCount(0);
  await expect(panel.getByTestId('access-error')).toHaveCount(0);
  await expect(select).toHaveValue('owner');
  await expect(panel.getByTestId('access-state-fred')).toContainText('server token');
  // Kept in the workspace: a reload shows it, and fred is an owner from his next request.
  await page.goto(`${server!.url}/#pools`);
  await expect(page.getByTestId('access-role-fred')).toHaveValue('owner');
  expect(await asFred('annotator.team')).toBe(200);
});
