/**
 * Makes the browser ready (tests/e2e/browser.ts: unpacks @sparticuz/chromium when that is the
 * one found, or fails with the one error saying what was tried), builds the renderer and starts
 * serve mode on a fresh temporary workspace; the returned function stops the server, deletes
 * the workspace and fails the run if any process the tests started is still alive.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { prepareBrowser } from './browser';
import { e2eRunMarker, startServe, survivingServers } from './serve';

export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  await prepareBrowser();
  const baseURL = String(config.projects[0]?.use.baseURL ?? 'http://127.0.0.1:27613');
  const port = new URL(baseURL).port;
  const dir = mkdtempSync(path.join(tmpdir(), 'qpairs-e2e-'));
  const workspace = path.join(dir, 'e2e.qpairs');
  process.env.QPAIRS_E2E_WORKSPACE = workspace;
  process.env.QPAIRS_E2E_TMP = dir;
  e2eRunMarker(); // set once here, so every worker's servers carry the same marker

  const server = await startServe({ workspace, port, build: true });
  console.log(`[e2e] serve mode on ${baseURL}, workspace ${workspace} (pid ${server.pid})`);

  return async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
    // No test may leave a server behind, whatever its outcome: any process of this run still
    // alive now escaped its spec's teardown and its worker's exit hook. Kill it and fail the run.
    const left = survivingServers();
    if (left.length) {
      for (const pid of left) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // gone meanwhile
        }
      }
      throw new Error(`${left.length} process(es) started by the end-to-end tests outlived them (pids ${left.join(', ')}); killed now`);
    }
  };
}
