/**
 * An undo of the last import whose process is gone (killed between two chunks): a CLI command that only reads leaves it
 * as it is and says what finishes it; a writing command finishes it only once it holds the workspace's lock, so that
 * none finishes it while serve mode, the app or another command writes to the workspace (before, every command's open
 * finished it before the lock was checked: `qpairs stats W` wrote to a workspace serve mode held).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { copyMidway } from '../import/test-helpers';
import { runImport } from '../engine/work';
import { acquireWorkspaceLock } from '../workspace/lock';
import { undoLastImport } from '../workspace/undo-last';
import { Workspace } from '../workspace/workspace';
import { runCli, useCliWorkspace } from './test-cli';

const s = useCliWorkspace('qpairs-cli-undo-left-');

/** `killed.qpairs`: w.qpairs with 200 questions, then 5,000 imported and their undo killed between two chunks (its process gone). */
async function killedUndo(): Promise<string> {
  const ws = Workspace.open(s.w);
  const lines = (n: number, p: string): string => Array.from({ length: n }, (_, i) => JSON.stringify({ id: `${p}${i}`, title: `title ${p} ${i}`, body: `body ${i}` })).join('\n') + '\n';
  await runImport(ws, 'questions-jsonl', [s.file('base.jsonl', lines(200, 'b'))]);
  await runImport(ws, 'questions-jsonl', [s.file('killed.jsonl', lines(5000, 'k'))]);
  const killed = path.join(s.dir, 'killed.qpairs');
  const kill = copyMidway(ws, killed, (done, total) => done > 0 && done < total, { abort: true });
  await undoLastImport(ws, { ...kill, chunkMs: 1 }).catch(() => undefined);
  ws.close();
  expect(kill.copied()).toBe(true);
  const raw = new Database(killed);
  raw.prepare(`UPDATE import_undo_progress SET marker = json_set(marker, '$.pid', ?) WHERE id = 1`).run(spawnSync(process.execPath, ['-e', '0']).pid!);
  raw.close();
  return killed;
}

/** How far the killed undo got (journal entries replayed), or null once it is finished. */
function undoneSoFar(file: string): number | null {
  const raw = new Database(file, { readonly: true });
  try {
    const v = raw.prepare(`SELECT marker FROM import_undo_progress WHERE id = 1`).pluck().get() as string | undefined;
    return v === undefined ? null : (JSON.parse(v) as { report: { undone: number } }).report.undone;
  } finally {
    raw.close();
  }
}

const questions = async (file: string): Promise<number> => JSON.parse((await runCli('stats', file, '--json')).out).questions as number;

describe('an undo whose process is gone, met by a CLI command', () => {
  it('a reading command leaves it, reads what is left of the import, and names the command that finishes it', async () => {
    const killed = await killedUndo();
    const before = undoneSoFar(killed);
    expect(before).toBeGreaterThan(0);
    const r = await runCli('stats', killed, '--json');
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(
      /^note: the questions-jsonl import of killed\.jsonl started \S+ is partly undone: its undo was interrupted \(its process is gone\) with [\d,]+ of [\d,]+ rows and journal entries done, and this command only reads, so it left it so: what is read here includes what is left of that import\. `qpairs import undo \S+killed\.qpairs` finishes it/,
    );
    expect(undoneSoFar(killed)).toBe(before);
    expect(JSON.parse(r.out).questions).toBeGreaterThan(200);
  });

  it('a writing command refused by the lock writes nothing; a reader meanwhile names the holder; once free, a writer finishes the undo', async () => {
    const killed = await killedUndo();
    const before = undoneSoFar(killed);
    const lock = acquireWorkspaceLock(killed, { command: 'qpairs serve killed.qpairs' });
    try {
      const add = await runCli('annotators', 'add', killed, 'bob');
      expect(add.code).toBe(1);
      expect(add.err).toMatch(/is being written by this process/);
      expect(undoneSoFar(killed)).toBe(before);
      const stats = await runCli('stats', killed);
      expect(stats.err).toMatch(/qpairs serve killed\.qpairs \(pid \d+ on host .*\) writes to the workspace now \(serve mode and the app finish such an undo in the background\); otherwise `qpairs import undo \S+` finishes it once that process has ended/);
      expect(undoneSoFar(killed)).toBe(before);
    } finally {
      lock.release();
    }
    const add = await runCli('annotators', 'add', killed, 'bob');
    expect(add.code, add.err).toBe(0);
    expect(add.err).toMatch(/^note: finished undoing the questions-jsonl import of killed\.jsonl started \S+, whose undo was interrupted \(its process is gone\): undid .*took out 5,000 questions/m);
    expect(undoneSoFar(killed)).toBeNull();
    expect(await questions(killed)).toBe(200);
  });

  it('import undo finishes it and reports it as its own', async () => {
    const killed = await killedUndo();
    const r = await runCli('import', 'undo', killed);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^undid the questions-jsonl import of killed\.jsonl started \S+: took out 5,000 questions/);
    expect(await questions(killed)).toBe(200);
  });
});
