/**
 * An export never writes onto the workspace or any SQLite file: targets that are the workspace,
 * its -wal/-shm/-journal/.lock, another database (by its header) or its -wal, or that resolve
 * to the workspace through a symlink or a hard link, are refused before anything is written —
 * whether the export's main file, its datasheet (OUT.datasheet.md) or a per-run file is the one.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../cli/index';
import { runImport } from '../engine/work';
import { QPairsError } from '../errors';
import { Workspace } from '../workspace/workspace';
import { checkWriteTarget, writeExport, writeFilesAtomic } from '.';

const SEMEVAL = path.resolve(import.meta.dirname, '../../../tests/fixtures/import/semeval-small.xml');

let dir: string;
let w: string;
let ws: Workspace;
beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-export-safety-'));
  w = path.join(dir, 'W.qpairs');
  ws = Workspace.create(w);
  await runImport(ws, 'semeval', [SEMEVAL], { pool: 'P' });
});
afterEach(() => {
  ws.close();
  rmSync(dir, { recursive: true, force: true });
});

const sha = (p: string): string => createHash('sha256').update(readFileSync(p)).digest('hex');

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(QPairsError);
    return (e as Error).message;
  }
  throw new Error('not refused');
}

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { log: (s) => (out += s + '\n'), err: (s) => (err += s + '\n') });
  return { code, out, err };
}

describe('export targets that would damage a database are refused', () => {
  it('the workspace itself, its companions, links to it, other databases', () => {
    ws.db.pragma('wal_checkpoint(PASSIVE)');
    const before = sha(w);
    const files = readdirSync(dir).sort();
    const link = path.join(dir, 'link.jsonl');
    symlinkSync(w, link);
    const hard = path.join(dir, 'hard.jsonl');
    linkSync(w, hard);
    const other = path.join(dir, 'other.db');
    const raw = new Database(other);
    raw.pragma('journal_mode = WAL');
    raw.exec('CREATE TABLE t(x); INSERT INTO t VALUES (1)');
    const sub = path.join(dir, 'sub');
    mkdirSync(sub);
    const cases: Array<[string, RegExp]> = [
      [w, /: it is the workspace .*W\.qpairs itself; nothing was written \(choose another output file\)$/],
      [`${w}-wal`, /it is the workspace's write-ahead log \(-wal\) of /],
      [`${w}-shm`, /it is the workspace's shared-memory file \(-shm\) of /],
      [`${w}-journal`, /it is the workspace's rollback journal \(-journal\)/],
      [`${w}.lock`, /it is the workspace's lock file \(\.lock\)/],
      [path.join(dir, '.', 'sub', '..', 'W.qpairs'), /it is the workspace .* itself/],
      [link, /it is the workspace .* itself \(through a symbolic link\)/],
      [hard, /it is the workspace .* itself \(another name of the same file: a hard link\)/],
      [other, /it is a SQLite database file \(exports never overwrite a database\)/],
      [`${other}-wal`, /it is the wal file of the SQLite database .*other\.db/],
      [sub, /it is a directory/],
    ];
    for (const [target, why] of cases) {
      expect(refusal(() => writeExport(ws, 'P', 'jsonl', target)), target).toMatch(why);
      expect(refusal(() => writeExport(ws, 'P', 'jsonl', target)), target).toMatch(/^refusing to write /);
    }
    raw.close();
    expect(sha(w)).toBe(before);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp') || f.endsWith('.datasheet.md'))).toEqual([]);
    expect(files.every((f) => existsSync(path.join(dir, f)))).toBe(true);
    expect(ws.stats().questions).toBe(5);
  });

  it('the datasheet or a per-run file is checked as well as OUT', () => {
    // OUT = W minus ".datasheet.md" would put the datasheet on W.
    const ws2path = path.join(dir, 'x.jsonl.datasheet.md');
    const other = Workspace.create(ws2path);
    other.close();
    expect(refusal(() => writeExport(ws, 'P', 'jsonl', path.join(dir, 'x.jsonl')))).toMatch(/x\.jsonl\.datasheet\.md: it is a SQLite database file/);
    expect(existsSync(path.join(dir, 'x.jsonl'))).toBe(false);
    // A trec-run export writes STEM.RUN.EXT per run: one of them may be a database.
    const run2 = ws.ensureRun('P', 'second', 'test');
    ws.setRunScore(run2, 'T1', 'T1_R1', 1);
    const db = path.join(dir, 'r.second.run');
    new Database(db).exec('CREATE TABLE t(x)');
    expect(refusal(() => writeExport(ws, 'P', 'trec-run', path.join(dir, 'r.run')))).toMatch(/r\.second\.run: it is a SQLite database file/);
    expect(existsSync(path.join(dir, 'r.search-engine.run'))).toBe(false);
  });

  it('writes through a temporary file renamed over the target; ordinary files are replaced only with force (issue 23)', () => {
    const out = path.join(dir, 'out.qrels');
    writeFileSync(out, 'old\n');
    expect(refusal(() => writeExport(ws, 'P', 'qrels', out))).toMatch(/refusing to overwrite an existing file/);
    expect(readFileSync(out, 'utf8')).toBe('old\n');
    const b = writeExport(ws, 'P', 'qrels', out, { force: true });
    expect(b.files.map((f) => f.name)).toEqual([out]);
    expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(3);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    // A protected path is refused by writeFilesAtomic itself, too.
    expect(refusal(() => writeFilesAtomic([{ path: path.join(dir, 'ok.txt'), content: 'x' }, { path: w, content: 'x' }], { protect: [w] }))).toMatch(/itself/);
    expect(existsSync(path.join(dir, 'ok.txt'))).toBe(false);
    expect(() => checkWriteTarget(path.join(dir, 'new.txt'), { protect: [w] })).not.toThrow();
  });

  it("replaceChosen (the desktop app's save dialog asked about OUT) replaces OUT only: the datasheet and the askubuntu corpus beside it stay refused", () => {
    const out = path.join(dir, 'dev.txt');
    const corpus = path.join(dir, 'dev.corpus.txt');
    const sheet = `${out}.datasheet.md`;
    writeFileSync(out, 'old\n');
    writeFileSync(corpus, 'my corpus\n');
    writeFileSync(sheet, 'my edited datasheet\n');
    // The desktop app passed force: true once its dialog had asked about dev.txt, and replaced these two unasked.
    const msg = refusal(() => writeExport(ws, 'P', 'askubuntu', out, { replaceChosen: true }));
    expect(msg).toMatch(/^refusing to overwrite 2 existing files: /);
    expect(msg).toContain(corpus);
    expect(msg).toContain(sheet);
    expect(msg).not.toContain(`${out},`);
    expect([readFileSync(out, 'utf8'), readFileSync(corpus, 'utf8'), readFileSync(sheet, 'utf8')]).toEqual(['old\n', 'my corpus\n', 'my edited datasheet\n']);
    // With only the chosen file there, it is replaced without --force.
    rmSync(corpus);
    rmSync(sheet);
    const b = writeExport(ws, 'P', 'askubuntu', out, { replaceChosen: true });
    expect(b.files.map((f) => f.name)).toEqual([out, corpus]);
    expect(readFileSync(out, 'utf8')).not.toBe('old\n');
    expect(existsSync(sheet)).toBe(true);
    // An hf-dataset folder's files are never "the chosen file".
    const hf = path.join(dir, 'hf');
    mkdirSync(hf);
    writeFileSync(path.join(hf, 'README.md'), 'my card\n');
    expect(refusal(() => writeExport(ws, 'P', 'hf-dataset', hf, { replaceChosen: true }))).toMatch(/^refusing to overwrite an existing file: .*README\.md/);
    expect(readFileSync(path.join(hf, 'README.md'), 'utf8')).toBe('my card\n');
  });

  it('OUT ending in a slash names a folder: refused, naming a file to give (a file "out" and "out.datasheet.md" were written beside it)', () => {
    for (const out of [path.join(dir, 'gold') + '/', path.join(dir, 'missing') + '/']) {
      expect(refusal(() => writeExport(ws, 'P', 'jsonl', out, { force: true }))).toBe(
        `refusing to write ${out}: a name ending in "/" is a folder, and the jsonl export writes a file (its datasheet beside it): name the file, as ${path.join(out, 'P.jsonl')}; nothing was written`,
      );
    }
    expect(readdirSync(dir).filter((f) => f.startsWith('gold') || f.startsWith('missing'))).toEqual([]);
    // hf-dataset's OUT is a folder: the slash is welcome there.
    writeExport(ws, 'P', 'hf-dataset', path.join(dir, 'card') + '/');
    expect(readdirSync(path.join(dir, 'card')).sort()).toEqual(['README.md', 'data']);
  });

  it('a device, a pipe or a standard stream is refused, even with force: `qpairs export … /dev/stdout --force` renamed a file over /dev/stdout', () => {
    // Links stand for /dev/stdout (whose folder, /dev, a test must not write in).
    const dev = path.join(dir, 'stdout.jsonl');
    symlinkSync('/dev/null', dev);
    expect(refusal(() => writeExport(ws, 'P', 'jsonl', dev, { force: true }))).toMatch(/^refusing to write .*stdout\.jsonl: it is a device or a process's standard stream \(.*stdout\.jsonl → \/dev\/null\), not a file/);
    expect(lstatSync(dev).isSymbolicLink()).toBe(true);
    const fifo = path.join(dir, 'pipe.qrels');
    execFileSync('mkfifo', [fifo]);
    expect(refusal(() => writeExport(ws, 'P', 'qrels', fifo, { force: true }))).toMatch(/it is a named pipe, not a file/);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    // /dev/stdout is a link to /proc/self/fd/1: when stdout is a file, that resolves to a file. The link is
    // what the rename would replace (in /dev as root): refused by its name, whatever stdout is.
    const stdout = path.join(dir, 'out.jsonl');
    symlinkSync('/proc/self/fd/1', stdout);
    expect(refusal(() => writeExport(ws, 'P', 'jsonl', stdout, { force: true }))).toMatch(/it is a device or a process's standard stream \(.*out\.jsonl → \/proc\/self\/fd\/1\)/);
    expect(lstatSync(stdout).isSymbolicLink()).toBe(true);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp') || f.endsWith('.datasheet.md'))).toEqual([]);
  });
});

describe('qpairs export onto the workspace', () => {
  it('`qpairs export W --pool P --format jsonl W` is refused with exit 1 and the workspace intact', async () => {
    ws.close();
    const before = sha(w);
    const r = await cli('export', w, '--pool', 'P', '--format', 'jsonl', w);
    expect(r.code).toBe(1);
    expect(r.err).toBe(`qpairs export: refusing to write ${w}: it is the workspace ${w} itself; nothing was written (choose another output file)\n`);
    expect(sha(w)).toBe(before);
    const again = Workspace.open(w);
    expect(again.stats().questions).toBe(5);
    again.close();
    const link = path.join(dir, 'export.jsonl');
    symlinkSync(w, link);
    const viaLink = await cli('export', w, '--pool', 'P', '--format', 'jsonl', link);
    expect(viaLink.code).toBe(1);
    expect(viaLink.err).toMatch(/through a symbolic link/);
    const ok = await cli('export', w, '--pool', 'P', '--format', 'jsonl', path.join(dir, 'good.jsonl'));
    expect(ok.code, ok.err).toBe(0);
    expect(sha(w)).toBe(before);
    ws = Workspace.open(w);
  });
});
