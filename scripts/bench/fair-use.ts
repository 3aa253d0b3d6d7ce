/**
 * Issue 23, fair use: label latency while one annotator floods the server with searches.
 *
 * Builds a workspace of `--questions N` (default 50,000) generated Stack Exchange questions
 * (se-dump.ts, recombined real text), a 20-query pool, and invites alice and bob (their tokens
 * kept hashed in the workspace). Starts `qpairs serve W --require-tokens` as its own process,
 * then, from this process: bob labels `--labels L` (default 200) pairs one after another with
 * nothing else running (idle), and again while alice keeps `--flood C` (default 32) searches of
 * 10,000 characters in flight (each answer, 200 or 429, is followed at once by another: a client
 * that ignores Retry-After). Prints label p50/p99/max for both, the ratio of the p99s (goal: flood
 * p99 ≤ 3× idle p99), and how alice's searches were answered (200 / 429) with their latency.
 * The server listens on `--port P` (default: a random port from 20000 to 39999).
 *
 *   node scripts/build-node.mjs && node out/node/bench-fair-use.mjs [--questions 50000] [--labels 200] [--flood 32] [--port P] [--json FILE] [--keep]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Engine } from '../../src/main/engine/engine';
import { jobDoneOf } from './fair-use-jobs';
import { writeStackExchangeDump } from './se-dump';
import { checkCounts, checkOptions, checkPort, exitOnUsageError } from './bench-options';

// Before parseArgs, whose refusal of an unknown option was a stack trace.
exitOnUsageError('bench:fair-use', () => {
  checkOptions(['questions', 'labels', 'flood', 'port', 'json'], ['keep']);
  checkCounts(['questions', 'labels', 'flood']);
  checkPort('port');
});
const { values } = parseArgs({
  options: {
    questions: { type: 'string', default: '50000' },
    labels: { type: 'string', default: '200' },
    flood: { type: 'string', default: '32' },
    port: { type: 'string' },
    json: { type: 'string' },
    keep: { type: 'boolean' },
  },
});
const N = Number(values.questions);
const LABELS = Number(values.labels);
const FLOOD = Number(values.flood);

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}
const fmt = (xs: number[]): string => `p50 ${pct(xs, 50).toFixed(1)} ms, p99 ${pct(xs, 99).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms (n=${xs.length})`;

/** The flood's texts: 10,000 characters each, of the workspace's own questions (so most words are in the index). */
const floodTexts: string[] = [];
function text(i: number): string {
  return floodTexts[i % floodTexts.length]!;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-bench-fair-'));
  let server: ChildProcess | null = null;
  try {
    console.log(`writing a dump of ${N} questions…`);
    const d = writeStackExchangeDump({ questions: N, dir: path.join(dir, 'dump'), answersPerQuestion: 0 });
    const file = path.join(dir, 'w.qpairs');
    const { Workspace } = await import('../../src/main/workspace/workspace');
    Workspace.create(file).close();
    const engine = Engine.open(file, { transport: 'electron' });
    let tokens: { alice: string; bob: string };
    let pairs: Array<{ queryId: string; candidateId: string }> = [];
    try {
      const t0 = performance.now();
      const { jobId } = (await engine.invoke('import.start', { format: 'stackexchange', sources: [{ path: d.postsFile }], source: 'bench' })) as { jobId: string };
      const done = await jobDoneOf(engine, jobId);
      if (!done.ok) throw new Error(done.error);
      console.log(`imported in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      await engine.invoke('pool.create', { name: 'p', sample: { n: 20, seed: 1 }, depth: 20 });
      await engine.invoke('pool.assign', { pool: 'p', annotators: ['bob'] });
      const alice = (await engine.invoke('annotator.invite', { name: 'alice' })) as { token: string };
      const bob = (await engine.invoke('annotator.invite', { name: 'bob' })) as { token: string };
      tokens = { alice: alice.token, bob: bob.token };
      const bodies = engine.ws.db.prepare(`SELECT title || ' ' || body FROM questions WHERE doc % 97 = 0 LIMIT 2000`).pluck().all() as string[];
      for (let t = 0, k = 0; t < 64; t++) {
        let s = '';
        while (s.length < 10_000) s += `${bodies[k++ % bodies.length]} `;
        floodTexts.push(s.slice(0, 10_000));
      }
      const one: number[] = [];
      for (let i = 0; i < 21; i++) {
        const t = performance.now();
        await engine.invoke('questions.search', { text: text(i * 1000), limit: 50 });
        if (i > 0) one.push(performance.now() - t);
      }
      console.log(`one 10,000-character search, in process: ${fmt(one)}`);
      pairs = engine.ws.poolQueries('p').flatMap((q) => q.candidates.map((c) => ({ queryId: q.queryId, candidateId: c })));
    } finally {
      engine.close();
    }

    const port = values.port !== undefined ? Number(values.port) : 20000 + Math.floor(Math.random() * 20000);
    const cli = path.join(import.meta.dirname, '..', '..', 'bin', 'qpairs.mjs');
    server = spawn(process.execPath, [cli, 'serve', file, '--port', String(port), '--require-tokens'], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      server!.stdout!.on('data', (b: Buffer) => {
        if (/QPairs serving/.test(String(b))) resolve();
      });
      server!.once('exit', (c) => reject(new Error(`server exited (${c})`)));
    });
    console.log(`serving on port ${port}`);
    const url = `http://127.0.0.1:${port}/api/invoke`;
    // node:http with an unbounded keep-alive agent: every one of the flood's requests is really in flight.
    const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
    const call = (token: string, command: string, args: unknown): Promise<{ status: number; ms: number }> =>
      new Promise((resolve, reject) => {
        const t = performance.now();
        const body = JSON.stringify({ command, args });
        const req = http.request(
          url,
          { method: 'POST', agent, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), 'X-QPairs': '1', Authorization: `Bearer ${token}` } },
          (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t }));
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    let k = 0;
    const label = async (): Promise<number> => {
      const p = pairs[k++ % pairs.length]!;
      const r = await call(tokens.bob, 'label.set', { pool: 'p', queryId: p.queryId, candidateId: p.candidateId, annotator: 'bob', value: k % 2 ? '1' : '0' });
      if (r.status !== 200) throw new Error(`label answered ${r.status}`);
      return r.ms;
    };
    for (let i = 0; i < 20; i++) await label(); // warm-up
    const idle: number[] = [];
    for (let i = 0; i < LABELS; i++) idle.push(await label());

    let flooding = true;
    const answers = { ok: 0, busy: 0, other: 0 };
    const searchMs: number[] = [];
    const one = async (i: number): Promise<void> => {
      while (flooding) {
        const r = await call(tokens.alice, 'questions.search', { text: text(i++), limit: 50 });
        if (r.status === 200) {
          answers.ok++;
          searchMs.push(r.ms);
        } else if (r.status === 429) answers.busy++;
        else answers.other++;
      }
    };
    const floods = Array.from({ length: FLOOD }, (_, i) => one(i * 1000));
    await new Promise((r) => setTimeout(r, 500));
    const flooded: number[] = [];
    for (let i = 0; i < LABELS; i++) flooded.push(await label());
    flooding = false;
    await Promise.all(floods);
    agent.destroy();

    const ratio = pct(flooded, 99) / pct(idle, 99);
    console.log(`label.set, idle:               ${fmt(idle)}`);
    console.log(`label.set, ${FLOOD} searches flooding: ${fmt(flooded)}`);
    console.log(`p99 flood / idle: ${ratio.toFixed(2)}× (goal ≤ 3×: ${ratio <= 3 ? 'met' : 'missed'})`);
    console.log(`alice's searches: ${answers.ok} answered (${searchMs.length ? fmt(searchMs) : '—'}), ${answers.busy} refused with 429, ${answers.other} other`);
    if (values.json) writeFileSync(values.json, JSON.stringify({ questions: N, flood: FLOOD, idle: { p50: pct(idle, 50), p99: pct(idle, 99), max: Math.max(...idle) }, flooded: { p50: pct(flooded, 50), p99: pct(flooded, 99), max: Math.max(...flooded) }, ratio, answers }, null, 2));
  } finally {
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => server!.once('exit', r));
    }
    if (!values.keep) rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
