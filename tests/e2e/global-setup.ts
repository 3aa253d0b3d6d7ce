/**
 * Makes the browser ready (tests/e2e/browser.ts: unpacks @sparticuz/chromium when that is the
 * one found, or fails with the one error saying what was tried), builds the renderer and starts
 * serve mode on a fresh temporary workspace; the returned function stops the server and deletes
 * the workspace.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { prepareBrowser } from './browser';
import { startServe } from './serve';

export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  await prepareBrowser();
  const baseURL = String(config.projects[0]?.use.baseURL ?? 'http://127.0.0.1:47613');
  const port = new URL(baseURL).port;
  const dir = mkdtempSync(path.join(tmpdir(), 'qpairs-e2e-'));
  const workspace = path.join(dir, 'e2e.qpairs');
  process.env.QPAIRS_E2E_WORKSPACE = workspace;
  process.env.QPAIRS_E2E_TMP = dir;

  const server = await startServe({ workspace, port, build: true });
  console.log(`[e2e] serve mode on ${baseURL}, workspace ${workspace} (pid ${server.pid})`);

  return async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}
