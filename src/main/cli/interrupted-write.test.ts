/**
 * What a reader is told about a long write that is not over: an import killed mid-way is undone
 * at the next open for writing — which says so — and an import still running in another process
 * is named by a reading command whose figures include its rows so far.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { importTuning, runImport } from '../engine/work';
import { committedQuestions, copyMidway, pastHalfCommitted } from '../import/test-helpers';
import { serveWorkspace } from '../serve/cli-serve';
import { acquireWorkspaceLock } from '../workspace/lock';
import { Workspace } from '../workspace/workspace';
import { runCli } from './test-cli';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-cli-interrupted-'));
});
afterEach(() => {
  importTuning.chunkMs = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** A copy of a workspace taken while an import of 6,000 questions had committed some chunks (as a kill would leave it). */
async function midImportCopy(): Promise<string> {
  const ws = Workspace.create(path.join(dir, 'w.qpairs'));
  const file = path.join(dir, 'long.jsonl');
  writeFileSync(file, Array.from({ length: 6000 }, (_, i) => JSON.stringify({ id: `q${i}`, title: `title ${i}`, body: `body ${i}` })).join('\n') + '\n');
  const copy = path.join(dir, 'killed.qpairs');
  importTuning.chunkMs = 0;
  const mid = copyMidway(ws, copy, pastHalfCommitted(ws.path));
  await runImport(ws, 'questions-jsonl', [file], mid);
  ws.close();
  expect(mid.copied()).toBe(true);
  return copy;
}

function setJournalPid(file: string, pid: number): void {
  const raw = new Database(file);
  raw.prepare(`UPDATE import_journal SET pid = ?`).run(pid);
  raw.close();
}

const questionsIn = async (file: string): Promise<number> => JSON.parse((await runCli('stats', file, '--json')).out).questions as number;

describe('a long write that is not over', () => {
  it('killed: the next command undoes it and says so', async () => {
    const copy = await midImportCopy();
    setJournalPid(copy, spawnSync(process.execPath, ['-e', '0']).pid!); // the process is gone
    const r = await runCli('stats', copy);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/note: undid the questions-jsonl import of long\.jsonl started \S+, which was interrupted \(its process is gone\)/);
    expect(r.out).toMatch(/questions\s+0\b/);
    expect((await runCli('stats', copy)).err).toBe('');
  });

  it('killed: serve mode undoes it at start and says so in its log (it said nothing: the import was just gone)', async () => {
    const copy = await midImportCopy();
    setJournalPid(copy, spawnSync(process.execPath, ['-e', '0']).pid!);
    const lines: string[] = [];
    let stop!: () => void;
    let listening = false;
    const done = serveWorkspace({
      workspace: copy,
      port: 0,
      host: '127.0.0.1',
      staticDir: dir,
      log: (l) => lines.push(l),
      until: new Promise<void>((r) => (stop = r)),
      onListening: () => (listening = true),
    });
    while (!listening) await new Promise((r) => setTimeout(r, 20));
    stop();
    expect(await done).toBe(0);
    expect(lines.join('\n')).toMatch(/note: undid the questions-jsonl import of long\.jsonl started \S+, which was interrupted \(its process is gone\): the workspace is as it was before it/);
    expect(await questionsIn(copy)).toBe(0);
  });

  it('killed, while another process holds the lock: nothing rolls it back but that process — a reader leaves it and names the holder, a writer and serve mode are refused and write nothing (before, each open rolled it back before the lock was checked)', async () => {
    const copy = await midImportCopy();
    setJournalPid(copy, spawnSync(process.execPath, ['-e', '0']).pid!);
    const left = committedQuestions(copy);
    expect(left).toBeGreaterThan(0);
    const lock = acquireWorkspaceLock(copy, { command: 'qpairs serve killed.qpairs' });
    try {
      const r = await runCli('stats', copy, '--json');
      expect(r.code, r.err).toBe(0);
      expect(r.err).toMatch(
        /^note: the questions-jsonl import of long\.jsonl started \S+ was interrupted \(its process \d+ is gone\) and its rows so far are still in the workspace: what is read here includes them\. This command only reads, and rolls such an import back only while it can hold the workspace's lock, so it left them: qpairs serve killed\.qpairs \(pid \d+ on host \S+, since \S+\) writes to the workspace now, and it undoes them/m,
      );
      expect(JSON.parse(r.out).questions).toBe(left);
      expect((await runCli('annotators', 'add', copy, 'bob')).code).toBe(1);
      expect(committedQuestions(copy)).toBe(left);
      await expect(serveWorkspace({ workspace: copy, port: 0, host: '127.0.0.1', staticDir: dir, log: () => {}, until: Promise.resolve() })).rejects.toThrow(/being written by this process/);
      expect(committedQuestions(copy)).toBe(left);
    } finally {
      lock.release();
    }
    // The lock free: a reader takes it for the moment it rolls the import back, and says so.
    const r = await runCli('stats', copy);
    expect(r.err).toMatch(/^note: undid the questions-jsonl import of long\.jsonl started \S+, which was interrupted \(its process is gone\)/);
    expect(committedQuestions(copy)).toBe(0);
  });

  it.runIf(existsSync('/proc/1'))('still running in another process: a reader names it and shows its rows so far', async () => {
    const copy = await midImportCopy();
    setJournalPid(copy, 1); // a live process that is not this one
    const r = await runCli('stats', copy);
    expect(r.err).toMatch(/note: a questions-jsonl import of long\.jsonl is running in another process \(pid 1 on \S+, since \S+\): what it has written so far is included here/);
    expect(await questionsIn(copy)).toBeGreaterThan(0);
  });

  it.runIf(existsSync('/proc/1'))('still running in another process: import undo says an import runs (it said there was no import to undo), and undoes nothing', async () => {
    const copy = await midImportCopy();
    setJournalPid(copy, 1);
    const before = await questionsIn(copy);
    const r = await runCli('import', 'undo', copy);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      /^qpairs import undo: an import is running \(questions-jsonl import of long\.jsonl, started \S+ in process 1 on host \S+\): wait for it to finish or cancel it, then undo$/m,
    );
    expect(r.err).not.toContain('there is no import to undo');
    expect(await questionsIn(copy)).toBe(before);
  });
});
