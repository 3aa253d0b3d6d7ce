/**
 * An acknowledged label survives a crash: serve mode (loopback, no tokens: the owner) is killed
 * with SIGKILL in the middle of a burst of labeling by four concurrent annotators, once at least
 * 1,000 labels were acknowledged; every acknowledged label must be in the workspace afterwards
 * (same event, same value; nothing older on top of it), the file must pass integrity_check, and
 * reopening resumes at the first unfinished query. Then the same while an import started through
 * the server is running: after the kill, the reopened workspace has every acknowledged label and
 * none of the interrupted import (its committed chunks are rolled back at the open).
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Workspace } from '../../src/main/workspace/workspace';
import { Engine } from '../../src/main/engine/engine';
import { dataset } from '../datasets';
import type { QueryView } from '../../src/shared/contract';

const root = path.resolve(import.meta.dirname, '../..');
const qpairs = path.join(root, 'bin/qpairs.mjs');
const WRITERS = 4;
const KILL_AFTER = 1000;

interface Acked {
  seq: number;
  annotator: string;
  q: string;
  c: string;
  value: string;
}

let dir: string;
let seeded: string;
let pairs: Array<{ q: string; c: string }>;

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-dur-'));
  seeded = path.join(dir, 'seed.qpairs');
  execFileSync(process.execPath, [qpairs, 'init', seeded]);
  execFileSync(process.execPath, [qpairs, 'import', seeded, '--format', 'semeval', '--pool', 'dev', dataset('semeval2016-task3/SemEval2016-Task3-CQA-QL-dev.xml')]);
  const ws0 = Workspace.open(seeded);
  pairs = ws0.poolQueries('dev').flatMap((q) => q.candidates.map((c) => ({ q: q.queryId, c })));
  ws0.close();
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A copy of the seeded workspace (a checkpointed single file). */
function workspaceCopy(name: string): string {
  const w = path.join(dir, name);
  const db = new Database(seeded);
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  execFileSync('cp', [seeded, w]);
  return w;
}

async function serve(w: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [qpairs, 'serve', w, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(buf);
      if (m) resolve(m[1]!);
    });
    child.stderr!.on('data', (d: Buffer) => (buf += d.toString()));
    child.on('exit', (code) => reject(new Error(`serve exited early (${code}): ${buf}`)));
    setTimeout(() => reject(new Error(`serve did not start: ${buf}`)), 20_000);
  });
  return { child, url };
}

async function invoke(url: string, command: string, args: unknown): Promise<unknown> {
  const res = await fetch(`${url}/api/invoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-qpairs': '1' },
    body: JSON.stringify({ command, args }),
  });
  if (!res.ok) throw new Error(`${command}: HTTP ${res.status}: ${await res.text()}`);
  return res.json();
}

/**
 * Four annotators (ann0…ann3), one request at a time each, going round the pool's pairs with a new
 * value every visit; `shouldKill` is asked after every acknowledgement, and the server is killed
 * with SIGKILL (other requests still in flight) when it says so.
 */
async function labelUntilKilled(child: ChildProcess, url: string, shouldKill: (acked: number) => boolean): Promise<Acked[]> {
  const values = ['PerfectMatch', 'Relevant', 'Irrelevant'];
  const acked: Acked[] = [];
  let killed = false;
  const writer = async (w: number): Promise<void> => {
    const annotator = `ann${w}`;
    for (let i = 0; !killed; i++) {
      const { q, c } = pairs[i % pairs.length]!;
      const value = values[(Math.floor(i / pairs.length) + w) % 3]!;
      try {
        const ack = (await invoke(url, 'label.set', { pool: 'dev', queryId: q, candidateId: c, annotator, value })) as { seq: number; saved: boolean };
        if (ack.saved && ack.seq) acked.push({ seq: ack.seq, annotator, q, c, value });
        if (!killed && shouldKill(acked.length)) {
          killed = true;
          child.kill('SIGKILL');
        }
      } catch (e) {
        if (!killed) throw e;
      }
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
  if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
  expect(child.signalCode).toBe('SIGKILL');
  return acked;
}

/** Every acknowledged label event is on disk as acknowledged, and nothing older than it is its pair's current label. */
function expectAllAcked(ws: Workspace, acked: Acked[]): void {
  const event = ws.db.prepare(
    `SELECT a.name AS annotator, l.query_id AS q, l.candidate_id AS c, l.value FROM labels l JOIN annotators a ON a.id = l.annotator_id WHERE l.seq = ?`,
  );
  const lost = acked.filter((a) => {
    const e = event.get(a.seq) as Omit<Acked, 'seq'> | undefined;
    return !e || e.annotator !== a.annotator || e.q !== a.q || e.c !== a.c || e.value !== a.value;
  });
  expect(lost).toEqual([]);
  const latestAcked = new Map<string, number>();
  for (const a of acked) {
    const k = `${a.annotator}|${a.q}|${a.c}`;
    latestAcked.set(k, Math.max(latestAcked.get(k) ?? 0, a.seq));
  }
  const current = new Map<string, number>();
  for (let w = 0; w < WRITERS; w++) for (const l of ws.currentLabels('dev', `ann${w}`)) current.set(`ann${w}|${l.queryId}|${l.candidateId}`, l.seq);
  const overwritten = [...latestAcked].filter(([k, seq]) => (current.get(k) ?? 0) < seq);
  expect(overwritten).toEqual([]);
  expect(ws.db.pragma('integrity_check', { simple: true })).toBe('ok');
  expect(ws.db.pragma('foreign_key_check')).toEqual([]);
}

describe('durability', () => {
  it('loses no acknowledged label when the server is killed with SIGKILL mid-burst (4 writers, ≥ 1,000 acks)', async () => {
    const w = workspaceCopy('burst.qpairs');
    const { child, url } = await serve(w);
    try {
      const acked = await labelUntilKilled(child, url, (n) => n >= KILL_AFTER);
      expect(acked.length).toBeGreaterThanOrEqual(KILL_AFTER);

      const ws = Workspace.open(w);
      expectAllAcked(ws, acked);
      // Reopening resumes at the first query ann0 has not finished.
      const current = new Set(ws.currentLabels('dev', 'ann0').map((l) => `${l.queryId}|${l.candidateId}`));
      const engine = new Engine(ws, { transport: 'http' });
      const view = (await engine.invoke('annotate.query', { pool: 'dev', annotator: 'ann0' })) as QueryView;
      const queries = ws.poolQueries('dev');
      const firstUnfinished = queries.findIndex((q) => q.candidates.some((c) => !current.has(`${q.queryId}|${c}`)));
      expect(view.index).toBe(firstUnfinished === -1 ? 0 : firstUnfinished);
      engine.close();
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });

  /** The import journal: its header (state and what) and its entries' count. */
  const journalOf = (ws: Workspace): unknown =>
    ws.db.prepare(`SELECT state, what, (SELECT count(*) FROM import_undo) AS entries FROM import_journal`).all();

  it('loses no acknowledged label, and rolls the interrupted import back, when killed during an import', async () => {
    const w = workspaceCopy('importing.qpairs');
    const base = (() => {
      const ws = Workspace.open(w);
      const s = { questions: ws.questionCount(), imports: ws.listImports().length, indexed: ws.stats().indexedQuestions, journal: journalOf(ws) };
      ws.close();
      return s;
    })();
    // 300,000 questions (about 120 MB): the import runs for several seconds, in chunks — long enough
    // for 1,000 acknowledged labels on a loaded machine (at 150,000 it once finished first in CI).
    const N = 300_000;
    const corpus = path.join(dir, 'many.jsonl');
    const out = createWriteStream(corpus);
    for (let i = 0; i < N; i++) {
      const line = `{"id":"dur${i}","title":"question ${i} about topic ${i % 97}","body":"${'some words of a body text '.repeat(12)}${i}"}\n`;
      if (!out.write(line)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'finish');

    const { child, url } = await serve(w);
    try {
      const { jobId } = (await invoke(url, 'import.start', { format: 'questions-jsonl', sources: [{ path: corpus }] })) as { jobId: string };
      expect(jobId).toBeTruthy();
      // Kill once 1,000 labels are acknowledged and the import has committed chunks but not finished.
      let importing = false;
      let finished = false; // (if the import won the race the test could not show anything: it fails instead of hanging)
      const poll = setInterval(() => {
        void invoke(url, 'workspace.stats', {}).then(
          (s) => {
            const q = (s as { questions: number }).questions;
            importing = q > base.questions && q < base.questions + N;
            finished ||= q >= base.questions + N;
          },
          () => {},
        );
      }, 50);
      const acked = await labelUntilKilled(child, url, (n) => (n >= KILL_AFTER && importing) || finished).finally(() => clearInterval(poll));
      expect(finished, 'the import finished before 1,000 labels were acknowledged').toBe(false);
      expect(acked.length).toBeGreaterThanOrEqual(KILL_AFTER);

      // As the kill left it: the import's committed chunks and its journal are on disk.
      const raw = new Database(w);
      expect(raw.prepare(`SELECT state FROM import_journal`).pluck().get()).toBe('running');
      const partial = raw.prepare(`SELECT count(*) FROM questions WHERE id LIKE 'dur%'`).pluck().get() as number;
      expect(partial).toBeGreaterThan(0);
      expect(partial).toBeLessThan(N);
      raw.close();

      // Reopened for writing: the interrupted import is rolled back, the labels stay.
      const ws = Workspace.open(w);
      expectAllAcked(ws, acked);
      expect(ws.db.prepare(`SELECT count(*) FROM questions WHERE id LIKE 'dur%'`).pluck().get()).toBe(0);
      expect(ws.questionCount()).toBe(base.questions);
      expect(ws.listImports().length).toBe(base.imports);
      expect(ws.stats().indexedQuestions).toBe(base.indexed);
      // The import before it is the one to undo again, its journal as it was.
      expect(journalOf(ws)).toEqual(base.journal);
      ws.close();
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    // 20-30 s alone on this 2-core machine; a fresh-clone run with other work on the machine took over 60.
  }, 180_000);
});
