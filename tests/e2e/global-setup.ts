/**
 * Builds the renderer and starts serve mode on a fresh temporary workspace; the returned
 * function stops the server and deletes the workspace.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';

const root = path.resolve(import.meta.dirname, '../..');

export default async function globalSetup(config: FullConfig): Promise<() => Promise<void>> {
  const chromium = process.env.QPAIRS_CHROMIUM ?? '/usr/bin/chromium';
  if (!existsSync(chromium)) {
    throw new Error(`${chromium} is missing: install Debian's Chromium (apt-get install -y chromium) or set QPAIRS_CHROMIUM; do not run "npx playwright install"`);
  }
  const baseURL = String(config.projects[0]?.use.baseURL ?? 'http://127.0.0.1:47613');
  const port = new URL(baseURL).port;
  const dir = mkdtempSync(path.join(tmpdir(), 'qpairs-e2e-'));
  const workspace = path.join(dir, 'e2e.qpairs');
  process.env.QPAIRS_E2E_WORKSPACE = workspace;
  process.env.QPAIRS_E2E_TMP = dir;

  const node = path.join(root, 'node_modules', '.bin', 'node');
  const child = spawn(node, [path.join(root, 'scripts', 'serve.mjs'), workspace, '--create', '--build', '--port', port], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr.on('data', (d: Buffer) => (log += d.toString()));

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve mode did not start within 180 s:\n${log}`)), 180_000);
    const check = (): void => {
      if (/QPairs serving .* at http:\/\//.test(log)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve mode exited (${code}) before listening:\n${log}`));
    });
  });
  console.log(`[e2e] serve mode on ${baseURL}, workspace ${workspace} (pid ${child.pid})`);

  return async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    rmSync(dir, { recursive: true, force: true });
  };
}
