/**
 * Opening a workspace again in a process that already holds it (serve mode: each import opens a
 * second connection, each training or computation a worker's) must not drop the process's SQLite
 * locks. The checks before the open read the file's first bytes with a descriptor of their own,
 * and closing a descriptor drops every POSIX lock the process holds on the file: then any other
 * program reading the workspace (sqlite3, a backup script) took itself for its last user when it
 * closed and deleted the -wal and -shm files the server was still writing to. The server went on
 * in deleted files, and the workspace came out damaged ("database disk image is malformed").
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runImport } from '../engine/work';
import { Workspace } from './workspace';

const root = path.resolve(import.meta.dirname, '../../..');
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-open-locks-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Another program reading the workspace and closing it: the sqlite3 shell where installed (it deleted the -wal), else better-sqlite3 in a child process. */
const sqlite3Shell = spawnSync('sqlite3', ['-version']).status === 0;
function readElsewhere(file: string): number {
  const sql = 'SELECT count(*) AS n FROM questions';
  const r = sqlite3Shell
    ? spawnSync('sqlite3', [file, sql], { encoding: 'utf8' })
    : spawnSync(process.execPath, ['-e', `const D = require('better-sqlite3'); const d = new D(${JSON.stringify(file)}); console.log(d.prepare(${JSON.stringify(sql)}).get().n); d.close();`], { cwd: root, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return Number(r.stdout.trim());
}

/** This process's POSIX locks on the file, as Linux lists them (/proc/locks): the SHARED lock SQLite holds on a WAL database while a connection is open. */
function ownLocks(file: string): string[] {
  const ino = statSync(file).ino;
  return readFileSync('/proc/locks', 'utf8')
    .split('\n')
    .filter((l) => l.includes(` ${process.pid} `) && new RegExp(`:${ino} `).test(l))
    .map((l) => l.replace(/^\d+:\s*/, '')); // the line's number in /proc/locks moves with other processes' locks
}
const procLocks = existsSync('/proc/locks');

const lines = (prefix: string, n: number): string =>
  Array.from({ length: n }, (_, i) => JSON.stringify({ id: `${prefix}${i}`, title: `title ${prefix} ${i}`, body: `body ${i}` })).join('\n') + '\n';

it('a second open in the same process keeps its locks: another reader leaves the -wal, and the workspace stays whole', async () => {
  const file = path.join(dir, 'w.qpairs');
  const held = Workspace.create(file); // the server's connection
  const a = path.join(dir, 'a.jsonl');
  writeFileSync(a, lines('a', 50));
  await runImport(held, 'questions-jsonl', [a]);
  const locksBefore = procLocks ? ownLocks(file) : [];
  if (procLocks) expect(locksBefore.length).toBeGreaterThan(0);

  // An import in serve mode: a second connection of the same process, opened, written and closed.
  const second = Workspace.open(file);
  const c = path.join(dir, 'c.jsonl');
  writeFileSync(c, lines('c', 10));
  await runImport(second, 'questions-jsonl', [c]);
  second.close();
  if (procLocks) expect(ownLocks(file)).toEqual(locksBefore);
  expect(existsSync(`${file}-wal`)).toBe(true);

  expect(readElsewhere(file)).toBe(60);
  // The reader saw other connections and left SQLite's files alone.
  expect(existsSync(`${file}-wal`)).toBe(true);
  expect(existsSync(`${file}-shm`)).toBe(true);

  // The server goes on writing; all of it is there, and the file is sound, once it closes.
  const b = path.join(dir, 'b.jsonl');
  writeFileSync(b, lines('b', 50));
  await runImport(held, 'questions-jsonl', [b]);
  expect(readElsewhere(file)).toBe(110);
  held.close();
  const again = Workspace.open(file);
  expect(again.db.pragma('integrity_check', { simple: true })).toBe('ok');
  expect(again.stats()).toMatchObject({ questions: 110 });
  again.close();
});
