/**
 * `qpairs serve` in a real process, stopped (SIGTERM) while an import runs: the import is cancelled
 * and rolled back before the server exits, as the desktop app does on quit, and the log says so. Before,
 * stopping waited 3 s for the job and closed the workspace under it, leaving the committed chunks for
 * the next open to roll back as a crash's ("an import was interrupted…").
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runCli } from '../cli/test-cli';
import { Workspace } from '../workspace/workspace';
import { undoableImport } from '../workspace/undo-last';
import { until } from './test-serve';

const root = path.resolve(import.meta.dirname, '../../..');
const qpairs = path.join(root, 'bin/qpairs.mjs');

let dir: string;
let w: string;
let child: ChildProcess | null = null;
beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-stop-jobs-'));
  w = path.join(dir, 'w.qpairs');
  expect((await runCli('init', w)).code).toBe(0);
});
afterEach(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    const ended = once(child, 'exit');
    child.kill('SIGKILL');
    await ended;
  }
  child = null;
  rmSync(dir, { recursive: true, force: true });
});

async function invoke(url: string, command: string, args: unknown): Promise<any> {
  const r = await fetch(`${url}/api/invoke`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-QPairs': '1' }, body: JSON.stringify({ command, args }) });
  return r.json();
}

it('SIGTERM during an import cancels it and rolls it back before exiting: nothing to undo, no interrupted import on the next open', async () => {
  // Long enough that the import is still running when the signal comes (600,000 questions take
  // several seconds to import on a 2-core machine; the signal follows the first committed chunk).
  const big = path.join(dir, 'big.jsonl');
  const lines: string[] = [];
  for (let i = 0; i < 600_000; i++) lines.push(JSON.stringify({ id: `b${i}`, title: `big question ${i} about laptops`, body: `body ${i} with words ${i % 977}` }));
  writeFileSync(big, lines.join('\n'));

  const c = spawn(process.execPath, [qpairs, 'serve', w, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  child = c;
  let log = '';
  c.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  c.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  let url = '';
  await until('the server to listen', () => {
    if (c.exitCode !== null) throw new Error(`qpairs serve ended: ${log}`);
    url = /serving .* at (http:\/\/[^/\s]+)\//.exec(log)?.[1] ?? '';
    return url !== '';
  }, 30_000);

  expect(await invoke(url, 'import.start', { format: 'questions-jsonl', sources: [{ path: big }] })).toHaveProperty('jobId');
  await until('a chunk of the import to be committed', async () => (await invoke(url, 'workspace.stats', {})).questions > 0, 60_000);
  const exited = once(c, 'exit') as Promise<[number | null, string | null]>;
  c.kill('SIGTERM');
  const [code] = await exited;

  const ws = Workspace.open(w);
  try {
    expect(ws.recoveredWrite).toBeNull();
    expect(ws.openNotices()).toEqual([]);
    expect(ws.stats().questions).toBe(0);
    expect(undoableImport(ws.db)).toBeNull();
  } finally {
    ws.close();
  }
  expect(code).toBe(0);
  expect(log).toContain('cancelling the running job…');
  expect(log).toContain('cancelled the running import of big.jsonl (questions-jsonl): what it had written is rolled back');
}, 120_000);
