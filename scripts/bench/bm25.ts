/**
 * BM25 benchmark: our index vs SQLite FTS5 bm25() on a synthetic corpus shaped like the shared
 * real data. Run: `npm run bench:bm25 [-- --docs 200000 --queries 1000 --seed 20160301]`.
 *
 * Corpus: word frequencies (Zipfian, from the real counts) and (title, body) length pairs come
 * from ../shared/data (SemEval-2016 Task 3 subjects/bodies + cstheory.meta Posts.xml questions).
 * Words seen once in the real data are replaced by a synthetic Zipf(1) tail over 2M words, so
 * the vocabulary keeps growing with corpus size as real text does (Heaps' law). Seeded PRNG:
 * the same arguments give the same corpus and the same queries.
 *
 * Measures: indexing (ours: tokenize + invert + merge + persist into a WAL SQLite file with
 * synchronous=FULL, as the workspace opens it; FTS5: INSERT into a contentless table in one
 * transaction, then 'optimize'), load time of the persisted index, an incremental import of 2,000
 * questions, and top-20 query latency for queries = title + body of sampled questions.
 * FTS5 gets the same query terms (our tokens, stop words removed, deduplicated) OR-ed together.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Bm25Index, type Bm25Document } from '../../src/main/bm25/bm25-index';
import { BM25_SCHEMA_SQL } from '../../src/main/bm25/schema';
import { Tokenizer } from '../../src/main/bm25/tokenizer';

// ------------------------------------------------------------------ args

function arg(name: string, def: number): number {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return def;
  const v = Number(process.argv[i + 1]);
  if (!Number.isFinite(v) || v <= 0) throw new Error(`--${name} needs a positive number`);
  return v;
}
const N_DOCS = arg('docs', 200_000);
const N_QUERIES = arg('queries', 1000);
const SEED = arg('seed', 20160301);
const K = 20;

// ------------------------------------------------------------------ real data

function findSharedData(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const c of [path.resolve(process.cwd(), '../shared/data'), path.resolve(here, '../../../shared/data'), path.resolve(here, '../../../../shared/data')])
    if (existsSync(path.join(c, 'semeval2016-task3'))) return c;
  throw new Error('shared data not found: expected ../shared/data beside the checkout');
}

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, e: string) => {
    if (e[0] === '#') return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10));
    return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[e.toLowerCase()]!;
  });
}

interface RealQ {
  title: string;
  body: string;
}

function realQuestions(dir: string): RealQ[] {
  const out: RealQ[] = [];
  const seen = new Set<string>();
  const sem = path.join(dir, 'semeval2016-task3');
  for (const f of ['SemEval2016-Task3-CQA-QL-train-part1.v2.0.xml', 'SemEval2016-Task3-CQA-QL-train-part2.xml', 'SemEval2016-Task3-CQA-QL-dev.xml']) {
    const xml = readFileSync(path.join(sem, f), 'utf8');
    const re =
      /<OrgQuestion ORGQ_ID="([^"]+)"[^>]*>\s*<OrgQSubject>([\s\S]*?)<\/OrgQSubject>\s*<OrgQBody>([\s\S]*?)<\/OrgQBody>|<RelQuestion RELQ_ID="([^"]+)"[^>]*>\s*<RelQSubject>([\s\S]*?)<\/RelQSubject>\s*<RelQBody>([\s\S]*?)<\/RelQBody>/g;
    for (const m of xml.matchAll(re)) {
      const id = m[1] ?? m[4]!;
      if (seen.has(id)) continue;
      seen.add(id);
      out.push({ title: decodeEntities(m[2] ?? m[5]!), body: decodeEntities(m[3] ?? m[6]!) });
    }
  }
  const posts = readFileSync(path.join(dir, 'stackexchange-cstheory-meta', 'Posts.xml'), 'utf8');
  for (const m of posts.matchAll(/<row [^>]*?PostTypeId="1"[^>]*>/g)) {
    const row = m[0];
    const title = /\bTitle="([^"]*)"/.exec(row)?.[1] ?? '';
    const body = /\bBody="([^"]*)"/.exec(row)?.[1] ?? '';
    const html = decodeEntities(body);
    out.push({ title: decodeEntities(title), body: decodeEntities(html.replace(/<[^>]*>/g, ' ')) });
  }
  return out;
}

// ------------------------------------------------------------------ corpus generator

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORD = /[\p{L}\p{N}]+/gu;
const words = (s: string) => s.toLowerCase().match(WORD) ?? [];

function makeGenerator(real: RealQ[], seed: number) {
  const counts = new Map<string, number>();
  const lengths: [number, number][] = [];
  for (const q of real) {
    const t = words(q.title);
    const b = words(q.body);
    if (t.length + b.length === 0) continue;
    lengths.push([t.length, b.length]);
    for (const w of t) counts.set(w, (counts.get(w) ?? 0) + 1);
    for (const w of b) counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  let totalTokens = 0;
  let hapaxTokens = 0;
  const vocab: string[] = [];
  const freq: number[] = [];
  for (const [w, c] of [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))) {
    totalTokens += c;
    if (c === 1) hapaxTokens++;
    else {
      vocab.push(w);
      freq.push(c);
    }
  }
  const cum = new Float64Array(freq.length);
  let acc = 0;
  freq.forEach((c, i) => (cum[i] = acc += c));
  const pTail = hapaxTokens / totalTokens;
  const TAIL = 2_000_000;
  const lnTail = Math.log(TAIL + 1);
  const tailWord = (r: number) => {
    let s = 'q';
    let x = (r * 2654435761) % 4294967296;
    for (let i = 0; i < 3 || r > 0; i++) {
      s += String.fromCharCode(97 + (x % 26));
      x = Math.floor(x / 26);
      r = Math.floor(r / 26);
    }
    return s;
  };
  const rnd = mulberry32(seed);
  const pick = (): string => {
    if (rnd() < pTail) return tailWord(Math.floor(Math.exp(rnd() * lnTail)));
    const u = rnd() * acc;
    let lo = 0;
    let hi = cum.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid]! <= u) lo = mid + 1;
      else hi = mid;
    }
    return vocab[lo]!;
  };
  const sentence = (n: number, title: boolean): string => {
    const parts: string[] = [];
    for (let i = 0; i < n; i++) {
      let w = pick();
      if (i === 0 || (!title && parts[i - 1]!.endsWith('.'))) w = w[0]!.toUpperCase() + w.slice(1);
      if (!title && i % 12 === 11 && i < n - 1) w += rnd() < 0.7 ? '.' : ',';
      parts.push(w);
    }
    let s = parts.join(' ');
    if (n > 0) s += title ? (rnd() < 0.7 ? '?' : '') : '.';
    return s;
  };
  return {
    realQuestions: lengths.length,
    realVocab: counts.size,
    realTokens: totalTokens,
    pTail,
    next(doc: number): Bm25Document {
      const [tl, bl] = lengths[Math.floor(rnd() * lengths.length)]!;
      return { doc, title: sentence(tl, true), body: sentence(bl, false) };
    },
  };
}

// ------------------------------------------------------------------ helpers

const now = () => performance.now();
function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}
const fmt = (x: number, d = 1) => x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
const mb = (b: number) => `${fmt(b / 1048576, 1)} MB`;

function openDb(file: string): Database.Database {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  return db;
}

function fileSize(file: string): number {
  let n = 0;
  for (const f of [file, `${file}-wal`]) if (existsSync(f)) n += statSync(f).size;
  return n;
}

// ------------------------------------------------------------------ main

function main(): void {
  const tmp = mkdtempSync(path.join(tmpdir(), 'qpairs-bench-bm25-'));
  try {
    run(tmp);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function run(tmp: string): void {
  console.log(`BM25 benchmark: ${N_DOCS.toLocaleString('en-US')} questions, ${N_QUERIES} top-${K} queries, seed ${SEED}, node ${process.version}`);
  let t = now();
  const real = realQuestions(findSharedData());
  const gen = makeGenerator(real, SEED);
  const docs: Bm25Document[] = [];
  for (let i = 1; i <= N_DOCS; i++) docs.push(gen.next(i));
  const extra: Bm25Document[] = [];
  for (let i = 1; i <= 2000; i++) extra.push(gen.next(N_DOCS + i));
  const genMs = now() - t;
  const chars = docs.reduce((s, d) => s + d.title.length + d.body.length + 1, 0);
  console.log(
    `corpus: from ${gen.realQuestions} real questions (${gen.realVocab.toLocaleString('en-US')} words, ${gen.realTokens.toLocaleString('en-US')} tokens, ` +
      `hapax mass ${fmt(gen.pTail * 100)}% -> synthetic tail); generated in ${fmt(genMs / 1000, 2)} s, avg ${fmt(chars / N_DOCS, 0)} chars/question`,
  );

  // Tokenizer alone.
  const tok = new Tokenizer();
  const tokBuf: string[] = [];
  for (let i = 0; i < 2000; i++) tok.tokenize(docs[i]!.body, tokBuf);
  t = now();
  let nTok = 0;
  for (const d of docs) {
    tokBuf.length = 0;
    tok.tokenize(d.title, tokBuf);
    tok.tokenize(d.body, tokBuf);
    nTok += tokBuf.length;
  }
  const tokMs = now() - t;

  // ---- ours: build + persist
  const ourFile = path.join(tmp, 'ours.qpairs');
  let db = openDb(ourFile);
  db.exec(BM25_SCHEMA_SQL);
  t = now();
  const idx = new Bm25Index();
  idx.addDocuments(docs);
  const addMs = now() - t;
  const st = idx.stats; // merges
  const mergeMs = now() - t - addMs;
  const p0 = now();
  const pr = idx.persist(db);
  const persistMs = now() - p0;
  const ourIndexMs = now() - t;
  db.close();
  const ourSize = fileSize(ourFile);

  // load (twice, keep the faster: the first includes page-cache warm-up)
  const loadTimes: number[] = [];
  let loaded: Bm25Index | undefined;
  for (let i = 0; i < 2; i++) {
    db = openDb(ourFile);
    t = now();
    loaded = Bm25Index.load(db);
    loadTimes.push(now() - t);
    if (i === 0) db.close();
  }
  // incremental import of 2,000 questions
  t = now();
  loaded!.addDocuments(extra);
  const incr = loaded!.persist(db);
  const incrMs = now() - t;
  db.close();
  loaded = undefined;

  // ---- FTS5
  const ftsFile = path.join(tmp, 'fts5.db');
  const fdb = openDb(ftsFile);
  fdb.exec(`CREATE VIRTUAL TABLE fts USING fts5(text, content='', tokenize='unicode61 remove_diacritics 0')`);
  t = now();
  const ins = fdb.prepare(`INSERT INTO fts(rowid, text) VALUES (?, ?)`);
  fdb.transaction(() => {
    for (const d of docs) ins.run(d.doc, `${d.title}\n${d.body}`);
  })();
  const ftsInsertMs = now() - t;
  t = now();
  fdb.exec(`INSERT INTO fts(fts) VALUES('optimize')`);
  const ftsOptimizeMs = now() - t;
  const ftsSize = fileSize(ftsFile);

  // ---- queries
  const rnd = mulberry32(SEED ^ 0x5eed);
  const queries: Bm25Document[] = [];
  while (queries.length < N_QUERIES) queries.push(docs[Math.floor(rnd() * docs.length)]!);
  const ftsStmt = fdb.prepare(`SELECT rowid AS doc, bm25(fts) AS score FROM fts WHERE fts MATCH ? ORDER BY rank LIMIT ${K}`);
  const ftsQuery = (text: string): { doc: number }[] => {
    const terms = new Set(tok.tokenize(text).flatMap((w) => w.match(WORD) ?? []));
    if (terms.size === 0) return [];
    return ftsStmt.all([...terms].map((w) => `"${w}"`).join(' OR ')) as { doc: number }[];
  };
  const texts = queries.map((q) => `${q.title}\n${q.body}`);
  // warm-up (JIT, page cache)
  for (let i = 0; i < 50; i++) {
    idx.search(texts[i % texts.length]!, K);
    ftsQuery(texts[i % texts.length]!);
  }
  const ours: number[] = [];
  const fts: number[] = [];
  const ourRes: number[][] = [];
  const ftsRes: number[][] = [];
  let qTerms = 0;
  for (const text of texts) {
    qTerms += new Set(tok.tokenize(text)).size;
    let t0 = now();
    const a = idx.search(text, K);
    ours.push(now() - t0);
    t0 = now();
    const b = ftsQuery(text);
    fts.push(now() - t0);
    ourRes.push(a.map((h) => h.doc));
    ftsRes.push(b.map((h) => h.doc));
  }
  fdb.close();
  ours.sort((a, b) => a - b);
  fts.sort((a, b) => a - b);
  let overlap = 0;
  for (let i = 0; i < texts.length; i++) {
    const s = new Set(ftsRes[i]);
    overlap += ourRes[i]!.filter((d) => s.has(d)).length / Math.max(1, Math.min(K, ourRes[i]!.length));
  }

  // ---- report
  const qps = (ms: number) => (N_DOCS / ms) * 1000;
  const ftsIdxMs = ftsInsertMs + ftsOptimizeMs;
  const mem = process.memoryUsage();
  console.log(
    `index: ${st.docs.toLocaleString('en-US')} docs, ${st.terms.toLocaleString('en-US')} terms, ${st.postings.toLocaleString('en-US')} postings, ` +
      `avgdl ${fmt(st.avgdl)}; tokenizer alone (to strings) ${fmt(qps(tokMs), 0)} q/s (${fmt((tokMs * 1e6) / nTok, 0)} ns/token); ` +
      `mean ${fmt(qTerms / texts.length)} distinct terms/query; heap ${mb(mem.heapUsed)}, array buffers ${mb(mem.arrayBuffers)}`,
  );
  const rows: [string, string, string, string][] = [
    ['', 'ours', 'FTS5', 'ours better by'],
    ['indexing, questions/s', fmt(qps(ourIndexMs), 0), fmt(qps(ftsIdxMs), 0), fmt(ftsIdxMs / ourIndexMs, 2) + 'x'],
    ['  indexing time, s', fmt(ourIndexMs / 1000, 2), fmt(ftsIdxMs / 1000, 2), ''],
    [
      '  of which',
      `add ${fmt(addMs / 1000, 2)} + merge ${fmt(mergeMs / 1000, 2)} + persist ${fmt(persistMs / 1000, 2)}`,
      `insert ${fmt(ftsInsertMs / 1000, 2)} + optimize ${fmt(ftsOptimizeMs / 1000, 2)}`,
      '',
    ],
    ['database size', mb(ourSize), mb(ftsSize), fmt(ftsSize / ourSize, 2) + 'x'],
    [`query top-${K}, median ms`, fmt(quantile(ours, 0.5), 2), fmt(quantile(fts, 0.5), 2), fmt(quantile(fts, 0.5) / quantile(ours, 0.5), 1) + 'x'],
    [`query top-${K}, p99 ms`, fmt(quantile(ours, 0.99), 2), fmt(quantile(fts, 0.99), 2), fmt(quantile(fts, 0.99) / quantile(ours, 0.99), 1) + 'x'],
    [`query top-${K}, mean ms`, fmt(ours.reduce((s, x) => s + x, 0) / ours.length, 2), fmt(fts.reduce((s, x) => s + x, 0) / fts.length, 2), ''],
    ['load persisted index, ms', loadTimes.map((x) => fmt(x, 0)).join(' / '), '-', ''],
    [`incremental import of 2,000 (add + ${incr.mode}), ms`, fmt(incrMs, 0), '-', ''],
    [`top-${K} overlap with FTS5`, fmt((overlap / texts.length) * 100) + '%', '', ''],
  ];
  const w = [0, 1, 2, 3].map((c) => Math.max(...rows.map((r) => r[c]!.length)));
  for (const [i, r] of rows.entries()) {
    console.log(`| ${r.map((c, j) => (j === 0 ? c.padEnd(w[j]!) : c.padStart(w[j]!))).join(' | ')} |`);
    if (i === 0) console.log(`|${w.map((x) => '-'.repeat(x + 2)).join('|')}|`);
  }
  const goals = [
    [`indexing >= 50,000 questions/s`, qps(ourIndexMs) >= 50_000],
    [`median top-${K} query <= 5 ms`, quantile(ours, 0.5) <= 5],
    [`not slower than FTS5 per query (median)`, quantile(ours, 0.5) <= quantile(fts, 0.5)],
  ] as const;
  console.log(`goals: ${goals.map(([g, ok]) => `${ok ? 'MET' : 'MISSED'}: ${g}`).join('; ')}`);
  console.log(`(persist wrote ${mb(pr.bytes)} of BLOBs, mode ${pr.mode})`);
}

main();
