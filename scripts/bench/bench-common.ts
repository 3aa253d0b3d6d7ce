/**
 * Pieces the BM25 benchmarks share (bm25.ts: a Stack Exchange dump at one size; scale.ts: the cost
 * curve over sizes): command-line arguments, quantiles, timing `node` children with their peak RSS,
 * the timed top-k query run on a workspace's persisted index (run in a child process), the export
 * of the stored texts for Lucene, running tests/reference/LuceneBench.java, and comparing top-k lists.
 */
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, statSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Bm25Index } from '../../src/main/bm25/bm25-index';
import { BenchUsageError } from './bench-options';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The checkout (the folder with bin/qpairs.mjs), from this bundle (out/node/) or the working directory. */
export const root = [path.resolve(here, '../..'), path.resolve(here, '..'), process.cwd()].find((d) => existsSync(path.join(d, 'bin', 'qpairs.mjs')))!;

export function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? undefined : process.argv[i + 1];
}
export function numArg(name: string, def: number): number {
  const v = arg(name);
  if (v === undefined) return def;
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new BenchUsageError(`--${name} needs a positive integer, got ${v}`);
  return n;
}

export const now = () => performance.now();
export function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}
export const fmt = (x: number, d = 1) => x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });

// ------------------------------------------------------------------ timed children

export interface Timed {
  seconds: number;
  /** The child's peak RSS: the larger of its own maxRSS (main and worker threads) and /usr/bin/time's (with its children). */
  peakRssMB: number;
  /** The child's CPU time, user + system, all its threads (process.resourceUsage() at exit). */
  cpuSeconds: number;
  stdout: string;
}

const GNU_TIME = '/usr/bin/time';

/** Runs `node ARGS` (this Node) with a hook that records the process's peak RSS; throws with its stderr on failure. */
export function runNode(tmp: string, args: string[], what: string): Timed {
  const hook = path.join(tmp, 'rss-hook.mjs');
  // Written each time, so a kept work dir (--keep) never runs an older hook.
  writeFileSync(
      hook,
      `import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => { const u = process.resourceUsage(); writeFileSync(process.env.QPAIRS_BENCH_RSS, u.maxRSS + ' ' + (u.userCPUTime + u.systemCPUTime)); });\n`,
    );
  const stamp = process.hrtime.bigint();
  const rssFile = path.join(tmp, `rss-${stamp}`);
  const timeFile = path.join(tmp, `time-${stamp}`);
  const nodeArgs = ['--import', `file://${hook}`, ...args];
  const useTime = existsSync(GNU_TIME);
  const t0 = now();
  const r = spawnSync(useTime ? GNU_TIME : process.execPath, useTime ? ['-v', '-o', timeFile, process.execPath, ...nodeArgs] : nodeArgs, {
    env: { ...process.env, QPAIRS_BENCH_RSS: rssFile },
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const seconds = (now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`${what} failed (exit ${r.status ?? r.signal}):\n${r.stderr}`);
  const [maxRss, cpuMicros] = readFileSync(rssFile, 'utf8').split(' ').map(Number) as [number, number | undefined];
  let kb = maxRss;
  if (useTime && existsSync(timeFile)) {
    const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(readFileSync(timeFile, 'utf8'));
    if (m) kb = Math.max(kb, Number(m[1]));
  }
  return { seconds, peakRssMB: kb / 1024, cpuSeconds: (cpuMicros ?? NaN) / 1e6, stdout: r.stdout };
}

// ------------------------------------------------------------------ timed queries (in a child)

export interface QueryRun {
  db: Database.Database;
  index: Bm25Index;
  queries: Array<{ id: string; row: { doc: number; title: string; body: string } }>;
  loadMs: number;
  /** Per-query milliseconds of the timed queries, sorted. */
  ms: number[];
  queryMedianMs: number;
  queryP99Ms: number;
}

/**
 * Opens workspace `ws` read-only, loads its persisted BM25 index (as pool creation does), runs
 * `warmup` untimed queries (cycling through the list), then each question of `queryFile` (one id a
 * line) once as a top-k query on its title + body, the question itself excluded; writes the lists
 * to `outFile` (`id \t hit:score …`). The caller closes `db`.
 */
export function timeQueries(ws: string, queryFile: string, outFile: string, k = 20, warmup = 50): QueryRun {
  const db = new Database(ws, { readonly: true });
  const t0 = now();
  const index = Bm25Index.load(db);
  const loadMs = now() - t0;
  const byId = db.prepare('SELECT doc, title, body FROM questions WHERE id = ?');
  const idOf = db.prepare('SELECT id FROM questions WHERE doc = ?').pluck();
  const queries = readFileSync(queryFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((id) => ({ id, row: byId.get(id) as { doc: number; title: string; body: string } }));
  for (let i = 0; i < warmup && queries.length; i++) {
    const q = queries[i % queries.length]!;
    index.searchDocument({ doc: q.row.doc, title: q.row.title, body: q.row.body }, k);
  }
  const ms: number[] = [];
  const lines: string[] = [];
  for (const q of queries) {
    const s = now();
    const hits = index.searchDocument({ doc: q.row.doc, title: q.row.title, body: q.row.body }, k);
    ms.push(now() - s);
    lines.push(`${q.id}\t${hits.map((h) => `${idOf.get(h.doc) as string}:${h.score}`).join(' ')}`);
  }
  writeFileSync(outFile, lines.join('\n') + '\n');
  ms.sort((a, b) => a - b);
  return { db, index, queries, loadMs, ms, queryMedianMs: quantile(ms, 0.5), queryP99Ms: quantile(ms, 0.99) };
}

// ------------------------------------------------------------------ top-k lists

export interface Hit {
  id: string;
  score: number;
}

export function readTop(file: string): Map<string, Hit[]> {
  const out = new Map<string, Hit[]>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    const [q, hits = ''] = line.split('\t');
    out.set(
      q!,
      hits
        ? hits.split(' ').map((h) => {
            const i = h.lastIndexOf(':');
            return { id: h.slice(0, i), score: Number(h.slice(i + 1)) };
          })
        : [],
    );
  }
  return out;
}

export interface ListAgreement {
  identical: number;
  identicalUpToTies: number;
  overlap: number;
  n: number;
}

/**
 * Identical lists (same ids in the same order); identical up to ties (the same scores rank by rank,
 * within 1e-5 relative — Lucene scores in float32, so documents whose scores tie there may come in
 * another order, and a tie at rank k may keep another document); and mean overlap@k of the id sets.
 */
export function compareLists(a: Map<string, Hit[]>, b: Map<string, Hit[]>, k = 20): ListAgreement {
  let identical = 0;
  let upToTies = 0;
  let overlap = 0;
  let n = 0;
  for (const [q, x] of a) {
    const y = b.get(q);
    if (!y) continue;
    n++;
    if (x.length === y.length && x.every((d, i) => d.id === y[i]!.id)) identical++;
    if (x.length === y.length && x.every((d, i) => Math.abs(d.score - y[i]!.score) <= 1e-5 * Math.max(1, Math.abs(d.score)))) upToTies++;
    const s = new Set(y.map((h) => h.id));
    overlap += x.filter((d) => s.has(d.id)).length / Math.max(1, Math.min(k, x.length, y.length) || 1);
  }
  return { identical, identicalUpToTies: upToTies, overlap: n ? overlap / n : 0, n };
}

// ------------------------------------------------------------------ Lucene 8

/** The Lucene 8 jars LuceneBench and LuceneReference compile against (core, analyzers-common), or null without them or javac. */
export function luceneJars(): string[] | null {
  const dir = '/usr/share/java';
  if (!existsSync(dir)) return null;
  const files = readdirSync(dir);
  const core = files.find((f) => /^lucene-core-8[\d.]*\.jar$/.test(f));
  const common = files.find((f) => /^lucene-analyzers-common-8[\d.]*\.jar$/.test(f));
  if (!core || !common) return null;
  const javac = spawnSync('javac', ['-version'], { encoding: 'utf8' });
  if (javac.status !== 0) return null;
  return [path.join(dir, core), path.join(dir, common)];
}

/** "Lucene 8.8.1" from the core jar's manifest (Debian names its jars 8.7.0 whatever it ships), else the jar's name. */
export function luceneVersion(coreJar: string): string {
  const r = spawnSync('unzip', ['-p', coreJar, 'META-INF/MANIFEST.MF'], { encoding: 'utf8' });
  const v = r.status === 0 ? /^Specification-Version:\s*(\S+)/m.exec(r.stdout)?.[1] : undefined;
  return v ? `Lucene ${v}` : path.basename(coreJar, '.jar');
}

/** Compiles tests/reference/LuceneBench.java (+ LuceneReference.java) into `classes`; returns the classpath. */
export function compileLuceneBench(jars: string[], classes: string): string {
  mkdirSync(classes, { recursive: true });
  const sources = ['LuceneBench.java', 'LuceneReference.java'].map((f) => path.join(root, 'tests', 'reference', f));
  const c = spawnSync('javac', ['-d', classes, '-cp', jars.join(':'), ...sources], { encoding: 'utf8' });
  if (c.status !== 0) throw new Error(`javac failed:\n${c.stderr}`);
  return [classes, ...jars].join(':');
}

export interface LuceneResult {
  docs: number;
  buildSeconds: number;
  /** The JVM's CPU time (user + system, all threads: JIT, GC, merges) from the first addDocument to the end of commit, reading the file included. */
  buildCpuSeconds: number;
  indexPerSec: number;
  queryMedianMs: number;
  queryP99Ms: number;
  peakRssMB: number;
  segments: number;
}

/** Runs LuceneBench (see that file) on CORPUS.tsv and QUERIES.txt: builds the index in `indexDir`, writes the top-20 lists to `outTop`. */
export function runLuceneBench(classpath: string, corpus: string, queryFile: string, indexDir: string, outTop: string, xmx = '990m'): LuceneResult {
  const r = spawnSync('java', [`-Xmx${xmx}`, '-cp', classpath, 'LuceneBench', corpus, queryFile, indexDir, outTop], { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`LuceneBench failed:\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as LuceneResult;
}

/** The stored texts as Lucene reads them: `id \t title \t body`, tabs and newlines as spaces. */
export function exportCorpus(ws: string, file: string): void {
  const db = new Database(ws, { readonly: true });
  const fd = openSync(file, 'w');
  let buf: string[] = [];
  let size = 0;
  const clean = (s: string) => s.replace(/[\t\r\n]/g, ' ');
  for (const r of db.prepare('SELECT id, title, body FROM questions ORDER BY doc').iterate() as Iterable<{ id: string; title: string; body: string }>) {
    const line = `${r.id}\t${clean(r.title)}\t${clean(r.body)}\n`;
    buf.push(line);
    size += line.length;
    if (size > 1 << 20) {
      writeSync(fd, buf.join(''));
      buf = [];
      size = 0;
    }
  }
  writeSync(fd, buf.join(''));
  closeSync(fd);
  db.close();
}

// ------------------------------------------------------------------ sizes on disk

/** Bytes of a file and its -wal (0 for missing files). */
export function workspaceBytes(ws: string): number {
  return [ws, `${ws}-wal`].filter(existsSync).reduce((s, f) => s + statSync(f).size, 0);
}

/** Bytes of the pages of the BM25 tables (bm25_*) and their indexes in a workspace, from SQLite's dbstat. */
export function bm25TableBytes(ws: string): number {
  const db = new Database(ws, { readonly: true });
  try {
    const rows = db.prepare(`SELECT s.name AS name, SUM(s.pgsize) AS bytes FROM dbstat s GROUP BY s.name`).all() as Array<{ name: string; bytes: number }>;
    const owner = new Map(
      (db.prepare(`SELECT name, tbl_name FROM sqlite_schema`).all() as Array<{ name: string; tbl_name: string }>).map((r) => [r.name, r.tbl_name]),
    );
    return rows.filter((r) => /^bm25_/.test(owner.get(r.name) ?? r.name)).reduce((s, r) => s + r.bytes, 0);
  } finally {
    db.close();
  }
}

/** Total bytes of the files under `dir` (0 when missing). */
export function dirBytes(dir: string): number {
  if (!existsSync(dir)) return 0;
  let total = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    total += e.isDirectory() ? dirBytes(p) : statSync(p).size;
  }
  return total;
}
