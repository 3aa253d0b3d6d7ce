/**
 * `npm run bench:bm25 [-- --docs 1000000 --queries 300 --seed 7 --json FILE --keep DIR]`: QPairs' whole
 * Stack Exchange import and BM25 top-20 retrieval against real Lucene 8 on the same corpus and the
 * same queries, in one run.
 *
 * 1. A Stack Exchange dump of N questions (se-dump.ts: recombined real text, real lengths, answers,
 *    tags, links) is written to a temporary folder.
 * 2. Ours: `qpairs init` + `qpairs import W --format stackexchange DIR` as separate processes, as a
 *    user runs them: wall time of the whole import (XML parsing, HTML to text, SQLite rows of questions
 *    and answers, BM25 index, persist, commit), its CPU time (user + system, all threads) and its peak
 *    RSS (the process's own maxRSS). indexPerSec = N / that wall time. The ceiling line: N × cores /
 *    that CPU time, the rate no schedule of the same work could pass on this machine.
 * 3. Ours, queries: a child process opens the workspace's persisted index (as pool creation does),
 *    runs 50 warm-up queries, then the Q sampled questions (title + body, the question itself
 *    excluded, top 20) once each: median and p99 latency, peak RSS. Then `qpairs pool create` with
 *    the same Q queries, timed whole; then `qpairs corpus index` (the index alone, rebuilt from the
 *    stored texts: the like-for-like figure to Lucene's add + commit, printed beside the goal's).
 * 4. Lucene 8 (where `java` and Debian's liblucene8-java are installed): tests/reference/LuceneBench.java
 *    compiled and run with -Xmx990m on the texts QPairs stored (id, title, body), see that file for
 *    what it times (wall and the JVM's CPU time of the build); the top-20 lists of both are compared
 *    (identical lists, mean overlap@20).
 * 5. SQLite FTS5 on the same texts with at most --fts5-queries (default 50) queries: at 1M its OR
 *    queries take seconds each, so it is a floor, not a peer.
 * 6. The rows alone: a child process reads the questions and answers the import stored into memory,
 *    then inserts them into a new database with the workspace's own two tables (their indexes and
 *    foreign key), as the import writes them (each question followed by its answers, a commit every
 *    500 ms, WAL, synchronous FULL), and times the inserts only: no parsing, no HTML, no index, no
 *    undo journal. What storing the rows costs by itself, beside Lucene's whole build.
 *
 * Goals (issue 14, at 1M): whole import >= Lucene's indexing rate, top-20 median <= 0.5x Lucene's,
 * peak RSS <= 1 GiB. `--json FILE` writes {"docs", "ours": {"indexPerSec", "queryMedianMs",
 * "peakRssMB"}, "lucene": {...} | null} (+ details).
 */
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { blockMaxTotals } from '../../src/main/bm25/block-max-scoring';
import { Tokenizer } from '../../src/main/bm25/tokenizer';
import {
  arg,
  compareLists,
  compileLuceneBench,
  exportCorpus,
  fmt,
  luceneJars,
  now,
  numArg,
  quantile,
  readTop,
  root,
  runLuceneBench,
  runNode,
  timeQueries,
  workspaceBytes,
  type LuceneResult,
} from './bench-common';
import { checkOptions, exitOnUsageError } from './bench-options';
import { writeStackExchangeDump } from './se-dump';
import { mulberry32 } from '../../src/main/stats/random';

const K = 20;

// ------------------------------------------------------------------ child: our queries

/** `--child-queries W QUERIES OUT`: times top-20 searches on the persisted index, writes OUT (TSV) and prints JSON. */
function childQueries(ws: string, queryFile: string, outFile: string): void {
  const { db, index, queries, loadMs, queryMedianMs, queryP99Ms } = timeQueries(ws, queryFile, outFile, K);
  // Exact block-max dynamic pruning (src/main/bm25/block-max-scoring.ts) beside the default exhaustive scan, on the
  // same index and queries, alternating query by query; the lists must be identical.
  const exhaustiveMs: number[] = [];
  const prunedMs: number[] = [];
  let differ = 0;
  const before = { ...blockMaxTotals };
  for (const q of queries) {
    const d = { doc: q.row.doc, title: q.row.title, body: q.row.body };
    let s = now();
    const a = index.searchDocument(d, K, { scan: 'dense' });
    exhaustiveMs.push(now() - s);
    s = now();
    const b = index.searchDocument(d, K, { scan: 'pruned' });
    prunedMs.push(now() - s);
    if (JSON.stringify(a) !== JSON.stringify(b)) differ++;
  }
  exhaustiveMs.sort((x, y) => x - y);
  prunedMs.sort((x, y) => x - y);
  const t = blockMaxTotals;
  const share = (key: keyof typeof t, of: keyof typeof t): number => (t[of] - before[of] ? (t[key] - before[key]) / (t[of] - before[of]) : 0);
  const pruning = {
    exhaustiveMedianMs: quantile(exhaustiveMs, 0.5),
    exhaustiveP99Ms: quantile(exhaustiveMs, 0.99),
    prunedMedianMs: quantile(prunedMs, 0.5),
    prunedP99Ms: quantile(prunedMs, 0.99),
    differentLists: differ,
    postingsScoredShare: share('postingsScored', 'postings'),
    windowsSkippedShare: share('windowsSkipped', 'windows'),
    windowsWholeShare: share('windowsWhole', 'windows'),
    lookupsPerQuery: (t.lookups - before.lookups) / Math.max(1, t.searches - before.searches),
  };
  console.log(JSON.stringify({ loadMs, queryMedianMs, queryP99Ms, pruning }));
  db.close();
}

// ------------------------------------------------------------------ FTS5 floor

function fts5(corpus: string, tmp: string, queryIds: string[], maxQueries: number): { indexPerSec: number; queryMedianMs: number; queries: number } {
  const db = new Database(path.join(tmp, 'fts5.db'));
  db.pragma('journal_mode = WAL');
  db.exec(`CREATE VIRTUAL TABLE fts USING fts5(text, content='', tokenize='unicode61 remove_diacritics 0')`);
  const ins = db.prepare('INSERT INTO fts(rowid, text) VALUES (?, ?)');
  const texts = new Map<string, string>();
  const want = new Set(queryIds.slice(0, maxQueries));
  const ids: string[] = [];
  let ms = 0;
  const lines = readFileSync(corpus, 'utf8').split('\n');
  const t0 = now();
  db.transaction(() => {
    for (const line of lines) {
      if (!line) continue;
      const a = line.indexOf('\t');
      const id = line.slice(0, a);
      const text = line.slice(a + 1);
      if (want.has(id)) texts.set(id, text);
      ids.push(id);
      ins.run(ids.length, text);
    }
  })();
  db.exec(`INSERT INTO fts(fts) VALUES('optimize')`);
  ms = now() - t0;
  const tok = new Tokenizer();
  const stmt = db.prepare(`SELECT rowid FROM fts WHERE fts MATCH ? ORDER BY rank LIMIT ${K + 1}`);
  const times: number[] = [];
  for (const id of want) {
    const terms = new Set(tok.tokenize(texts.get(id) ?? '').flatMap((w) => w.match(/[\p{L}\p{N}]+/gu) ?? []));
    if (terms.size === 0) continue;
    const s = now();
    stmt.all([...terms].map((w) => `"${w}"`).join(' OR '));
    times.push(now() - s);
  }
  db.close();
  times.sort((a, b) => a - b);
  return { indexPerSec: (ids.length / ms) * 1000, queryMedianMs: times.length ? quantile(times, 0.5) : NaN, queries: times.length };
}

// ------------------------------------------------------------------ main

/**
 * Step 6 (child process): the questions and answers of workspace `src` inserted into a new database
 * `dst` with the same tables, timed (wall and this process's CPU) around the inserts only. Prints
 * {"seconds", "cpuSeconds", "questions", "answers"}.
 */
function childSqliteRows(src: string, dst: string): void {
  const from = new Database(src, { readonly: true });
  const schema = from.prepare(`SELECT sql FROM sqlite_schema WHERE tbl_name IN ('questions', 'answers') AND sql IS NOT NULL ORDER BY tbl_name = 'answers', type = 'index'`).pluck().all() as string[];
  const questions = from.prepare(`SELECT * FROM questions ORDER BY doc`).all() as Array<Record<string, unknown>>;
  const answers = from.prepare(`SELECT id, question_id, position, source, body, author, created FROM answers ORDER BY rowid`).raw().all() as unknown[][];
  from.close();
  const to = new Database(dst);
  to.pragma('journal_mode = WAL');
  to.pragma('synchronous = FULL');
  to.pragma('foreign_keys = ON');
  to.pragma('cache_size = -65536');
  for (const sql of schema) to.exec(sql);
  const insertQuestion = to.prepare(`INSERT INTO questions(id, source, title, body, tags, author, created, category) VALUES (@id, @source, @title, @body, @tags, @author, @created, @category)`);
  const insertAnswer = to.prepare(`INSERT INTO answers(id, question_id, position, source, body, author, created) VALUES (?, ?, ?, ?, ?, ?, ?)`);
  // The dump's order: answers come after their question (an answer's question is inserted first).
  const docOf = new Map(questions.map((q, i) => [q.id as string, i]));
  const t0 = now();
  const cpu0 = process.cpuUsage();
  let a = 0;
  let chunkStart = now();
  to.exec('BEGIN');
  for (let i = 0; i < questions.length; i++) {
    insertQuestion.run(questions[i]!);
    while (a < answers.length && docOf.get(answers[a]![1] as string)! <= i) insertAnswer.run(...answers[a++]!);
    if (now() - chunkStart >= 500) {
      to.exec('COMMIT');
      to.exec('BEGIN');
      chunkStart = now();
    }
  }
  to.exec('COMMIT');
  const cpu = process.cpuUsage(cpu0);
  const seconds = (now() - t0) / 1000;
  to.close();
  console.log(JSON.stringify({ seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, questions: questions.length, answers: a }));
}

function main(): void {
  const docs = numArg('docs', 200_000);
  const nQueries = numArg('queries', 300);
  const seed = numArg('seed', 7);
  const fts5Queries = Number(arg('fts5-queries') ?? 50);
  const jsonFile = arg('json');
  const keep = arg('keep');
  const tmp = keep ? (mkdirSync(keep, { recursive: true }), keep) : mkdtempSync(path.join(tmpdir(), 'qpairs-bench-bm25-'));
  const qpairs = path.join(root, 'bin', 'qpairs.mjs');
  if (!existsSync(path.join(root, 'out', 'node', 'qpairs.mjs'))) throw new Error('build the CLI first: npm run build:node');
  try {
    console.log(`BM25 at scale: ${docs.toLocaleString('en-US')} questions, ${nQueries} top-${K} queries, seed ${seed}, node ${process.version}, work dir ${tmp}`);
    let t = now();
    const dumpDir = path.join(tmp, 'dump');
    const dump = writeStackExchangeDump({
      questions: docs,
      dir: dumpDir,
      seed,
      onProgress: (n, total) => process.stderr.write(`\rwriting the dump: ${n.toLocaleString('en-US')} / ${total.toLocaleString('en-US')}`),
    });
    process.stderr.write('\n');
    console.log(
      `dump: ${dump.questions.toLocaleString('en-US')} questions + ${dump.answers.toLocaleString('en-US')} answers, ${fmt(dump.bytes / 1048576)} MB, written in ${fmt((now() - t) / 1000)} s`,
    );
    const rnd = mulberry32(seed ^ 0x5eed);
    const queryIds = new Set<string>();
    while (queryIds.size < Math.min(nQueries, docs)) queryIds.add(String(dump.questionIds[Math.floor(rnd() * docs)]));
    const qFile = path.join(tmp, 'queries.txt');
    writeFileSync(qFile, [...queryIds].join('\n') + '\n');

    // ---- ours: whole import
    const ws = path.join(tmp, 'bench.qpairs');
    for (const f of [ws, `${ws}-wal`, `${ws}-shm`]) rmSync(f, { force: true });
    runNode(tmp, [qpairs, 'init', ws], 'qpairs init');
    process.stderr.write('importing with qpairs …\n');
    const imp = runNode(tmp, [qpairs, 'import', ws, '--format', 'stackexchange', dumpDir], 'qpairs import');
    const wsBytes = workspaceBytes(ws);
    console.log(
      `ours: whole import ${fmt(imp.seconds, 2)} s = ${fmt(docs / imp.seconds, 0)} questions/s, ${fmt(imp.cpuSeconds, 2)} s of CPU (all threads), ` +
        `peak RSS ${fmt(imp.peakRssMB, 0)} MB, workspace ${fmt(wsBytes / 1048576)} MB`,
    );

    // ---- ours: queries (a child process on the persisted index) and pool creation
    const ourTop = path.join(tmp, 'ours-top20.tsv');
    const q = runNode(tmp, [fileURLToPath(import.meta.url), '--child-queries', ws, qFile, ourTop], 'our queries');
    const qRes = JSON.parse(q.stdout.trim().split('\n').pop()!) as {
      loadMs: number;
      queryMedianMs: number;
      queryP99Ms: number;
      pruning: { exhaustiveMedianMs: number; exhaustiveP99Ms: number; prunedMedianMs: number; prunedP99Ms: number; differentLists: number; postingsScoredShare: number; windowsSkippedShare: number; windowsWholeShare: number; lookupsPerQuery: number };
    };
    console.log(
      `ours: index load ${fmt(qRes.loadMs, 0)} ms; top-${K} median ${fmt(qRes.queryMedianMs, 2)} ms, p99 ${fmt(qRes.queryP99Ms, 2)} ms; query process peak RSS ${fmt(q.peakRssMB, 0)} MB`,
    );
    const pr = qRes.pruning;
    console.log(
      `ours: exact pruning beside the exhaustive scan (same queries, alternating): median ${fmt(pr.prunedMedianMs, 2)} vs ${fmt(pr.exhaustiveMedianMs, 2)} ms ` +
        `(${fmt(pr.prunedMedianMs / pr.exhaustiveMedianMs, 2)}×), p99 ${fmt(pr.prunedP99Ms, 2)} vs ${fmt(pr.exhaustiveP99Ms, 2)} ms (${fmt(pr.prunedP99Ms / pr.exhaustiveP99Ms, 2)}×); ` +
        `${fmt(100 * pr.postingsScoredShare, 0)}% of the postings read term at a time, ${fmt(pr.lookupsPerQuery, 0)} lookups per query, ` +
        `windows skipped ${fmt(100 * pr.windowsSkippedShare, 0)}% / scored whole ${fmt(100 * pr.windowsWholeShare, 0)}%; lists differing: ${pr.differentLists}`,
    );
    const pool = runNode(tmp, [qpairs, 'pool', 'create', ws, '--name', 'bench', '--queries', qFile, '--depth', String(K)], 'qpairs pool create');
    console.log(`ours: pool create (${queryIds.size} queries × ${K}) ${fmt(pool.seconds, 2)} s whole command, peak RSS ${fmt(pool.peakRssMB, 0)} MB`);
    // The index alone, like Lucene's figure: `qpairs corpus index` rebuilds it from the stored texts.
    const reindex = runNode(tmp, [qpairs, 'corpus', 'index', ws], 'qpairs corpus index');
    console.log(`ours: index alone (qpairs corpus index: read the stored texts, analyse, build, persist) ${fmt(reindex.seconds, 2)} s = ${fmt(docs / reindex.seconds, 0)} questions/s, peak RSS ${fmt(reindex.peakRssMB, 0)} MB`);

    // ---- Lucene 8
    const corpus = path.join(tmp, 'corpus.tsv');
    exportCorpus(ws, corpus);
    const jars = luceneJars();
    let lucene: LuceneResult | null = null;
    let luceneWhy = '';
    let agree: ReturnType<typeof compareLists> | null = null;
    if (!jars) luceneWhy = 'not run: needs javac and liblucene8-java (apt-get install -y default-jdk-headless liblucene8-java)';
    else {
      const classpath = compileLuceneBench(jars, path.join(tmp, 'classes'));
      const luceneTop = path.join(tmp, 'lucene-top20.tsv');
      const indexDir = path.join(tmp, 'lucene-index');
      rmSync(indexDir, { recursive: true, force: true });
      process.stderr.write('indexing with Lucene …\n');
      lucene = runLuceneBench(classpath, corpus, qFile, indexDir, luceneTop);
      agree = compareLists(readTop(ourTop), readTop(luceneTop), K);
      console.log(
        `lucene: build ${fmt(lucene!.buildSeconds, 2)} s = ${fmt(lucene!.indexPerSec, 0)} questions/s, ${fmt(lucene!.buildCpuSeconds, 2)} s of CPU (all threads; ` +
          `reading the file included) (${lucene!.segments} segments), top-${K} median ${fmt(lucene!.queryMedianMs, 2)} ms, ` +
          `p99 ${fmt(lucene!.queryP99Ms, 2)} ms, peak RSS ${fmt(lucene!.peakRssMB, 0)} MB`,
      );
    }

    // ---- the rows alone (step 6)
    const rowsDb = path.join(tmp, 'rows-alone.db');
    const rowsRun = runNode(tmp, [fileURLToPath(import.meta.url), '--child-sqlite-rows', ws, rowsDb], 'the rows alone');
    const rowsAlone = JSON.parse(rowsRun.stdout.trim().split('\n').pop()!) as { seconds: number; cpuSeconds: number; questions: number; answers: number };
    rmSync(rowsDb, { force: true });
    console.log(
      `ours: the rows alone (${rowsAlone.questions.toLocaleString('en-US')} questions + ${rowsAlone.answers.toLocaleString('en-US')} answers into the workspace's two tables, nothing else) ` +
        `${fmt(rowsAlone.seconds, 2)} s = ${fmt(docs / rowsAlone.seconds, 0)} questions/s, ${fmt(rowsAlone.cpuSeconds, 2)} s of CPU`,
    );

    // ---- FTS5 floor
    const f = fts5Queries > 0 ? fts5(corpus, tmp, [...queryIds], fts5Queries) : null;

    // ---- report
    // The goal's pipeline is the issue's: `qpairs import` + queries + `pool create`; the full rebuild
    // (`corpus index`, the index-alone row) is reported beside it with its own peak.
    const ourPeak = Math.max(imp.peakRssMB, q.peakRssMB, pool.peakRssMB);
    const rows: string[][] = [
      ['', 'QPairs', 'Lucene 8', 'QPairs / Lucene'],
      [
        'build, questions/s',
        `${fmt(docs / imp.seconds, 0)} (whole import)`,
        lucene ? `${fmt(lucene.indexPerSec, 0)} (add + commit)` : '-',
        lucene ? `${fmt(docs / imp.seconds / lucene.indexPerSec, 2)}x` : '',
      ],
      [
        'build CPU, s (all threads)',
        `${fmt(imp.cpuSeconds, 2)} (whole import)`,
        lucene ? `${fmt(lucene.buildCpuSeconds, 2)} (add + commit)` : '-',
        lucene ? `${fmt(imp.cpuSeconds / lucene.buildCpuSeconds, 2)}x` : '',
      ],
      [
        'rows alone (SQLite), questions/s',
        `${fmt(docs / rowsAlone.seconds, 0)} (no parsing, no index)`,
        lucene ? `${fmt(lucene.indexPerSec, 0)} (add + commit)` : '-',
        lucene ? `${fmt(docs / rowsAlone.seconds / lucene.indexPerSec, 2)}x` : '',
      ],
      [
        'index alone, questions/s',
        `${fmt(docs / reindex.seconds, 0)} (corpus index, ${fmt(reindex.peakRssMB, 0)} MB)`,
        lucene ? `${fmt(lucene.indexPerSec, 0)} (add + commit)` : '-',
        lucene ? `${fmt(docs / reindex.seconds / lucene.indexPerSec, 2)}x` : '',
      ],
      [`top-${K} median ms`, fmt(qRes.queryMedianMs, 2), lucene ? fmt(lucene.queryMedianMs, 2) : '-', lucene ? `${fmt(qRes.queryMedianMs / lucene.queryMedianMs, 2)}x` : ''],
      [`top-${K} p99 ms`, fmt(qRes.queryP99Ms, 2), lucene ? fmt(lucene.queryP99Ms, 2) : '-', lucene ? `${fmt(qRes.queryP99Ms / lucene.queryP99Ms, 2)}x` : ''],
      ['peak RSS MB', `${fmt(ourPeak, 0)}`, lucene ? fmt(lucene.peakRssMB, 0) : '-', lucene ? `${fmt(ourPeak / lucene.peakRssMB, 2)}x` : ''],
    ];
    if (agree) rows.push(['identical top-20 lists', `${agree.identical} of ${agree.n}`, `up to ties ${agree.identicalUpToTies}`, `overlap@20 ${fmt(agree.overlap, 3)}`]);
    if (f) rows.push([`FTS5 (${f.queries} queries)`, `${fmt(f.indexPerSec, 0)} q/s index`, `median ${fmt(f.queryMedianMs, 0)} ms`, '']);
    const w = [0, 1, 2, 3].map((c) => Math.max(...rows.map((r) => r[c]!.length)));
    for (const [i, r] of rows.entries()) {
      console.log(`| ${r.map((c, j) => (j === 0 ? c.padEnd(w[j]!) : c.padStart(w[j]!))).join(' | ')} |`);
      if (i === 0) console.log(`|${w.map((x) => '-'.repeat(x + 2)).join('|')}|`);
    }
    if (!lucene) console.log(`lucene: ${luceneWhy}`);
    else {
      const goals: [string, boolean][] = [
        ['whole import >= Lucene indexing rate', docs / imp.seconds >= lucene.indexPerSec],
        [`top-${K} median <= 0.5x Lucene`, qRes.queryMedianMs <= 0.5 * lucene.queryMedianMs],
        ['peak RSS <= 1 GiB', ourPeak <= 1024],
        ['top-20 lists identical up to score ties', agree!.identicalUpToTies === agree!.n],
      ];
      console.log(`goals: ${goals.map(([g, ok]) => `${ok ? 'MET' : 'MISSED'}: ${g}`).join('; ')}`);
    }
    // The most any schedule of the import's work could reach on this machine: its CPU time spread evenly over every core.
    const cores = os.availableParallelism();
    console.log(
      `ceiling: the whole import's ${fmt(imp.cpuSeconds, 2)} s of CPU over ${cores} cores cannot take less than ${fmt(imp.cpuSeconds / cores, 2)} s = ` +
        `${fmt((docs * cores) / imp.cpuSeconds, 0)} questions/s${lucene ? ` (${fmt((docs * cores) / imp.cpuSeconds / lucene.indexPerSec, 2)}x Lucene's rate)` : ''}`,
    );
    if (jsonFile) {
      const out = {
        docs,
        ours: { indexPerSec: docs / imp.seconds, queryMedianMs: qRes.queryMedianMs, peakRssMB: ourPeak, importSeconds: imp.seconds, importCpuSeconds: imp.cpuSeconds, cores: os.availableParallelism(), indexAlonePerSec: docs / reindex.seconds, indexAlonePeakRssMB: reindex.peakRssMB, rowsAlonePerSec: docs / rowsAlone.seconds, rowsAloneCpuSeconds: rowsAlone.cpuSeconds, queryP99Ms: qRes.queryP99Ms, poolCreateSeconds: pool.seconds, pruning: qRes.pruning },
        lucene: lucene ? { indexPerSec: lucene.indexPerSec, queryMedianMs: lucene.queryMedianMs, peakRssMB: lucene.peakRssMB, buildSeconds: lucene.buildSeconds, buildCpuSeconds: lucene.buildCpuSeconds, queryP99Ms: lucene.queryP99Ms } : null,
        agreement: agree,
        fts5: f,
      };
      writeFileSync(jsonFile, JSON.stringify(out, null, 2) + '\n');
      console.log(`wrote ${jsonFile}`);
    }
  } finally {
    if (!keep) rmSync(tmp, { recursive: true, force: true });
  }
}

const child = process.argv.indexOf('--child-queries');
const rowsChild = process.argv.indexOf('--child-sqlite-rows');
if (child >= 0) childQueries(process.argv[child + 1]!, process.argv[child + 2]!, process.argv[child + 3]!);
else if (rowsChild >= 0) childSqliteRows(process.argv[rowsChild + 1]!, process.argv[rowsChild + 2]!);
else
  exitOnUsageError('bench:bm25', () => {
    checkOptions(['docs', 'queries', 'seed', 'fts5-queries', 'json', 'keep'], []);
    main();
  });
