/**
 * Test fixture (not used by the app): `qpairs serve` in a real child process on a scratch workspace,
 * for the tests of what only a real process shows (signals, a tokens file read again). Each test
 * gets a fresh folder with an initialised workspace; a server still running after it is killed and
 * the folder removed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import { runCli } from '../cli/test-cli';
import { until } from './test-serve';

const qpairs = path.resolve(import.meta.dirname, '../../../bin/qpairs.mjs');

export interface ServedProcess {
  url: string;
  child: ChildProcess;
  /** Everything the server printed so far (standard output and error). */
  log: () => string;
}

export interface ServeProcessFixture {
  dir: () => string;
  workspace: () => string;
  /** Starts `qpairs serve W --port 0 …args`; resolves once it listens, rejects with its output if it ends first. */
  start: (args?: readonly string[]) => Promise<ServedProcess>;
}

/** Registers the hooks (a scratch folder and workspace before each test; the server killed and the folder removed after). */
export function useServeProcess(prefix: string): ServeProcessFixture {
  let dir = '';
  let children: ChildProcess[] = [];
  beforeEach(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), prefix));
    expect((await runCli('init', path.join(dir, 'w.qpairs'))).code).toBe(0);
  });
  afterEach(async () => {
    for (const c of children) {
      if (c.exitCode !== null || c.signalCode !== null) continue;
      const ended = new Promise((r) => c.once('exit', r));
      c.kill('SIGKILL');
      await ended;
    }
    children = [];
    rmSync(dir, { recursive: true, force: true });
  });
  const workspace = (): string => path.join(dir, 'w.qpairs');
  const start = async (args: readonly string[] = []): Promise<ServedProcess> => {
    const child = spawn(process.execPath, [qpairs, 'serve', workspace(), '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    let url = '';
    await until(
      'the server to listen',
      () => {
        url = /serving .* at (http:\/\/[^/\s]+)\//.exec(out)?.[1] ?? '';
        if (url === '' && child.exitCode !== null) throw new Error(`qpairs serve ended: ${out}`);
        return url !== '';
      },
      30_000,
    );
    return { url, child, log: () => out };
  };
  return { dir: () => dir, workspace, start };
}
