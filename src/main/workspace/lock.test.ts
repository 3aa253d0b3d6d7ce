/**
 * The workspace lock (one writer process per workspace): O_EXCL creation, the holder named in a
 * refusal, stale locks taken over, and — with real processes — serve mode holding it for its
 * lifetime while a CLI writer is refused and a reader is not.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, chownSync, existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../cli/index';
import { acquireWorkspaceLock, inodeLockFileOf, lockFileOf, pidAlive, readLock, WorkspaceHardLinkedError, WorkspaceLockedError } from './lock';
import { Workspace } from './workspace';

const root = path.resolve(import.meta.dirname, '../../..');
const qpairs = path.join(root, 'bin/qpairs.mjs');

let dir: string;
let w: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-lock-'));
  w = path.join(dir, 'w.qpairs');
  Workspace.create(w).close();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it('pidAlive: this process is alive; an exited child, 0, negative and non-integer pids are not (kill(2) would signal a group for 0 and below)', () => {
  expect(pidAlive(process.pid)).toBe(true);
  expect(pidAlive(deadPid())).toBe(false);
  for (const pid of [0, -1, -process.pid, 1.5, Number.NaN]) expect(pidAlive(pid), String(pid)).toBe(false);
});

/** A pid that surely does not run any more: a child that has exited. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', '0']);
  expect(pidAlive(r.pid!)).toBe(false);
  return r.pid!;
}

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { log: (s) => (out += s + '\n'), err: (s) => (err += s + '\n') });
  return { code, out, err };
}

describe('workspace lock (one process)', () => {
  it('is a file beside the workspace naming its holder, created exclusively, removed on release', () => {
    const lock = acquireWorkspaceLock(w, { command: 'qpairs import w.qpairs --format qrels x' });
    expect(lock.file).toBe(`${w}.lock`);
    const content = JSON.parse(readFileSync(lock.file, 'utf8'));
    expect(content).toMatchObject({ pid: process.pid, hostname: os.hostname(), command: 'qpairs import w.qpairs --format qrels x' });
    expect(Date.parse(content.since)).toBeGreaterThan(Date.now() - 60_000);
    expect(readLock(w)).toMatchObject({ pid: process.pid, command: 'qpairs import w.qpairs --format qrels x' });
    // A second writer — even in this process — is refused, naming the holder.
    const e = (() => {
      try {
        acquireWorkspaceLock(w);
        return null;
      } catch (x) {
        return x;
      }
    })();
    expect(e).toBeInstanceOf(WorkspaceLockedError);
    expect((e as Error).message).toMatch(/is being written by this process/);
    expect((e as Error).message).toContain(`qpairs import w.qpairs --format qrels x (pid ${process.pid} on host ${os.hostname()}, since ${content.since})`);
    lock.release();
    expect(existsSync(lock.file)).toBe(false);
    lock.release(); // idempotent
    acquireWorkspaceLock(w).release();
  });

  it('takes over a stale lock (its process is gone) with a note naming it', () => {
    const pid = deadPid();
    writeFileSync(`${w}.lock`, JSON.stringify({ pid, hostname: os.hostname(), command: 'qpairs serve w.qpairs', since: '2020-01-01T00:00:00.000Z', token: 'x' }));
    const notes: string[] = [];
    const lock = acquireWorkspaceLock(w, { onNote: (m) => notes.push(m) });
    expect(lock.tookOver).toMatchObject({ pid, command: 'qpairs serve w.qpairs' });
    expect(notes).toEqual([
      `note: took over the lock of ${w} left by a QPairs process that no longer runs: qpairs serve w.qpairs (pid ${pid} on host ${os.hostname()}, since 2020-01-01T00:00:00.000Z)`,
    ]);
    expect(readLock(w)?.pid).toBe(process.pid);
    lock.release();
    expect(readdir()).toEqual(['w.qpairs']); // no leftovers of the take-over
  });

  it('takes over a lock naming this process\'s pid that this process never took (an earlier process with the same pid: pid 1 in a restarted container)', () => {
    const left = { pid: process.pid, hostname: os.hostname(), command: 'qpairs serve w.qpairs', since: '2020-01-01T00:00:00.000Z', token: 'before-restart' };
    writeFileSync(`${w}.lock`, JSON.stringify(left));
    mkdirSync(path.dirname(inodeLockFileOf(w)!), { recursive: true, mode: 0o1777 });
    writeFileSync(inodeLockFileOf(w)!, JSON.stringify(left));
    const notes: string[] = [];
    const lock = acquireWorkspaceLock(w, { onNote: (m) => notes.push(m) });
    expect(lock.tookOver).toMatchObject({ pid: process.pid, since: '2020-01-01T00:00:00.000Z' });
    expect(notes).toEqual([expect.stringMatching(/^note: took over the lock of .* left by a QPairs process that no longer runs: qpairs serve w\.qpairs/)]);
    // The lock this process does hold is still refused to a second taker, as before.
    expect(() => acquireWorkspaceLock(w)).toThrow(/is being written by this process/);
    lock.release();
    expect(existsSync(`${w}.lock`)).toBe(false);
    expect(existsSync(inodeLockFileOf(w)!)).toBe(false);
  });

  it('respects a lock held on another host (it cannot be checked) and says what to do', () => {
    writeFileSync(`${w}.lock`, JSON.stringify({ pid: 1, hostname: 'elsewhere', command: 'qpairs serve w.qpairs', since: '2020-01-01T00:00:00.000Z', token: 'x' }));
    expect(() => acquireWorkspaceLock(w)).toThrow(/runs on another machine \(elsewhere\).*delete .*w\.qpairs\.lock/s);
  });

  it('a new workspace in a folder that does not exist: the refusal says so (the desktop app locks before creating), not that the folder cannot be written', () => {
    const missing = path.join(dir, 'no such folder');
    const attempt = () => acquireWorkspaceLock(path.join(missing, 'x.qpairs'));
    expect(attempt).toThrow(`the folder ${missing} does not exist (create it first: mkdir -p '${missing}')`);
    expect(attempt).not.toThrow(/writable|ENOENT/);
    expect(existsSync(missing)).toBe(false);
  });

  it('waits briefly for a lock file being written, then replaces an unreadable one', () => {
    writeFileSync(`${w}.lock`, '');
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${w}.lock`, old, old);
    const notes: string[] = [];
    const lock = acquireWorkspaceLock(w, { settleMs: 50, onNote: (m) => notes.push(m) });
    expect(notes[0]).toMatch(/replaced an unreadable lock file/);
    lock.release();
  });

  it('is the same lock under another name of the workspace (symlink)', () => {
    const link = path.join(dir, 'link.qpairs');
    symlinkSync(w, link);
    expect(lockFileOf(link)).toBe(lockFileOf(w));
    const lock = acquireWorkspaceLock(w);
    expect(() => acquireWorkspaceLock(link)).toThrow(WorkspaceLockedError);
    lock.release();
  });

  it('follows the file, not the name: a hard link is refused, and the device + inode lock is one per file', async () => {
    const lock = acquireWorkspaceLock(w);
    const other = path.join(dir, 'b.qpairs');
    linkSync(w, other);
    expect(inodeLockFileOf(other)).toBe(inodeLockFileOf(w));
    expect(() => acquireWorkspaceLock(other)).toThrow(WorkspaceHardLinkedError);
    // The CLI says so and changes nothing (ln a b; qpairs import b … while a is held).
    const before = readFileSync(w);
    const r = await cli('annotators', 'add', other, 'mallory');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/has 2 hard links/);
    expect(r.err).not.toMatch(/internal error/);
    expect(readFileSync(w).equals(before)).toBe(true);
    lock.release();
    // Even unheld, a linked workspace is not written: either name could be opened by a second writer.
    expect(() => acquireWorkspaceLock(w)).toThrow(WorkspaceHardLinkedError);
    rmSync(other);
    acquireWorkspaceLock(w).release();
  });

  it('the device + inode lock refuses a second writer that reached the file under a name realpath cannot relate', () => {
    const lock = acquireWorkspaceLock(w, { command: 'qpairs serve w.qpairs' });
    const inode = inodeLockFileOf(w)!;
    expect(existsSync(inode)).toBe(true);
    expect(JSON.parse(readFileSync(inode, 'utf8'))).toMatchObject({ pid: process.pid, command: 'qpairs serve w.qpairs' });
    // A bind mount gives the same file another real path: simulate it by taking away the path lock only.
    rmSync(lock.file);
    expect(() => acquireWorkspaceLock(w)).toThrow(WorkspaceLockedError);
    expect(existsSync(lock.file)).toBe(false); // the refused writer left no path lock behind
    lock.release();
    expect(existsSync(inode)).toBe(false);
    const again = acquireWorkspaceLock(w);
    again.release();
  });

  it('CLI writers take it for their duration; readers do not need it', async () => {
    const held = acquireWorkspaceLock(w, { command: 'qpairs serve w.qpairs --port 5180' });
    const r = await cli('annotators', 'add', w, 'alice');
    expect(r.code).toBe(1);
    expect(r.err).toContain(`qpairs annotators add: workspace ${w} is being written by this process`);
    expect(r.err).toContain('qpairs serve w.qpairs --port 5180 (pid');
    expect(r.err).toMatch(
      /commands that only read \(stats, eval, agreement, aggregate W --pool P without --rule or --threshold, adjudicate, export, pool list, models list, annotators list, corpus export\) work meanwhile/,
    );
    // The readers it names work meanwhile; the writers the README lists beside them do not.
    expect((await cli('stats', w, '--json')).code).toBe(0);
    expect((await cli('pool', 'list', w)).code).toBe(0);
    expect((await cli('annotators', 'list', w)).code).toBe(0);
    const exported = await cli('corpus', 'export', w, '--format', 'jsonl', '-');
    expect(exported.code, exported.err).toBe(0);
    const index = await cli('corpus', 'index', w);
    expect(index.code).toBe(1);
    expect(index.err).toContain('is being written by this process');
    held.release();
    const ok = await cli('annotators', 'add', w, 'alice');
    expect(ok.code, ok.err).toBe(0);
    expect(existsSync(`${w}.lock`)).toBe(false);
  });
});

describe('the device + inode locks folder is shared by every user', () => {
  let tmp: string;
  let saved: string | undefined;
  beforeEach(() => {
    // os.tmpdir() follows TMPDIR: a temporary folder of this test's own stands for /tmp.
    tmp = mkdtempSync(path.join(os.tmpdir(), 'qpairs-tmpdir-'));
    chmodSync(tmp, 0o1777);
    saved = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
    rmSync(tmp, { recursive: true, force: true });
  });

  it('is made with mode 1777 whatever the umask (it was 1755: every other user was refused)', () => {
    const lock = acquireWorkspaceLock(w);
    expect(path.dirname(inodeLockFileOf(w)!)).toBe(path.join(tmp, 'qpairs-locks'));
    expect(statSync(path.join(tmp, 'qpairs-locks')).mode & 0o7777).toBe(0o1777);
    lock.release();
  });

  it('a folder its owner made too narrow (an older QPairs) is widened', () => {
    mkdirSync(path.join(tmp, 'qpairs-locks'), { mode: 0o755 });
    acquireWorkspaceLock(w).release();
    expect(statSync(path.join(tmp, 'qpairs-locks')).mode & 0o7777).toBe(0o1777);
  });

  it('a symbolic link put in the shared folder\'s place is never followed (it would have chmod-ed its target 1777)', () => {
    const victim = mkdtempSync(path.join(tmp, 'private-'));
    chmodSync(victim, 0o700);
    symlinkSync(victim, path.join(tmp, 'qpairs-locks'));
    const lock = acquireWorkspaceLock(w);
    expect(statSync(victim).mode & 0o7777).toBe(0o700);
    expect(readdirSync(victim)).toEqual([]);
    expect(path.dirname(inodeLockFileOf(w)!)).toBe(path.join(tmp, `qpairs-locks-${process.getuid?.() ?? 'user'}`));
    lock.release();
  });

  // A second user for real: root runs the test, nobody writes its own workspace after root's lock made the folder.
  it.runIf(process.getuid?.() === 0)('another user can write their workspace after this one took a lock', () => {
    acquireWorkspaceLock(w).release();
    const theirs = mkdtempSync(path.join(tmp, 'nobody-'));
    chownSync(theirs, 65534, 65534);
    const ws = path.join(theirs, 'n.qpairs');
    const env = { ...process.env, TMPDIR: tmp };
    const as = { uid: 65534, gid: 65534, env, encoding: 'utf8' as const };
    expect(spawnSync(process.execPath, [qpairs, 'init', ws], as).status).toBe(0);
    const r = spawnSync(process.execPath, [qpairs, 'annotators', 'add', ws, 'alice'], as);
    expect({ status: r.status, err: r.stderr }).toEqual({ status: 0, err: '' });
  });
});

function readdir(): string[] {
  return spawnSync('ls', [dir], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);
}

/** What a serve child printed (for failure messages). */
const printed = new WeakMap<ChildProcess, { text: string }>();

/** Starts `qpairs serve W --port 0` in a child process; resolves once it listens. */
async function serveChild(workspace: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [qpairs, 'serve', workspace, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const log = { text: '' };
  printed.set(child, log);
  await new Promise<void>((resolve, reject) => {
    let buf = '';
    const onData = (d: Buffer): void => {
      buf += d.toString();
      log.text += d.toString();
      const m = /QPairs serving .* at (http:\/\/[^/\s]+)/.exec(buf);
      // Any answer from the server means it got past installing its signal handlers (same tick as
      // the line above): a SIGTERM sent earlier could still meet the default action.
      if (m) fetch(m[1]!).then(() => resolve(), reject);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`serve exited early (${code}): ${buf}`)));
    setTimeout(() => reject(new Error(`serve did not start: ${buf}`)), 20_000).unref();
  });
  return child;
}

describe('workspace lock (two processes)', () => {
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  });

  it('serve mode holds it for its lifetime: a CLI writer is refused naming it, a reader is not; it is gone after a clean stop', async () => {
    const child = await serveChild(w);
    children.push(child);
    const holder = readLock(w);
    expect(holder).toMatchObject({ pid: child.pid, hostname: os.hostname(), command: `qpairs serve ${w} --port 0` });
    const r = await cli('import', w, '--format', 'qrels', '--pool', 'p', path.join(root, 'tests/fixtures/import/qrels-good.txt'));
    expect(r.code).toBe(1);
    expect(r.err).toContain(`qpairs import: workspace ${w} is being written by another QPairs process:`);
    expect(r.err).toContain(`qpairs serve ${w} --port 0 (pid ${child.pid} on host ${os.hostname()}, since ${holder!.since})`);
    expect(r.err).toMatch(/If that process no longer exists, delete .*w\.qpairs\.lock/);
    expect((await cli('stats', w)).code).toBe(0);
    child.kill('SIGTERM');
    const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
    expect({ code, signal, lock: existsSync(`${w}.lock`) }, printed.get(child)!.text).toEqual({ code: 0, signal: null, lock: false });
    const after = await cli('import', w, '--format', 'qrels', '--pool', 'p', path.join(root, 'tests/fixtures/import/qrels-good.txt'));
    expect(after.code, after.err).toBe(0);
    expect(after.err).toBe('');
  });

  it('a writer killed with SIGKILL leaves a stale lock, which the next writer takes over with a note', async () => {
    const child = await serveChild(w);
    children.push(child);
    child.kill('SIGKILL');
    await once(child, 'exit');
    expect(readLock(w)?.pid).toBe(child.pid);
    const r = await cli('annotators', 'add', w, 'bob');
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(`note: took over the lock of ${w} left by a QPairs process that no longer runs: qpairs serve ${w} --port 0 (pid ${child.pid}`);
    expect(existsSync(`${w}.lock`)).toBe(false);
  });
});

describe('the lock refusal names the lock file as a shell word', () => {
  it('a path with a space and non-ASCII letters is quoted, so "delete …" pasted after rm removes that file', async () => {
    const folder = path.join(dir, 'my data ü');
    mkdirSync(folder);
    const ws = path.join(folder, "Bob's W.qpairs");
    Workspace.create(ws).close();
    const lock = acquireWorkspaceLock(ws, { command: 'qpairs import x' });
    try {
      const r = await cli('label', ws, '--pool', 'p', '--annotator', 'a', '--query', 'q', '--candidate', 'c', '--value', '1');
      expect(r.code).toBe(1);
      const quoted = `'${lockFileOf(ws).replace(/'/g, `'\\''`)}'`;
      expect(r.err).toContain(`If that process no longer exists, delete ${quoted}.`);
      // The shell reads the quoted word back as the lock file's path.
      const echoed = spawnSync('sh', ['-c', `printf %s ${quoted}`], { encoding: 'utf8' }).stdout;
      expect(echoed).toBe(lockFileOf(ws));
    } finally {
      lock.release();
    }
  });
});
