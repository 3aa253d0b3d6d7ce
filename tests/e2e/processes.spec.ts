/**
 * No test leaves a process behind (tests/e2e/serve.ts): a server that does not start in time is
 * killed before the error reaches the test, and the exit hook's kill reaches a server nobody
 * stopped. The global teardown then fails the run if any server of it is still alive.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { killAllServers, startServe, survivingServers } from './serve';
import { e2ePort } from './served-workspace';

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

let dir = '';
test.beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'qpairs-e2e-procs-'));
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('a server that does not come up in time is killed before startServe throws', async () => {
  const before = new Set(survivingServers());
  await expect(startServe({ workspace: path.join(dir, 'slow.qpairs'), port: e2ePort(44), timeoutMs: 200 })).rejects.toThrow(/did not start within/);
  // Nothing new of this run is alive: the child was killed and reaped before the rejection.
  expect(survivingServers().filter((p) => !before.has(p))).toEqual([]);
});

test('a server nobody stopped dies with the exit hook (killAllServers)', async () => {
  const s = await startServe({ workspace: path.join(dir, 'forgotten.qpairs'), port: e2ePort(45) });
  expect(s.pid).toBeDefined();
  expect(survivingServers()).toContain(s.pid);
  expect(killAllServers()).toContain(s.pid);
  await expect.poll(() => alive(s.pid!), { timeout: 10_000 }).toBe(false);
  expect(survivingServers()).not.toContain(s.pid);
  await s.stop(); // already gone: returns at once
});
