/**
 * Opening what may not be a workspace: a directory, an empty or foreign file, another
 * application's database are clear errors naming the file; a workspace that cannot be written
 * opens read-only (reads work, writes say "read-only").
 *
 * Read-only for real: tests run as root here, and root ignores file permissions, so the CLI is
 * run in a child process as the unprivileged user `nobody` (setpriv) on (1) a chmod 0444 copy
 * in a folder nobody may write to, (2) a workspace in a root-owned 0755 folder (nobody may
 * write neither file nor folder: no -wal/-shm can be made, SQLite's immutable mode is used) and
 * (3) a file nobody owns in such a folder (the folder alone makes it read-only). Run as another
 * user, the child runs directly on chmod-ed files and folders instead.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../cli/index';
import { Engine } from '../engine/engine';
import { runImport } from '../engine/work';
import { toWireError } from '../serve/wire';
import { QPairsError } from '../errors';
import { MIGRATIONS } from './migrations';
import { openWorkspaceDb } from './db';
import { Workspace } from './workspace';

const root = path.resolve(import.meta.dirname, '../../..');
const qpairs = path.join(root, 'bin/qpairs.mjs');
const SEMEVAL = path.join(root, 'tests/fixtures/import/semeval-small.xml');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-open-'));
});
afterEach(() => {
  spawnSync('chmod', ['-R', 'u+rwX', dir]);
  rmSync(dir, { recursive: true, force: true });
});

const sha = (p: string): string => createHash('sha256').update(readFileSync(p)).digest('hex');

function openError(p: string): QPairsError {
  try {
    Workspace.open(p).close();
  } catch (e) {
    expect(e).toBeInstanceOf(QPairsError);
    return e as QPairsError;
  }
  throw new Error(`${p} opened`);
}

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { log: (s) => (out += s + '\n'), err: (s) => (err += s + '\n') });
  return { code, out, err };
}

describe('paths that are not workspaces', () => {
  it('a directory', async () => {
    const d = path.join(dir, 'folder');
    mkdirSync(d);
    expect(openError(d).message).toBe(`${d} is a directory, not a QPairs workspace (a workspace is one file, e.g. ${path.join(d, 'W.qpairs')}; create one with: qpairs init FILE)`);
    const r = await cli('stats', d);
    expect(r.code).toBe(1);
    expect(r.err).toBe(`qpairs stats: ${d} is a directory, not a QPairs workspace (a workspace is one file, e.g. ${path.join(d, 'W.qpairs')}; create one with: qpairs init FILE)\n`);
    expect(r.err).not.toMatch(/ at |internal error/);
  });

  it('an empty (0-byte) file, which is left empty', async () => {
    const p = path.join(dir, 'empty.qpairs');
    writeFileSync(p, '');
    expect(openError(p).message).toBe(`${p} is an empty file (0 bytes), not a QPairs workspace. To start a new workspace there, delete it and run: qpairs init ${p}`);
    const r = await cli('stats', p);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/is an empty file \(0 bytes\), not a QPairs workspace/);
    expect(readFileSync(p).length).toBe(0);
    expect(existsSync(`${p}-wal`)).toBe(false);
    // Creating one on purpose (e.g. a file made by mktemp) is fine.
    Workspace.create(p).close();
    expect(Workspace.open(p).stats().questions).toBe(0);
  });

  it('foreign files say what they are', () => {
    const txt = path.join(dir, 'notes.qpairs');
    writeFileSync(txt, 'just some notes\n');
    expect(openError(txt).message).toBe(`${txt} is not a QPairs workspace: it is a text file, not a SQLite database`);
    const gz = path.join(dir, 'dump.gz');
    writeFileSync(gz, gzipSync('x'));
    expect(openError(gz).message).toMatch(/is not a QPairs workspace: it is a gzip file, not a SQLite database$/);
    const xml = path.join(dir, 'Posts.xml');
    writeFileSync(xml, '<?xml version="1.0"?><posts/>');
    expect(openError(xml).message).toMatch(/it is an XML or HTML text file/);
    const bin = path.join(dir, 'blob');
    writeFileSync(bin, Buffer.from([0, 1, 2, 3, 0xff, 0xfe, 0, 9]));
    expect(openError(bin).message).toMatch(/8 bytes of data that are not a SQLite database/);
  });

  it('another application\'s SQLite database is named with its tables and left untouched', async () => {
    const p = path.join(dir, 'other.db');
    const raw = new Database(p);
    raw.exec('CREATE TABLE customers(x); CREATE TABLE orders(y)');
    raw.close();
    const before = sha(p);
    expect(openError(p).message).toBe(`${p} is a SQLite database but not a QPairs workspace (tables: customers, orders); refusing to touch it`);
    const r = await cli('import', p, '--format', 'semeval', SEMEVAL);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/is a SQLite database but not a QPairs workspace/);
    expect(sha(p)).toBe(before);
  });

  it('an empty SQLite database (no tables yet) is refused and left untouched, not made a workspace by a reading command', async () => {
    const p = path.join(dir, 'new app.db');
    const raw = new Database(p);
    raw.exec('CREATE TABLE t(x); DROP TABLE t');
    raw.close();
    const before = sha(p);
    const msg = `${p} is an empty SQLite database (no tables), not a QPairs workspace; it was left untouched. To start a new workspace there, delete it and run: qpairs init '${p}'`;
    expect(openError(p).message).toBe(msg);
    for (const args of [['stats', p], ['import', p, '--format', 'semeval', SEMEVAL]]) {
      const r = await cli(...args);
      expect(r.code).toBe(1);
      expect(r.err).toBe(`qpairs ${args[0]}: ${msg}\n`);
    }
    expect(sha(p)).toBe(before);
    expect(readdirSync(dir)).toEqual(['new app.db']);
  });

  it('a workspace rebuilt from a text dump (no application id, no user_version) is named as one, with the command that restores its marks', async () => {
    const w = path.join(dir, 'w.qpairs');
    const ws = Workspace.create(w);
    await runImport(ws, 'semeval', [SEMEVAL]);
    ws.close();
    const src = new Database(w, { readonly: true });
    const version = src.pragma('user_version', { simple: true }) as number;
    const p = path.join(dir, 'restored.qpairs');
    src.exec(`VACUUM INTO '${p}'`);
    src.close();
    // What `sqlite3 W .dump | sqlite3 restored.qpairs` gives: every table and row, without the header's two marks.
    const dst = new Database(p);
    dst.exec('PRAGMA application_id = 0; PRAGMA user_version = 0');
    dst.close();
    const before = sha(p);
    const msg = openError(p).message;
    expect(msg).toContain(`${p} has a QPairs workspace's tables but lacks the marks SQLite keeps in its header`);
    expect(msg).toContain(`put them back with: sqlite3 ${p} "PRAGMA application_id = 1364226675; PRAGMA user_version = ${version}"`);
    expect(sha(p)).toBe(before);
    // Following the advice opens it, with everything in it.
    const fix = new Database(p);
    fix.exec(`PRAGMA application_id = 1364226675; PRAGMA user_version = ${version}`);
    fix.close();
    const r = await cli('stats', p, '--json');
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ questions: 5, labels: 3 });
  });

  it('init in a folder that does not exist (or is a file) names the folder, without a stack trace', async () => {
    const nodir = path.join(dir, 'nodir');
    const w = path.join(nodir, 'X.qpairs');
    let r = await cli('init', w);
    expect(r).toEqual({ code: 1, out: '', err: `qpairs init: cannot create workspace ${w}: the folder ${nodir} does not exist (create it first: mkdir -p ${nodir})\n` });
    expect(existsSync(nodir)).toBe(false);
    const file = path.join(dir, 'file.txt');
    writeFileSync(file, 'x');
    r = await cli('init', path.join(file, 'X.qpairs'));
    expect(r).toEqual({ code: 1, out: '', err: `qpairs init: cannot create workspace ${path.join(file, 'X.qpairs')}: ${file} is not a folder\n` });
  });

  it('a symbolic link to nothing says so; init names the folder its target lacks, not "unable to open database file"', async () => {
    const link = path.join(dir, 'w.qpairs');
    symlinkSync(path.join(dir, 'gone', 'real.qpairs'), link);
    const r = await cli('stats', link);
    expect(r).toEqual({ code: 1, out: '', err: `qpairs stats: workspace ${link} does not exist (a symbolic link to ${path.join(dir, 'gone', 'real.qpairs')}, which does not exist) (create it with: qpairs init ${link})\n` });
    const i = await cli('init', link);
    expect(i).toEqual({
      code: 1,
      out: '',
      err: `qpairs init: cannot create workspace ${link} (a symbolic link to ${path.join(dir, 'gone', 'real.qpairs')}, which does not exist): the folder ${path.join(dir, 'gone')} does not exist (create it first: mkdir -p ${path.join(dir, 'gone')})\n`,
    });
    mkdirSync(path.join(dir, 'gone'));
    expect((await cli('init', link)).code).toBe(0);
    expect(existsSync(path.join(dir, 'gone', 'real.qpairs'))).toBe(true);
  });

  it('init with a relative path (and through a relative symbolic link) creates the workspace', async () => {
    mkdirSync(path.join(dir, 'a', 'b'), { recursive: true });
    const rel = path.relative(process.cwd(), path.join(dir, 'a', 'b', 'rel.qpairs'));
    const r0 = await cli('init', rel);
    expect(r0.code, r0.err).toBe(0);
    expect(existsSync(path.join(dir, 'a', 'b', 'rel.qpairs'))).toBe(true);
    mkdirSync(path.join(dir, 'sub'));
    symlinkSync(path.join('sub', 'target.qpairs'), path.join(dir, 'link.qpairs'));
    const r = await cli('init', path.relative(process.cwd(), path.join(dir, 'link.qpairs')));
    expect(r.code, r.err).toBe(0);
    expect(existsSync(path.join(dir, 'sub', 'target.qpairs'))).toBe(true);
  });

  it('advice with a path holding spaces quotes it, so it can be pasted', async () => {
    const w = path.join(dir, 'my data', 'W.qpairs');
    const r = await cli('init', w);
    expect(r.err).toBe(`qpairs init: cannot create workspace ${w}: the folder ${path.join(dir, 'my data')} does not exist (create it first: mkdir -p '${path.join(dir, 'my data')}')\n`);
  });

  it('a damaged workspace (cut short, or its schema overwritten) is named as damaged, with what to do, and left untouched', async () => {
    const w = path.join(dir, 'w.qpairs');
    const ws = Workspace.create(w);
    await runImport(ws, 'semeval', [SEMEVAL]);
    ws.close();
    const whole = readFileSync(w);
    const pageSize = whole.readUInt16BE(16);
    // Was "qpairs stats: the workspace file is damaged or not a database: database disk image is malformed (SQLITE_CORRUPT)":
    // no file named, nothing to do.
    const cases: Array<[string, Buffer]> = [
      ['cut.qpairs', whole.subarray(0, Math.floor(whole.length / 2))], // a copy cut short
      ['head.qpairs', whole.subarray(0, 50)], // the header's first bytes only
      ['schema.qpairs', Buffer.concat([whole.subarray(0, 100), Buffer.alloc(pageSize - 100, 0xa5), whole.subarray(pageSize)])], // page 1 after the header overwritten
    ];
    for (const [name, bytes] of cases) {
      const p = path.join(dir, 'damaged workspaces', name);
      mkdirSync(path.dirname(p), { recursive: true });
      writeFileSync(p, bytes);
      const before = sha(p);
      const msg = openError(p).message;
      expect(msg, name).toMatch(new RegExp(`^${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is damaged: SQLite cannot read it as a database \\(.+\\)`));
      expect(msg, name).toContain('QPairs did not change it. Restore the workspace from a backup (see "Backups" in the README)');
      const r = await cli('stats', p);
      expect(r, name).toEqual({ code: 1, out: '', err: `qpairs stats: ${msg}\n` });
      expect(sha(p), name).toBe(before);
      expect(existsSync(`${p}-wal`) || existsSync(`${p}-shm`), name).toBe(false);
      rmSync(p);
    }
  });

  it('damage met in the data after opening names the workspace and how to check it', async () => {
    const p = path.join(dir, 'my data', 'w.qpairs');
    mkdirSync(path.dirname(p));
    const ws = Workspace.create(p);
    await runImport(ws, 'semeval', [SEMEVAL]);
    ws.close();
    // One leaf page of the labels table overwritten: the header and schema read fine, the labels do not.
    const raw = new Database(p);
    raw.pragma('journal_mode = DELETE');
    const page = raw.prepare(`SELECT pageno FROM dbstat WHERE name = 'labels' AND pagetype = 'leaf' ORDER BY pageno LIMIT 1`).pluck().get() as number;
    const pageSize = raw.pragma('page_size', { simple: true }) as number;
    raw.close();
    const bytes = readFileSync(p);
    bytes.fill(0xa5, (page - 1) * pageSize, page * pageSize);
    writeFileSync(p, bytes);
    const r = await cli('eval', p, '--pool', 'semeval-small');
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      `qpairs eval: ${p} is damaged: SQLite met a part it cannot read (database disk image is malformed, SQLITE_CORRUPT). The command stopped. ` +
        `See how much is damaged with: sqlite3 '${p}' "PRAGMA integrity_check". Restore the workspace from a backup (see "Backups" in the README)\n`,
    );
    // The app and serve mode (was "internal error: database disk image is malformed"): the screen that reads it says what happened.
    const engine = Engine.open(p, { transport: 'http' });
    try {
      const err = await engine.invoke('eval.pool', { pool: 'semeval-small' }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(toWireError(err)).toEqual({
        message:
          'the workspace file is damaged: SQLite met a part of it that it cannot read (database disk image is malformed). What needs that part cannot work ' +
          'until the workspace is restored from a backup (see "Backups" in the README); whoever runs QPairs can see how much is damaged with: sqlite3 W "PRAGMA integrity_check"',
        code: 'internal',
      });
    } finally {
      engine.close();
    }
  });

  it('restoring a backup as the damage message says: the -wal and -shm a killed process left are named, to delete first (left there, they damaged the restored copy too)', async () => {
    const w = path.join(dir, 'w.qpairs');
    const ws = Workspace.create(w);
    await runImport(ws, 'semeval', [SEMEVAL]);
    ws.close();
    const backup = path.join(dir, 'w.bak');
    copyFileSync(w, backup);
    // Work after the backup: checkpointed into the file, then more that a killed process left in its -wal.
    let db = new Database(w);
    db.exec(`DELETE FROM labels; VACUUM`);
    db.close();
    db = new Database(w);
    db.pragma('wal_autocheckpoint = 0');
    db.exec(`UPDATE questions SET body = body || ' ' || hex(randomblob(3000))`);
    copyFileSync(`${w}-wal`, path.join(dir, 'left-wal'));
    copyFileSync(`${w}-shm`, path.join(dir, 'left-shm'));
    db.close();
    copyFileSync(path.join(dir, 'left-wal'), `${w}-wal`);
    copyFileSync(path.join(dir, 'left-shm'), `${w}-shm`);
    // The backup copied over the workspace alone: SQLite replays the other state's -wal onto it.
    copyFileSync(backup, w);
    const r = await cli('stats', w);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`${w} is damaged`);
    expect(r.err).toContain(
      `Restore the workspace from a backup (see "Backups" in the README): with no QPairs using it, first delete w.qpairs-wal and w.qpairs-shm beside it ` +
        `(SQLite's files of the damaged workspace: left there, they would be replayed onto the restored copy and damage it too), ` +
        `e.g. rm ${w}-wal ${w}-shm, then copy the backup over w.qpairs`,
    );
    // Following it restores the backup: its labels are back.
    rmSync(`${w}-wal`);
    rmSync(`${w}-shm`);
    copyFileSync(backup, w);
    const ok = await cli('stats', w, '--json');
    expect(ok.code, ok.err).toBe(0);
    expect(JSON.parse(ok.out)).toMatchObject({ questions: 5, labels: 3 });
  });

  it('the CLI prints machine errors (SQLite, file system) as one line, without a stack trace', async () => {
    const { environmentError } = await import('../cli/index');
    expect(environmentError(Object.assign(new Error('attempt to write a readonly database'), { code: 'SQLITE_READONLY' }))).toBe(
      'the workspace is read-only: attempt to write a readonly database (SQLITE_READONLY)',
    );
    expect(environmentError(Object.assign(new Error('EACCES: permission denied, open \'/x\''), { code: 'EACCES', syscall: 'open', path: '/x' }))).toBe('/x: permission denied (EACCES)');
    expect(environmentError(new TypeError('a bug'))).toBeNull();
  });
});

describe('read-only workspaces', () => {
  async function semevalWorkspace(p: string): Promise<void> {
    const ws = Workspace.create(p);
    await runImport(ws, 'semeval', [SEMEVAL]);
    ws.close();
  }

  it('opened read-only on request: reads work, every write is refused as read-only, the file is unchanged', async () => {
    const p = path.join(dir, 'w.qpairs');
    await semevalWorkspace(p);
    const before = sha(p);
    const ws = Workspace.open(p, { readonly: true });
    expect(ws.readonly).toBe(true);
    expect(ws.readonlyReason).toBe('opened read-only as asked');
    expect(ws.stats().questions).toBe(5);
    expect(ws.currentLabels('semeval-small')).toHaveLength(3);
    const ro = new RegExp(`workspace ${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is read-only \\(opened read-only as asked\\): it cannot be changed`);
    expect(() => ws.upsertQuestion({ id: 'n1', source: 's', title: 't' })).toThrow(ro);
    expect(() => ws.addLabel({ pool: 'semeval-small', queryId: 'T1', candidateId: 'T1_R1', annotator: 'gold', value: 'Relevant', origin: 't' })).toThrow(ro);
    expect(() => ws.createPool({ name: 'x' })).toThrow(ro);
    await expect(runImport(ws, 'semeval', [SEMEVAL])).rejects.toThrow(QPairsError);
    ws.close();
    expect(sha(p)).toBe(before);
  });

  it('a read-only workspace that would need a migration is a clear error', () => {
    const p = path.join(dir, 'old.qpairs');
    openWorkspaceDb(p, { create: true, migrations: MIGRATIONS.slice(0, 4) }).close();
    expect(() => Workspace.open(p, { readonly: true })).toThrow(/is read-only \(opened read-only as asked\) and needs an upgrade to workspace schema \d+ \(it has 4\)/);
  });

  const isRoot = process.getuid?.() === 0;
  const setpriv = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p));
  /** Can `nobody` run this Node (it must reach the binary and the checkout)? */
  const nobodyCanRun =
    !isRoot ||
    (!!setpriv && spawnSync(setpriv, ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, '-e', `require('fs').accessSync(${JSON.stringify(qpairs)})`]).status === 0);

  /** Runs the CLI in a child process without the right to write what root owns (as nobody when root). */
  function unprivileged(...args: string[]): { code: number; out: string; err: string } {
    const r = isRoot
      ? spawnSync(setpriv!, ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, qpairs, ...args], { encoding: 'utf8', cwd: dir })
      : spawnSync(process.execPath, [qpairs, ...args], { encoding: 'utf8', cwd: dir });
    return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
  }

  it.skipIf(!nobodyCanRun)('without write permission (chmod 0444 file; read-only folder; writable file in a read-only folder): reading commands work with one note, writing ones fail saying read-only', async () => {
    const master = path.join(dir, 'master.qpairs');
    await semevalWorkspace(master);
    const out = path.join(dir, 'out');
    mkdirSync(out);
    chmodSync(dir, 0o755);
    chmodSync(out, 0o777);

    // (1) chmod 0444 file in a folder the user may write to.
    const d1 = path.join(dir, 'rw-folder');
    mkdirSync(d1);
    const w1 = path.join(d1, 'w.qpairs');
    copyFileSync(master, w1);
    chmodSync(w1, 0o444);
    chmodSync(d1, isRoot ? 0o777 : 0o755);
    // (2) a folder the user may not write to (no -wal/-shm beside the file).
    const d2 = path.join(dir, 'ro-folder');
    mkdirSync(d2);
    const w2 = path.join(d2, 'w.qpairs');
    copyFileSync(master, w2);
    if (!isRoot) chmodSync(w2, 0o444);
    // (3) a file the user may write, in a folder they may not.
    const d3 = path.join(dir, 'ro-folder-own-file');
    mkdirSync(d3);
    const w3 = path.join(d3, 'w.qpairs');
    copyFileSync(master, w3);
    if (isRoot) chownSync(w3, 65534, 65534);
    const cases: Array<[string, RegExp]> = [
      [w1, /the file is not writable/],
      [w2, /the file is not writable/],
      [w3, /its folder .* is not writable, so SQLite cannot make w\.qpairs-wal and -shm there/],
    ];
    chmodSync(d2, 0o555);
    chmodSync(d3, 0o555);
    try {
      for (const [w, reason] of cases) {
        const before = sha(w);
        const stats = unprivileged('stats', w, '--json');
        expect(stats.code, stats.err).toBe(0);
        expect(JSON.parse(stats.out)).toMatchObject({ questions: 5, labels: 3 });
        expect(stats.err.trim().split('\n')).toHaveLength(1); // said once
        expect(stats.err).toMatch(new RegExp(`^note: workspace .*w\\.qpairs is read-only \\(${reason.source}\\); opened it read-only: reading works, changes are refused\\n$`));
        const ev = unprivileged('eval', w, '--pool', 'semeval-small', '--json');
        expect(ev.code, ev.err).toBe(0);
        expect(JSON.parse(ev.out).runs['search-engine']).toBeDefined();
        const ex = unprivileged('export', w, '--pool', 'semeval-small', '--format', 'qrels', path.join(out, `${path.basename(path.dirname(w))}.qrels`));
        expect(ex.code, ex.err).toBe(0);
        expect(readFileSync(path.join(out, `${path.basename(path.dirname(w))}.qrels`), 'utf8').trim().split('\n')).toHaveLength(3);
        // Agreement reads the pool (one annotator: nothing to measure, exit 1), never the read-only refusal.
        const agreement = unprivileged('agreement', w, '--pool', 'semeval-small');
        expect(agreement.code).toBe(1);
        expect(agreement.err).toMatch(/^qpairs agreement: nothing to measure: /m);
        expect(agreement.err).not.toMatch(/cannot run/);
        expect(unprivileged('pool', 'list', w).code).toBe(0);
        const label = unprivileged('label', w, '--pool', 'semeval-small', '--annotator', 'ann', '--query', 'T1', '--candidate', 'T1_R1', '--value', 'Relevant');
        expect(label.code).toBe(1);
        expect(label.err).toMatch(new RegExp(`^qpairs label: workspace .*w\\.qpairs is read-only \\(${reason.source}\\): "qpairs label" changes it, so it cannot run\\.`));
        const imp = unprivileged('import', w, '--format', 'semeval', SEMEVAL);
        expect(imp.code).toBe(1);
        expect(imp.err).toMatch(/is read-only .*"qpairs import" changes it/);
        expect(label.err + imp.err + stats.err).not.toMatch(/internal error|\n\s+at /);
        expect(sha(w)).toBe(before);
      }
      // Nothing was left in the read-only folders.
      expect(readdirSync(d2)).toEqual(['w.qpairs']);
      expect(readdirSync(d3)).toEqual(['w.qpairs']);
    } finally {
      chmodSync(d2, 0o755);
      chmodSync(d3, 0o755);
    }
  }, 180_000);

  it.skipIf(!nobodyCanRun)('init in a folder the user may not write to says so, not "unable to open database file"', () => {
    const d = path.join(dir, 'locked');
    mkdirSync(d);
    chmodSync(dir, 0o755);
    chmodSync(d, 0o555);
    const r = unprivileged('init', path.join(d, 'w.qpairs'));
    expect({ code: r.code, err: r.err }).toEqual({
      code: 1,
      err: `qpairs init: cannot create workspace ${path.join(d, 'w.qpairs')}: the folder ${d} is not writable (permission denied or a read-only file system)\n`,
    });
    expect(readdirSync(d)).toEqual([]);
  });

  it.skipIf(!nobodyCanRun)('made read-only, read, then made writable again: the -wal and -shm the read left read-only are named, not "attempt to write a readonly database"', () => {
    const d = path.join(dir, 'mine');
    mkdirSync(d);
    const w = path.join(d, 'w.qpairs');
    Workspace.create(w).close();
    chmodSync(dir, 0o755);
    if (isRoot) {
      chownSync(d, 65534, 65534);
      chownSync(w, 65534, 65534);
    }
    chmodSync(w, 0o444);
    const read = unprivileged('stats', w, '--json');
    expect(read.code, read.err).toBe(0);
    // SQLite made the -wal and -shm with the file's mode 0444.
    expect(readdirSync(d).sort()).toEqual(['w.qpairs', 'w.qpairs-shm', 'w.qpairs-wal']);
    chmodSync(w, 0o644);
    const add = unprivileged('annotators', 'add', w, 'alice');
    expect(add.code).toBe(1);
    expect(add.err).toContain(
      `qpairs annotators add: workspace ${w} is read-only (w.qpairs-wal and w.qpairs-shm beside it are not writable (SQLite's files of the workspace, ` +
        `left read-only by an open while the workspace was read-only): make them writable too, e.g. chmod u+w ${w}-wal ${w}-shm): "qpairs annotators add" changes it`,
    );
    expect(add.err).not.toMatch(/SQLITE_READONLY|internal error/);
    chmodSync(`${w}-wal`, 0o644);
    chmodSync(`${w}-shm`, 0o644);
    const again = unprivileged('annotators', 'add', w, 'alice');
    expect(again.code, again.err).toBe(0);
  });
});
