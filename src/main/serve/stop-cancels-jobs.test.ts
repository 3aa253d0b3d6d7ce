/**
 * `qpairs serve` in a real process, stopped (SIGTERM) while an import runs: the import is cancelled
 * and rolled back before the server exits, as the desktop app does on quit, and the log says so. Before,
 * stopping waited 3 s for the job and closed the workspace under it, leaving the committed chunks for
 * the next open to roll back as a crash's ("an import was interrupted…").
 */
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { Workspace } from '../workspace/workspace';
import { undoableImport } from '../workspace/undo-last';
import { until } from './test-serve';
import { useServeProcess } from './test-serve-process';

const served = useServeProcess('qpairs-stop-jobs-');

async function invoke(url: string, command: string, args: unknown): Promise<any> {
  const r = await fetch(`${url}/api/invoke`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-QPairs': '1' }, body: JSON.stringify({ command, args }) });
  return r.json();
}

it('SIGTERM during an import cancels it and rolls it back before exiting: nothing to undo, no interrupted import on the next open', async () => {
  // Long enough that the import is still running when the signal comes (600,000 questions take
  // several seconds to import on a 2-core machine; the signal follows the first committed chunk).
  const big = path.join(served.dir(), 'big.jsonl');
  const lines: string[] = [];
  for (let i = 0; i < 600_000; i++) lines.push(JSON.stringify({ id: `b${i}`, title: `big question ${i} about laptops`, body: `body ${i} with words ${i % 977}` }));
  writeFileSync(big, lines.join('\n'));

  const { url, child: c, log: output } = await served.start();

  expect(await invoke(url, 'import.start', { format: 'questions-jsonl', sources: [{ path: big }] })).toHaveProperty('jobId');
  await until('a chunk of the import to be committed', async () => (await invoke(url, 'workspace.stats', {})).questions > 0, 60_000);
  const exited = once(c, 'exit') as Promise<[number | null, string | null]>;
  c.kill('SIGTERM');
  const [code] = await exited;

  const ws = Workspace.open(served.workspace());
  try {
    expect(ws.recoveredWrite).toBeNull();
    expect(ws.openNotices()).toEqual([]);
    expect(ws.stats().questions).toBe(0);
    expect(undoableImport(ws.db)).toBeNull();
  } finally {
    ws.close();
  }
  expect(code).toBe(0);
  const log = output();
  expect(log).toContain('cancelling the running job…');
  expect(log).toContain('cancelled the running import of big.jsonl (questions-jsonl): what it had written is rolled back');
}, 120_000);

it('SIGTERM during an undo stops it between chunks and says so; the next open finishes it', async () => {
  const big = path.join(served.dir(), 'big.jsonl');
  const lines: string[] = [];
  for (let i = 0; i < 150_000; i++) lines.push(JSON.stringify({ id: `b${i}`, title: `big question ${i} about laptops`, body: `body ${i} with words ${i % 977}` }));
  writeFileSync(big, lines.join('\n'));
  const { url, child: c, log: output } = await served.start();
  const { jobId } = (await invoke(url, 'import.start', { format: 'questions-jsonl', sources: [{ path: big }] })) as { jobId: string };
  await until('the import to finish', async () => !(await invoke(url, 'job.status', { jobId })).running, 60_000);
  expect(await invoke(url, 'import.undo', {})).toHaveProperty('jobId');
  // Once a chunk of the undo has committed (its marker says how far it got).
  const undone = (): number => {
    const db = new Database(served.workspace(), { readonly: true, fileMustExist: true });
    try {
      const v = db.prepare(`SELECT marker FROM import_undo_progress WHERE id = 1`).pluck().get() as string | undefined;
      return v === undefined ? 0 : (JSON.parse(v) as { report: { undone: number } }).report.undone;
    } finally {
      db.close();
    }
  };
  await until('a chunk of the undo to be committed', async () => undone() > 0, 60_000);
  const exited = once(c, 'exit') as Promise<[number | null, string | null]>;
  c.kill('SIGTERM');
  const [code] = await exited;
  expect(code).toBe(0);
  expect(output()).toContain(
    'cancelled the running undo: the import it was undoing is partly undone; the next start (or command that opens the workspace for writing) finishes the undo',
  );
  const ws = Workspace.open(served.workspace());
  try {
    expect(ws.finishedUndo).toMatchObject({ what: 'questions-jsonl import of big.jsonl', rowsChanged: { questions: -150_000 } });
    expect(ws.stats().questions).toBe(0);
    expect(undoableImport(ws.db)).toBeNull();
  } finally {
    ws.close();
  }
}, 120_000);
