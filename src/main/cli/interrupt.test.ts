/**
 * Ctrl-C in the cancellable commands, with real processes and real signals: SIGINT (twice, as a
 * terminal's Ctrl-C can arrive) once the command holds the workspace lock ends it with "cancelled;
 * nothing was changed", exit 130, no lock file and nothing written. Before, pool create had no
 * handler and train installed its own only after loading tfjs, so the signal ended the process
 * silently (130 by the signal) and left W.lock, -wal and -shm beside the workspace.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dataset } from '../../../tests/datasets';
import { runCli } from './test-cli';

const root = path.resolve(import.meta.dirname, '../../..');
const qpairs = path.join(root, 'bin/qpairs.mjs');

let dir: string;
let w: string;
const children: ChildProcess[] = [];
beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-interrupt-'));
  w = path.join(dir, 'w.qpairs');
  expect((await runCli('init', w)).code).toBe(0);
});
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Runs `qpairs ARGS` in a child process, sends it SIGINT twice as soon as it holds the workspace
 * lock, and resolves with how it ended.
 */
async function interruptOnceLocked(...args: string[]): Promise<{ code: number | null; signal: string | null; err: string; out: string }> {
  return signalOnceLocked(['SIGINT', 'SIGINT'], ...args);
}

/** As interruptOnceLocked, with the given signals. */
async function signalOnceLocked(signals: NodeJS.Signals[], ...args: string[]): Promise<{ code: number | null; signal: string | null; err: string; out: string }> {
  const child = spawn(process.execPath, [qpairs, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = once(child, 'exit') as Promise<[number | null, string | null]>;
  const t0 = Date.now();
  while (!existsSync(`${w}.lock`)) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`qpairs ${args[0]} ended before it took the lock: ${err}`);
    if (Date.now() - t0 > 30_000) throw new Error(`qpairs ${args[0]} took no lock in 30 s: ${err}`);
    await new Promise((r) => setTimeout(r, 5));
  }
  for (const sig of signals) child.kill(sig);
  const [code, signal] = await exited;
  return { code, signal, err, out };
}

/** The files beside the workspace: just w.qpairs once everything is closed (no lock, -wal, -shm). */
const besides = (): string[] => readdirSync(dir).filter((f) => f.startsWith('w.qpairs'));

describe('Ctrl-C', () => {
  it('cancels pool create once it holds the lock: nothing written, no lock left', async () => {
    // 3,000 questions of 150 words from 400: each query scans long posting lists (seconds in all).
    let s = 1;
    const rnd = (): number => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 4294967296;
    const words = (n: number): string => Array.from({ length: n }, () => `w${Math.floor(rnd() * 400).toString(36)}`).join(' ');
    const file = path.join(dir, 'q.jsonl');
    writeFileSync(file, Array.from({ length: 3000 }, (_, i) => JSON.stringify({ id: `q${i}`, title: words(8), body: words(150) })).join('\n') + '\n');
    const imp = await runCli('import', w, '--format', 'questions-jsonl', file);
    expect(imp.code, imp.err).toBe(0);

    const r = await interruptOnceLocked('pool', 'create', w, '--name', 'big', '--sample', '3000', '--seed', '1');
    expect({ code: r.code, signal: r.signal, err: r.err }).toEqual({ code: 130, signal: null, err: 'qpairs pool create: cancelled; nothing was changed\n' });
    expect(besides()).toEqual(['w.qpairs']);
    const pools = await runCli('pool', 'list', w, '--json');
    expect(JSON.parse(pools.out)).toEqual([]);
  });

  it('cancels corpus index once it holds the lock: the index as it was, no lock left', async () => {
    const file = path.join(dir, 'q.jsonl');
    writeFileSync(file, Array.from({ length: 60_000 }, (_, i) => JSON.stringify({ id: `q${i}`, title: `title ${i % 977} words`, body: `body ${i % 613} text ${i}` })).join('\n') + '\n');
    const imp = await runCli('import', w, '--format', 'questions-jsonl', file);
    expect(imp.code, imp.err).toBe(0);
    const before = JSON.parse((await runCli('stats', w, '--json')).out);

    const r = await interruptOnceLocked('corpus', 'index', w, '--analyzer', 'lucene-english');
    expect({ code: r.code, signal: r.signal, err: r.err }).toEqual({ code: 130, signal: null, err: 'qpairs corpus index: cancelled; nothing was changed\n' });
    expect(besides()).toEqual(['w.qpairs']);
    expect(JSON.parse((await runCli('stats', w, '--json')).out)).toEqual(before);
  });

  it('cancels score once it holds the lock: no run stored, no lock left', async () => {
    const imp = await runCli('import', w, '--format', 'semeval', '--pool', 'dev', dataset('semeval2016-task3/SemEval2016-Task3-CQA-QL-dev.xml'));
    expect(imp.code, imp.err).toBe(0);
    const tr = await runCli('train', w, '--model', 'tfidf', '--name', 'tf', '--train-pool', 'dev');
    expect(tr.code, tr.err).toBe(0);
    const runs = async (): Promise<string[]> => Object.keys(JSON.parse((await runCli('eval', w, '--pool', 'dev', '--json')).out).runs as object).sort();
    const runsBefore = await runs();

    const r = await interruptOnceLocked('score', w, '--model', 'tf', '--pool', 'dev');
    expect({ code: r.code, signal: r.signal, err: r.err }).toEqual({ code: 130, signal: null, err: 'qpairs score: cancelled; nothing was changed\n' });
    expect(besides()).toEqual(['w.qpairs']);
    expect(await runs()).toEqual(runsBefore);
  });

  it('kill (SIGTERM) or a closed terminal (SIGHUP) cancel an import as Ctrl-C does: nothing written, no lock left behind', async () => {
    const file = path.join(dir, 'q.jsonl');
    writeFileSync(file, Array.from({ length: 60_000 }, (_, i) => JSON.stringify({ id: `q${i}`, title: `title ${i % 977} words`, body: `body ${i % 613} text ${i}` })).join('\n') + '\n');
    for (const sig of ['SIGTERM', 'SIGHUP'] as const) {
      const r = await signalOnceLocked([sig], 'import', w, '--format', 'questions-jsonl', file);
      expect({ sig, code: r.code, signal: r.signal, err: r.err }).toEqual({ sig, code: 130, signal: null, err: 'qpairs import: cancelled; nothing was changed\n' });
      expect(besides()).toEqual(['w.qpairs']);
      const stats = await runCli('stats', w, '--json');
      expect({ questions: JSON.parse(stats.out).questions, err: stats.err }).toEqual({ questions: 0, err: '' });
    }
  });

  /** `qpairs import undo w` of 150,000 imported questions, sent `sig` once a chunk of the undo has committed (the marker says how far it got). */
  async function undoSignalledAfterAChunk(sig: NodeJS.Signals): Promise<{ code: number | null; signal: string | null; err: string }> {
    const file = path.join(dir, 'q.jsonl');
    writeFileSync(file, Array.from({ length: 150_000 }, (_, i) => JSON.stringify({ id: `q${i}`, title: `title ${i % 977} words`, body: `body ${i % 613} text ${i}` })).join('\n') + '\n');
    // Large enough for the CLI's undo to take several chunks of LONE_CHUNK_MS (500 ms).
    expect((await runCli('import', w, '--format', 'questions-jsonl', file)).code).toBe(0);
    const child = spawn(process.execPath, [qpairs, 'import', 'undo', w], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    const exited = once(child, 'exit') as Promise<[number | null, string | null]>;
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    const progress = (): number | null => {
      const db = new Database(w, { readonly: true, fileMustExist: true });
      try {
        const v = db.prepare(`SELECT marker FROM import_undo_progress WHERE id = 1`).pluck().get() as string | undefined;
        return v === undefined ? null : (JSON.parse(v) as { report: { undone: number } }).report.undone;
      } catch {
        return null; // (busy: try again)
      } finally {
        db.close();
      }
    };
    const t0 = Date.now();
    while (!((progress() ?? 0) > 0)) {
      if (child.exitCode !== null) throw new Error(`the undo ended before a chunk was seen committed: ${child.exitCode} ${err}`);
      if (Date.now() - t0 > 30_000) throw new Error('no chunk of the undo committed in 30 s');
      await new Promise((r) => setTimeout(r, 2));
    }
    child.kill(sig);
    const [code, signal] = await exited;
    return { code, signal, err };
  }

  it('import undo killed (SIGKILL) between its chunks: the next command finishes the undo and says so; import undo then reports it', async () => {
    expect((await undoSignalledAfterAChunk('SIGKILL')).signal).toBe('SIGKILL');
    // Run again, import undo: its open finishes the undo (a note on stderr), and it reports that undo.
    const undo = await runCli('import', 'undo', w);
    expect(undo.code, undo.err).toBe(0);
    expect(undo.err).toMatch(/^note: finished undoing the questions-jsonl import of q\.jsonl started \S+, whose undo was interrupted \(its process is gone\): undid the .*: took out 150,000 questions/m);
    // Said before it is finished too, with how far the killed undo had got (a large one takes seconds before the command runs).
    expect(undo.err).toMatch(/^note: finishing the undo of the questions-jsonl import of q\.jsonl started \S+, whose undo was interrupted \(its process is gone\): [1-9][\d,]* of [\d,]+ rows and journal entries done\n(.*\n)*note: finished undoing /m);
    expect(undo.out).toMatch(/^undid the questions-jsonl import of q\.jsonl started \S+: took out 150,000 questions/);
    const stats = await runCli('stats', w, '--json');
    expect({ questions: JSON.parse(stats.out).questions, err: stats.err }).toEqual({ questions: 0, err: '' });
    expect(besides()).toEqual(['w.qpairs']);
  });

  it('import undo cancelled (Ctrl-C) between its chunks says how far it got (not "nothing was changed"); a reader leaves it, the next writing command finishes it', async () => {
    const r = await undoSignalledAfterAChunk('SIGINT');
    expect({ code: r.code, signal: r.signal }).toEqual({ code: 130, signal: null });
    expect(r.err).toMatch(
      /^qpairs import undo: cancelled: the undo stopped partway \([\d,]+ of [\d,]+ rows and journal entries done\): the import is partly undone until the undo is run again, which carries on where it stopped; the next command that opens the workspace for writing finishes it\n$/m,
    );
    expect(besides()).toEqual(['w.qpairs']);
    // A command that only reads leaves it (it writes nothing), saying which command finishes it.
    const stats = await runCli('stats', w, '--json');
    expect(stats.err).toMatch(/^note: the questions-jsonl import of q\.jsonl started \S+ is partly undone: its undo was interrupted \(its process is gone\) with [1-9][\d,]* of [\d,]+ rows .*`qpairs import undo \S+` finishes it/);
    expect(JSON.parse(stats.out).questions).toBeGreaterThan(0);
    const label = await runCli('annotators', 'add', w, 'bob');
    expect(label.err).toMatch(/^note: finishing the undo of the questions-jsonl import of q\.jsonl started \S+, whose undo was interrupted \(its process is gone\): [1-9]/);
    expect(label.err).toMatch(/^note: finished undoing the questions-jsonl import of q\.jsonl started \S+, whose undo was interrupted \(its process is gone\)/m);
    expect(JSON.parse((await runCli('stats', w, '--json')).out).questions).toBe(0);
  });

  it('cancels train from its start: no model stored, no lock left', async () => {
    const imp = await runCli('import', w, '--format', 'semeval', '--pool', 'dev', dataset('semeval2016-task3/SemEval2016-Task3-CQA-QL-dev.xml'));
    expect(imp.code, imp.err).toBe(0);

    const r = await interruptOnceLocked('train', w, '--model', 'fused', '--name', 'fu', '--train-pool', 'dev', '--epochs', '1');
    expect({ code: r.code, signal: r.signal, err: r.err }).toEqual({ code: 130, signal: null, err: 'qpairs train: cancelled; nothing was changed\n' });
    expect(besides()).toEqual(['w.qpairs']);
    const models = await runCli('models', 'list', w, '--json');
    expect(JSON.parse(models.out).models).toEqual([]);
  });
});
