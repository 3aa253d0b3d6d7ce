/**
 * Opening another workspace in the desktop app (desktop-workspace.ts) without Electron: a refused
 * target leaves the open workspace open, unchanged and locked; a running job refuses the switch,
 * naming it; a switch lets the old workspace go (engine closed, lock released) and remembers the new.
 */
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CancelledError } from './errors';
import { DesktopWorkspace, newWorkspacePath, runningJobText } from './desktop-workspace';
import { acquireWorkspaceLock, readLock } from './workspace/lock';
import { Workspace } from './workspace/workspace';
import { recentWorkspaces } from './engine/recent-workspace';
import { SEED_QUESTIONS, workspaceWithKilledUndo } from './engine/test-undo';
import { importTuning, runImport } from './engine/work';
import { committedQuestions, copyMidway, pastHalfCommitted } from './import/test-helpers';

let dir = '';
let config = '';
let desktop: DesktopWorkspace;
const ws = (name: string): string => {
  const f = path.join(dir, name);
  Workspace.create(f).close();
  return f;
};

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'qpairs-desktop-ws-'));
  config = path.join(dir, 'config');
  desktop = new DesktopWorkspace({ configDir: config, version: '0.0.0' });
});
afterEach(() => {
  desktop.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Expects `switchTo` refused with `message`, the first workspace still open, locked by this app, and its engine answering. */
async function expectRefusedKeepingA(a: string, target: string, message: RegExp, o: { create?: boolean } = {}): Promise<void> {
  const engine = desktop.engine;
  await expect(desktop.switchTo(target, o)).rejects.toThrow(message);
  expect(desktop.file).toBe(a);
  expect(desktop.engine).toBe(engine);
  expect(readLock(a)?.command).toBe(`QPairs desktop app (${a})`);
  await expect(desktop.engine.invoke('pool.list', {}, { annotator: null })).resolves.toEqual([]);
}

describe('opening another workspace from the desktop app', () => {
  it('lets the old one go (engine closed, lock released), locks the new one and remembers it first', async () => {
    const a = ws('a.qpairs');
    const b = ws('b.qpairs');
    await desktop.start({ workspace: a, reason: 'given' });
    const old = desktop.engine;
    const opened: unknown[] = [];
    desktop.onOpened((e) => opened.push(e));
    await desktop.switchTo(b);
    expect(desktop.file).toBe(b);
    expect(opened).toEqual([desktop.engine]);
    expect(existsSync(`${a}.lock`)).toBe(false);
    expect(readLock(b)?.command).toBe(`QPairs desktop app (${b})`);
    expect(() => old.ws.db.prepare('select 1').get()).toThrow(/not open/);
    expect(recentWorkspaces(config)).toEqual([b, a]);
    expect(JSON.parse(readFileSync(path.join(config, 'recent.json'), 'utf8')).lastWorkspace).toBe(b);
  });

  it('a refused target keeps the open one: newer QPairs, not a workspace, held by another writer, gone, the same one', async () => {
    const a = ws('a.qpairs');
    await desktop.start({ workspace: a, reason: 'given' });
    const newer = ws('newer.qpairs');
    const d = new Database(newer);
    d.pragma('user_version = 999');
    d.close();
    const before = readFileSync(newer);
    await expectRefusedKeepingA(a, newer, /written by a newer QPairs/);
    expect(readFileSync(newer).equals(before)).toBe(true);
    expect(existsSync(`${newer}.lock`)).toBe(false);
    const text = path.join(dir, 'notes.qpairs');
    writeFileSync(text, 'not a database at all, just some text that is long enough to be read as a header\n'.repeat(20));
    await expectRefusedKeepingA(a, text, /not a QPairs workspace|not a workspace|file is not a database/i);
    const held = ws('held.qpairs');
    const other = acquireWorkspaceLock(held, { command: 'qpairs import held.qpairs' });
    try {
      await expectRefusedKeepingA(a, held, /is being written by .*qpairs import held\.qpairs/s);
    } finally {
      other.release();
    }
    await expectRefusedKeepingA(a, path.join(dir, 'gone.qpairs'), /is no longer there \(moved, renamed or deleted\)/);
    await expectRefusedKeepingA(a, a, /is the workspace open now/);
    expect(recentWorkspaces(config)).toEqual([a]);
  });

  it('an import a kill interrupted is rolled back only once the app holds the lock: refused by another writer, the target keeps its rows (before, the open rolled it back first)', async () => {
    const a = ws('a.qpairs');
    await desktop.start({ workspace: a, reason: 'given' });
    const src = Workspace.create(path.join(dir, 'src.qpairs'));
    const file = path.join(dir, 'long.jsonl');
    writeFileSync(file, Array.from({ length: 3000 }, (_, i) => JSON.stringify({ id: `q${i}`, title: `title ${i}`, body: `body ${i}` })).join('\n') + '\n');
    const killed = path.join(dir, 'killed.qpairs');
    importTuning.chunkMs = 0;
    const mid = copyMidway(src, killed, pastHalfCommitted(src.path));
    try {
      await runImport(src, 'questions-jsonl', [file], mid);
    } finally {
      importTuning.chunkMs = undefined;
      src.close();
    }
    expect(mid.copied()).toBe(true);
    const raw = new Database(killed);
    raw.prepare(`UPDATE import_journal SET pid = ?`).run(spawnSync(process.execPath, ['-e', '0']).pid!);
    raw.close();
    const questions = (): number => committedQuestions(killed);
    const left = questions();
    expect(left).toBeGreaterThan(0);
    const other = acquireWorkspaceLock(killed, { command: 'qpairs import killed.qpairs' });
    try {
      await expectRefusedKeepingA(a, killed, /is being written by .*qpairs import killed\.qpairs/s);
      expect(questions()).toBe(left);
    } finally {
      other.release();
    }
    await desktop.switchTo(killed);
    expect(questions()).toBe(0);
    expect(desktop.engine.ws.openNotices().map((n) => n.kind)).toContain('import-undone');
  });

  it('refuses while a job runs, naming it; opens once it ended', async () => {
    const a = ws('a.qpairs');
    const b = ws('b.qpairs');
    await desktop.start({ workspace: a, reason: 'given' });
    let finish = (): void => {};
    const started = new Promise<void>((running) => {
      desktop.engine.jobs.start('import', () => new Promise<void>((r) => ((finish = r), running())), { import: { files: ['/data/big.jsonl'], format: 'questions-jsonl', startedBy: null, started: new Date().toISOString() } });
    });
    expect(desktop.busyReason()).toBe(
      'A job is running in this workspace (the import of big.jsonl (questions-jsonl)): cancel it or let it end, then open the other workspace. Nothing was changed.',
    );
    await expectRefusedKeepingA(a, b, /A job is running in this workspace \(the import of big\.jsonl/);
    /** A training that runs until it is cancelled (maybe before it began). */
    const untilCancelled = ({ signal }: { signal: AbortSignal }): Promise<void> =>
      new Promise<void>((_, reject) => {
        const stop = (): void => reject(new CancelledError());
        if (signal.aborted) stop();
        else signal.addEventListener('abort', stop);
      });
    const second = desktop.engine.jobs.start('train', untilCancelled, { pool: 'dev' });
    expect(desktop.busyReason()).toBe(
      '2 jobs are running in this workspace (the import of big.jsonl (questions-jsonl), the model training on pool dev): cancel them or let them end, then open the other workspace. Nothing was changed.',
    );
    desktop.engine.jobs.cancel(second);
    expect(runningJobText({ kind: 'live', pool: 'p' })).toBe('the learn-as-we-label retraining on pool p');
    expect(runningJobText({ kind: 'train', pool: 'dev' })).toBe('the model training on pool dev');
    await started;
    finish();
    await desktop.engine.jobs.idle();
    expect(desktop.busyReason()).toBeNull();
    await desktop.switchTo(b);
    expect(desktop.file).toBe(b);
  });

  it('a learn-as-we-label retraining or an export preview does not hold a switch up: cancelled and ended before the old engine closes', async () => {
    const a = ws('a.qpairs');
    const b = ws('b.qpairs');
    await desktop.start({ workspace: a, reason: 'given' });
    const old = desktop.engine;
    const ended: string[] = [];
    const untilCancelled =
      (name: string) =>
      ({ signal }: { signal: AbortSignal }): Promise<void> =>
        new Promise<void>((_, reject) => {
          const stop = (): void => {
            // Still open while its jobs end: the old engine answers until they have.
            ended.push(`${name}:${old.ws.db.open ? 'open' : 'closed'}`);
            reject(new CancelledError());
          };
          if (signal.aborted) stop();
          else signal.addEventListener('abort', stop);
        });
    old.jobs.start('live', untilCancelled('live'), { pool: 'p' });
    old.jobs.start('preview', untilCancelled('preview'), { pool: 'p' });
    expect(desktop.busyReason()).toBeNull();
    await desktop.switchTo(b);
    expect(desktop.file).toBe(b);
    expect(ended.sort()).toEqual(['live:open', 'preview:open']);
    expect(old.jobs.runningJobs()).toEqual([]);
    expect(old.ws.db.open).toBe(false);
  });

  it('a new workspace: made empty and opened; an existing file is refused as qpairs init refuses it', async () => {
    const a = ws('a.qpairs');
    await desktop.start({ workspace: a, reason: 'given' });
    await expectRefusedKeepingA(a, a, /already exists; not overwriting it/, { create: true });
    const fresh = newWorkspacePath(path.join(dir, 'fresh'));
    expect(fresh).toBe(path.join(dir, 'fresh.qpairs'));
    await desktop.switchTo(fresh, { create: true });
    expect(desktop.file).toBe(fresh);
    await expect(desktop.engine.invoke('pool.list', {}, { annotator: null })).resolves.toEqual([]);
    await expectRefusedKeepingA(fresh, path.join(dir, 'no such folder', 'x.qpairs'), /does not exist/, { create: true });
  });

  it('a workspace whose undo a kill stopped partway opens at once, the undo finished by a background job of the locked engine', async () => {
    const { file } = await workspaceWithKilledUndo(dir, 'killed.qpairs');
    try {
      await desktop.start({ workspace: file, reason: 'given' });
      // Open (and locked) before the undo is finished: it runs as the engine's job (before, the open finished it there and then).
      expect(readLock(file)?.command).toBe(`QPairs desktop app (${file})`);
      expect(desktop.engine.ws.questionCount()).toBeGreaterThan(SEED_QUESTIONS);
      expect(desktop.engine.jobs.runningJobs().map((j) => j.kind)).toEqual(['undo']);
      await desktop.engine.jobs.idle();
      expect(desktop.engine.ws.questionCount()).toBe(SEED_QUESTIONS);
      expect(desktop.engine.ws.finishedUndo).toMatchObject({ what: 'questions-jsonl import of wrong.jsonl', rowsChanged: { questions: -20_000 } });
    } finally {
      importTuning.chunkMs = undefined;
    }
  });
});
