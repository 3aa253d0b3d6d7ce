/**
 * `npm run bench:scale [-- --sizes 100000,300000 --max 10000000 --queries 300 --seed 7 --json FILE
 * --svg FILE --write-docs --keep DIR --no-lucene]`: the cost curve of QPairs' import and BM25
 * retrieval over corpus size, with real Lucene 8 beside each size where Java and Lucene are installed.
 *
 * Sizes: 100K, 300K, 1M and 3M questions by default; `--max N` continues the 1-3-10 ladder up to N
 * (`--max 10000000` adds 10M); `--sizes a,b,…` chooses them outright. Per size, one after the other:
 *
 * 1. A questions-JSONL corpus of N questions (questions-corpus.ts: recombined real text, seeded,
 *    streamed to disk) in a temporary folder.
 * 2. `qpairs init` and `qpairs import W --format questions-jsonl FILE` as separate processes with the
 *    Node running this script (22), as a user runs them: wall time of the whole import (rows + BM25
 *    index + persist + commit) → questions/s, and peak RSS (the child's own maxRSS, or /usr/bin/time's
 *    when larger). Index size: the pages of the bm25_* tables (SQLite dbstat) and the workspace file.
 * 3. A child process loads the persisted index (as pool creation does), runs 50 warm-up and then the
 *    Q sampled questions as top-20 queries (title + body, the question itself excluded): median and
 *    p99 ms, peak RSS. Then `qpairs pool create W --name p --queries QUERIES --depth 20`: wall, peak RSS.
 * 4. Lucene 8 (tests/reference/LuceneBench.java, as bench:bm25 runs it) on the texts QPairs stored:
 *    build rate (add + commit), median/p99, peak RSS (JVM VmHWM, -Xmx990m), index size, and how many
 *    top-20 lists are identical to QPairs'.
 * 5. The size's corpus, workspace and Lucene index are deleted (unless --keep DIR).
 *
 * Then: a table per size and one over all sizes, the growth exponents between successive sizes
 * (log of the cost ratio / log of the size ratio: 1 is linear) with a verdict (import and memory
 * ~linear when ≤ 1.1, latency sub-linear when < 1), the table as JSON and the curves as SVG
 * (scale-svg.ts). The JSON and SVG are rewritten after every size, so a run cut short keeps what it
 * measured. Tracked files are written only with --write-docs (docs/scale-curve.json, .svg);
 * otherwise --json/--svg or a temporary folder (printed). `--render FILE.json [--svg FILE]` redraws
 * the SVG of a saved run and prints its tables without measuring anything.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  arg,
  bm25TableBytes,
  compareLists,
  compileLuceneBench,
  dirBytes,
  exportCorpus,
  fmt,
  luceneJars,
  luceneVersion,
  now,
  numArg,
  readTop,
  root,
  runLuceneBench,
  runNode,
  timeQueries,
  workspaceBytes,
  type ListAgreement,
  type LuceneResult,
} from './bench-common';
import { BenchUsageError, checkOptions, exitOnUsageError } from './bench-options';
import { readRealTexts } from './real-text';
import { corpusQuestionId, writeQuestionsCorpus } from './questions-corpus';
import { renderScaleSvg, formatCount, type ChartPanel, type ChartSeries, type ScaleChart } from './scale-svg';
import { mulberry32 } from '../../src/main/stats/random';

const K = 20;
const WARMUP = 50;
const LADDER = [100_000, 300_000, 1_000_000, 3_000_000, 10_000_000, 30_000_000];
const LINEAR_MAX = 1.1;

export interface SizeResult {
  questions: number;
  corpusBytes: number;
  qpairs: {
    importSeconds: number;
    importPerSec: number;
    importPeakRssMB: number;
    bm25Bytes: number;
    workspaceBytes: number;
    indexLoadMs: number;
    queryMedianMs: number;
    queryP99Ms: number;
    queryPeakRssMB: number;
    poolSeconds: number;
    poolPeakRssMB: number;
  };
  lucene: (Omit<LuceneResult, 'docs'> & { indexBytes: number }) | null;
  agreement: ListAgreement | null;
  /** Wall seconds of each step of this size, the benchmark's own work included. */
  stepSeconds: Record<string, number>;
  /** The machine's 1-minute load average before this size's import and after its last step (other work on the machine skews every figure). */
  loadAverage?: { before: number; after: number };
}

export interface ScaleReport {
  generated: string;
  machine: { cores: number; cpu: string; ramGB: number; os: string; node: string };
  qpairsCommit: string | null;
  /** Files under src/ with uncommitted changes when the run started (the build includes them). */
  uncommittedSrcFiles: number;
  lucene: string | null;
  queries: number;
  warmup: number;
  seed: number;
  sizes: SizeResult[];
  exponents: Exponent[];
}

export interface Exponent {
  metric: string;
  from: number;
  to: number;
  exponent: number;
}

// ------------------------------------------------------------------ child: our queries

/** `--child-queries W QUERIES OUT`: the timed top-20 queries on the persisted index; prints JSON. */
function childQueries(ws: string, queryFile: string, outFile: string): void {
  const r = timeQueries(ws, queryFile, outFile, K, WARMUP);
  console.log(JSON.stringify({ loadMs: r.loadMs, queryMedianMs: r.queryMedianMs, queryP99Ms: r.queryP99Ms, queries: r.ms.length }));
  r.db.close();
}

// ------------------------------------------------------------------ growth

/** The metrics whose growth is judged, with what counts as good growth. */
const METRICS: Array<{ key: string; label: string; kind: 'linear' | 'sublinear'; get: (r: SizeResult) => number | undefined }> = [
  { key: 'qpairs.importSeconds', label: 'QPairs import time', kind: 'linear', get: (r) => r.qpairs.importSeconds },
  { key: 'qpairs.bm25Bytes', label: 'QPairs BM25 on disk', kind: 'linear', get: (r) => r.qpairs.bm25Bytes },
  { key: 'qpairs.importPeakRssMB', label: 'QPairs import peak RSS', kind: 'linear', get: (r) => r.qpairs.importPeakRssMB },
  { key: 'qpairs.poolPeakRssMB', label: 'QPairs pool create peak RSS', kind: 'linear', get: (r) => r.qpairs.poolPeakRssMB },
  { key: 'qpairs.queryPeakRssMB', label: 'QPairs query process peak RSS', kind: 'linear', get: (r) => r.qpairs.queryPeakRssMB },
  { key: 'qpairs.queryMedianMs', label: 'QPairs top-20 median', kind: 'sublinear', get: (r) => r.qpairs.queryMedianMs },
  { key: 'qpairs.queryP99Ms', label: 'QPairs top-20 p99', kind: 'sublinear', get: (r) => r.qpairs.queryP99Ms },
  { key: 'lucene.buildSeconds', label: 'Lucene build time', kind: 'linear', get: (r) => r.lucene?.buildSeconds },
  { key: 'lucene.indexBytes', label: 'Lucene index on disk', kind: 'linear', get: (r) => r.lucene?.indexBytes },
  { key: 'lucene.peakRssMB', label: 'Lucene peak RSS', kind: 'linear', get: (r) => r.lucene?.peakRssMB },
  { key: 'lucene.queryMedianMs', label: 'Lucene top-20 median', kind: 'sublinear', get: (r) => r.lucene?.queryMedianMs },
  { key: 'lucene.queryP99Ms', label: 'Lucene top-20 p99', kind: 'sublinear', get: (r) => r.lucene?.queryP99Ms },
];

/** log(cost ratio) / log(size ratio) between each pair of successive sizes, per metric. */
export function growthExponents(sizes: readonly SizeResult[]): Exponent[] {
  const out: Exponent[] = [];
  const sorted = [...sizes].sort((a, b) => a.questions - b.questions);
  for (const m of METRICS)
    for (let i = 1; i < sorted.length; i++) {
      const a = sorted[i - 1]!;
      const b = sorted[i]!;
      const ca = m.get(a);
      const cb = m.get(b);
      if (ca === undefined || cb === undefined || !(ca > 0) || !(cb > 0) || b.questions === a.questions) continue;
      out.push({ metric: m.key, from: a.questions, to: b.questions, exponent: Math.log(cb / ca) / Math.log(b.questions / a.questions) });
    }
  return out;
}

/** One sentence per metric: grows as it should, or where it does not. */
function verdicts(exps: readonly Exponent[]): string[] {
  const lines: string[] = [];
  for (const m of METRICS) {
    const es = exps.filter((e) => e.metric === m.key);
    if (es.length === 0) continue;
    const list = es.map((e) => `${formatCount(e.from)}→${formatCount(e.to)} ${fmt(e.exponent, 2)}`).join(', ');
    if (m.kind === 'linear') {
      const bad = es.filter((e) => e.exponent > LINEAR_MAX);
      lines.push(
        bad.length === 0
          ? `${m.label}: ~linear or better (exponents ≤ ${LINEAR_MAX}: ${list})`
          : `${m.label}: NOT linear — super-linear between ${bad.map((e) => `${formatCount(e.from)} and ${formatCount(e.to)} (${fmt(e.exponent, 2)})`).join(', ')} (all: ${list})`,
      );
    } else {
      const bad = es.filter((e) => e.exponent >= 1);
      lines.push(
        bad.length === 0
          ? `${m.label}: sub-linear (exponents < 1: ${list})`
          : `${m.label}: NOT sub-linear — exponent ≥ 1 between ${bad.map((e) => `${formatCount(e.from)} and ${formatCount(e.to)} (${fmt(e.exponent, 2)})`).join(', ')} (all: ${list})`,
      );
    }
  }
  return lines;
}

// ------------------------------------------------------------------ tables and chart

const MB = (b: number) => b / 1048576;

function printTable(rows: string[][]): void {
  const w = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)));
  for (const [i, r] of rows.entries()) {
    console.log(`| ${r.map((c, j) => (j === 0 ? c.padEnd(w[j]!) : c.padStart(w[j]!))).join(' | ')} |`);
    if (i === 0) console.log(`|${w.map((x) => '-'.repeat(x + 2)).join('|')}|`);
  }
}

function sizeTable(r: SizeResult): string[][] {
  const q = r.qpairs;
  const l = r.lucene;
  const ratio = (a: number, b: number | undefined) => (b ? `${fmt(a / b, 2)}×` : '');
  return [
    [`${formatCount(r.questions)} questions`, 'QPairs', 'Lucene 8', 'QPairs / Lucene'],
    ['import (QPairs whole import; Lucene add + commit), q/s', fmt(q.importPerSec, 0), l ? fmt(l.indexPerSec, 0) : '-', ratio(q.importPerSec, l?.indexPerSec)],
    ['import seconds', fmt(q.importSeconds, 1), l ? fmt(l.buildSeconds, 1) : '-', ''],
    ['index on disk, MB (BM25 tables; Lucene index dir)', fmt(MB(q.bm25Bytes), 1), l ? fmt(MB(l.indexBytes), 1) : '-', ratio(q.bm25Bytes, l?.indexBytes)],
    ['workspace file, MB', fmt(MB(q.workspaceBytes), 1), '', ''],
    ['peak RSS import / pool create / queries, MB', `${fmt(q.importPeakRssMB, 0)} / ${fmt(q.poolPeakRssMB, 0)} / ${fmt(q.queryPeakRssMB, 0)}`, l ? fmt(l.peakRssMB, 0) : '-', ratio(Math.max(q.importPeakRssMB, q.poolPeakRssMB, q.queryPeakRssMB), l?.peakRssMB)],
    [`top-${K} median / p99, ms`, `${fmt(q.queryMedianMs, 2)} / ${fmt(q.queryP99Ms, 2)}`, l ? `${fmt(l.queryMedianMs, 2)} / ${fmt(l.queryP99Ms, 2)}` : '-', l ? `${ratio(q.queryMedianMs, l.queryMedianMs)} / ${ratio(q.queryP99Ms, l.queryP99Ms)}` : ''],
    ['pool create (whole command), s', fmt(q.poolSeconds, 1), '', ''],
    ['index load in the query process, ms', fmt(q.indexLoadMs, 0), '', ''],
    ...(r.agreement ? [[`identical top-${K} lists`, `${r.agreement.identical} / ${r.agreement.n}`, `up to ties ${r.agreement.identicalUpToTies}`, `overlap@${K} ${fmt(r.agreement.overlap, 3)}`]] : []),
  ];
}

function summaryTable(sizes: readonly SizeResult[]): string[][] {
  const rows = [
    ['questions', 'import q/s', 'import s', 'BM25 MB', 'workspace MB', 'RSS import/pool/query MB', 'median/p99 ms', 'Lucene q/s', 'Lucene index MB', 'Lucene RSS MB', 'Lucene median/p99 ms', 'identical'],
  ];
  for (const r of sizes) {
    const q = r.qpairs;
    const l = r.lucene;
    rows.push([
      formatCount(r.questions),
      fmt(q.importPerSec, 0),
      fmt(q.importSeconds, 1),
      fmt(MB(q.bm25Bytes), 1),
      fmt(MB(q.workspaceBytes), 0),
      `${fmt(q.importPeakRssMB, 0)} / ${fmt(q.poolPeakRssMB, 0)} / ${fmt(q.queryPeakRssMB, 0)}`,
      `${fmt(q.queryMedianMs, 2)} / ${fmt(q.queryP99Ms, 2)}`,
      l ? fmt(l.indexPerSec, 0) : '-',
      l ? fmt(MB(l.indexBytes), 1) : '-',
      l ? fmt(l.peakRssMB, 0) : '-',
      l ? `${fmt(l.queryMedianMs, 2)} / ${fmt(l.queryP99Ms, 2)}` : '-',
      r.agreement ? `${r.agreement.identical}/${r.agreement.n}` : '-',
    ]);
  }
  return rows;
}

const COLORS = { qpairs: '#1f77b4', pool: '#2ca02c', query: '#9467bd', lucene: '#ff7f0e', guide: '#999999' };

/** The chart of a report: import time, import rate, index size, peak RSS, median and p99 latency. */
export function scaleChart(report: ScaleReport): ScaleChart {
  const s = [...report.sizes].sort((a, b) => a.questions - b.questions);
  const pts = (get: (r: SizeResult) => number | undefined) =>
    s.flatMap((r) => {
      const v = get(r);
      return v === undefined ? [] : [[r.questions, v] as const];
    });
  const qp = (name: string, get: (r: SizeResult) => number | undefined, color = COLORS.qpairs): ChartSeries => ({ name, color, points: pts(get) });
  const lu = (get: (r: SizeResult) => number | undefined): ChartSeries => ({ name: 'Lucene 8', color: COLORS.lucene, dash: '7 4', points: pts(get) });
  /** A slope-1 guide through the first point of `base`: cost ∝ size. */
  const guide = (base: ChartSeries): ChartSeries[] => {
    const p0 = base.points[0];
    if (!p0 || s.length < 2) return [];
    const xs = [s[0]!.questions, s[s.length - 1]!.questions];
    return [{ name: '∝ size (slope 1)', color: COLORS.guide, dash: '2 4', markers: false, points: xs.map((x) => [x, (p0[1] * x) / p0[0]] as const) }];
  };
  const withLucene = (series: ChartSeries[], l: ChartSeries) => (l.points.length ? [...series, l] : series);
  const imp = qp('QPairs', (r) => r.qpairs.importSeconds);
  const disk = qp('QPairs', (r) => MB(r.qpairs.bm25Bytes));
  const rssImport = qp('QPairs import', (r) => r.qpairs.importPeakRssMB);
  const med = qp('QPairs', (r) => r.qpairs.queryMedianMs);
  const p99 = qp('QPairs', (r) => r.qpairs.queryP99Ms);
  const panels: ChartPanel[] = [
    { title: 'Import time', yLabel: 'seconds (Lucene: add + commit)', series: [...withLucene([imp], lu((r) => r.lucene?.buildSeconds)), ...guide(imp)] },
    { title: 'Index on disk', yLabel: 'MB (QPairs: bm25_* tables)', series: [...withLucene([disk], lu((r) => (r.lucene ? MB(r.lucene.indexBytes) : undefined))), ...guide(disk)] },
    {
      title: 'Peak RSS',
      yLabel: 'MB',
      series: [
        ...withLucene(
          [rssImport, qp('QPairs pool create', (r) => r.qpairs.poolPeakRssMB, COLORS.pool), qp('QPairs queries', (r) => r.qpairs.queryPeakRssMB, COLORS.query)],
          lu((r) => r.lucene?.peakRssMB),
        ),
        ...guide(rssImport),
      ],
    },
    { title: 'Import rate', yLabel: 'questions / s', series: withLucene([qp('QPairs', (r) => r.qpairs.importPerSec)], lu((r) => r.lucene?.indexPerSec)) },
    { title: `Top-${K} median latency`, yLabel: 'ms', series: [...withLucene([med], lu((r) => r.lucene?.queryMedianMs)), ...guide(med)] },
    { title: `Top-${K} p99 latency`, yLabel: 'ms', series: [...withLucene([p99], lu((r) => r.lucene?.queryP99Ms)), ...guide(p99)] },
  ];
  const m = report.machine;
  const loads = s.flatMap((r) => (r.loadAverage ? [r.loadAverage.before, r.loadAverage.after] : []));
  const load = loads.length ? `; 1-min load average ${fmt(Math.min(...loads), 1)}–${fmt(Math.max(...loads), 1)} during the run` : '';
  return {
    title: 'QPairs cost by corpus size (log-log)',
    xLabel: 'questions in the corpus',
    panels,
    caption: [
      `Machine: ${m.cores} cores (${m.cpu}), ${fmt(m.ramGB, 1)} GB RAM, ${m.os}${load}; Node ${m.node}${report.lucene ? `; ${report.lucene}, -Xmx990m` : '; Lucene not installed'}.`,
      `QPairs ${report.qpairsCommit ?? '(unknown commit)'}${report.uncommittedSrcFiles ? ` + ${report.uncommittedSrcFiles} uncommitted src files` : ''}; ` +
        `questions-JSONL corpora of recombined real text (seed ${report.seed}); ${report.queries} top-${K} queries per size after ${report.warmup} warm-up; ${report.generated.slice(0, 16).replace('T', ' ')} UTC.`,
    ],
  };
}

/** The table over all sizes, the growth exponents and the verdicts. */
function printSummary(report: ScaleReport): void {
  console.log(`\n== all sizes ==`);
  printTable(summaryTable(report.sizes));
  if (report.sizes.length < 2) return;
  console.log(`\ngrowth exponents between successive sizes (log cost ratio / log size ratio; 1 = linear):`);
  const sizes = [...report.sizes].sort((a, b) => a.questions - b.questions);
  const pairs = sizes.slice(1).map((r, i) => ({ from: sizes[i]!.questions, label: `${formatCount(sizes[i]!.questions)}→${formatCount(r.questions)}` }));
  const rows = [['metric', ...pairs.map((p) => p.label)]];
  for (const mt of METRICS) {
    const es = report.exponents.filter((e) => e.metric === mt.key);
    if (es.length) rows.push([mt.label, ...pairs.map((p) => {
      const e = es.find((x) => x.from === p.from);
      return e ? fmt(e.exponent, 2) : '-';
    })]);
  }
  printTable(rows);
  // A constant baseline (the runtime, caches) keeps a peak's exponent under 1 at small sizes; what
  // each further million questions adds shows whether memory itself grows in proportion.
  console.log(`\nwhat each further million questions adds, between successive sizes:`);
  const marg = [['', ...pairs.map((p) => p.label)]];
  const per = (get: (r: SizeResult) => number | undefined, unit: string) =>
    pairs.map((_, i) => {
      const a = get(sizes[i]!);
      const b = get(sizes[i + 1]!);
      return a === undefined || b === undefined ? '-' : `${fmt(((b - a) / (sizes[i + 1]!.questions - sizes[i]!.questions)) * 1e6, 0)} ${unit}`;
    });
  marg.push(['QPairs import peak RSS', ...per((r) => r.qpairs.importPeakRssMB, 'MB')]);
  marg.push(['QPairs pool create peak RSS', ...per((r) => r.qpairs.poolPeakRssMB, 'MB')]);
  marg.push(['QPairs query process peak RSS', ...per((r) => r.qpairs.queryPeakRssMB, 'MB')]);
  marg.push(['Lucene peak RSS', ...per((r) => r.lucene?.peakRssMB, 'MB')]);
  marg.push(['QPairs import time', ...per((r) => r.qpairs.importSeconds, 's')]);
  marg.push(['Lucene build time', ...per((r) => r.lucene?.buildSeconds, 's')]);
  printTable(marg);
  console.log('');
  for (const v of verdicts(report.exponents)) console.log(`- ${v}`);
}

const SVG_LAYOUT = { columns: 3, panelWidth: 400, panelHeight: 290 };

/** `--render FILE.json [--svg FILE]`: redraws the SVG of a saved run (and prints its tables), measuring nothing. */
function render(jsonFile: string): void {
  const report = JSON.parse(readFileSync(jsonFile, 'utf8')) as ScaleReport;
  report.exponents = growthExponents(report.sizes);
  printSummary(report);
  const svgFile = arg('svg') ?? jsonFile.replace(/\.json$/, '') + '.svg';
  writeFileSync(svgFile, renderScaleSvg(scaleChart(report), SVG_LAYOUT));
  console.log(`\nwrote ${svgFile}`);
}

// ------------------------------------------------------------------ main

function sizesFromArgs(): number[] {
  const given = arg('sizes');
  if (given) {
    const xs = given.split(',').map((x) => Number(x.trim().replace(/_/g, '')));
    for (const x of xs) if (!Number.isInteger(x) || x <= 0) throw new BenchUsageError(`--sizes needs positive integers, got ${given}`);
    return [...new Set(xs)].sort((a, b) => a - b);
  }
  const max = numArg('max', 3_000_000);
  return LADDER.filter((n) => n <= max);
}

function git(args: string[]): string | null {
  try {
    return execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

const stamp = () => new Date().toISOString().slice(11, 19);
const log = (s: string) => process.stderr.write(`[${stamp()}] ${s}\n`);

function main(): void {
  const sizes = sizesFromArgs();
  const nQueries = numArg('queries', 300);
  const seed = numArg('seed', 7);
  const writeDocs = process.argv.includes('--write-docs');
  const noLucene = process.argv.includes('--no-lucene');
  const keep = arg('keep');
  let outDir: string | null = null;
  const outFile = (name: string) => {
    if (!outDir) outDir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-bench-scale-out-'));
    return path.join(outDir, name);
  };
  const jsonFile = arg('json') ?? (writeDocs ? path.join(root, 'docs', 'scale-curve.json') : outFile('scale-curve.json'));
  const svgFile = arg('svg') ?? (writeDocs ? path.join(root, 'docs', 'scale-curve.svg') : outFile('scale-curve.svg'));
  const tmp = keep ? (mkdirSync(keep, { recursive: true }), path.resolve(keep)) : mkdtempSync(path.join(os.tmpdir(), 'qpairs-bench-scale-'));
  const qpairs = path.join(root, 'bin', 'qpairs.mjs');
  const self = fileURLToPath(import.meta.url);

  const cpus = os.cpus();
  const jars = noLucene ? null : luceneJars();
  const report: ScaleReport = {
    generated: new Date().toISOString(),
    machine: { cores: cpus.length, cpu: cpus[0]?.model.trim() ?? 'unknown CPU', ramGB: os.totalmem() / 1024 ** 3, os: `${os.type()} ${os.release()}`, node: process.version },
    qpairsCommit: git(['rev-parse', '--short', 'HEAD']),
    uncommittedSrcFiles: (git(['status', '--porcelain', '--', 'src']) ?? '').split('\n').filter(Boolean).length,
    lucene: jars ? luceneVersion(jars[0]!) : null,
    queries: nQueries,
    warmup: WARMUP,
    seed,
    sizes: [],
    exponents: [],
  };
  const m = report.machine;
  console.log(
    `bench:scale — sizes ${sizes.map(formatCount).join(', ')}; ${nQueries} top-${K} queries each (${WARMUP} warm-up); seed ${seed}; ` +
      `node ${process.version}; ${m.cores} cores (${m.cpu}), ${fmt(m.ramGB, 1)} GB RAM; QPairs ${report.qpairsCommit ?? '?'}` +
      `${report.uncommittedSrcFiles ? ` (+${report.uncommittedSrcFiles} uncommitted src files)` : ''}; work dir ${tmp}`,
  );
  if (jars) console.log(`Lucene: ${report.lucene} (${jars.join(', ')}), tests/reference/LuceneBench.java, -Xmx990m`);
  else console.log(noLucene ? 'Lucene: skipped (--no-lucene)' : 'Lucene: not installed (needs javac and liblucene8-java: apt-get install -y default-jdk-headless liblucene8-java)');
  const classpath = jars ? compileLuceneBench(jars, path.join(tmp, 'classes')) : null;
  const t0 = now();
  const real = readRealTexts();

  const save = () => {
    report.exponents = growthExponents(report.sizes);
    for (const f of [jsonFile, svgFile]) mkdirSync(path.dirname(f), { recursive: true });
    writeFileSync(jsonFile, JSON.stringify(report, null, 2) + '\n');
    writeFileSync(svgFile, renderScaleSvg(scaleChart(report), SVG_LAYOUT));
  };

  try {
    for (const n of sizes) {
      const dir = path.join(tmp, `n${n}`);
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      const step: Record<string, number> = {};
      const timed = <T>(name: string, f: () => T): T => {
        const s = now();
        try {
          return f();
        } finally {
          step[name] = (now() - s) / 1000;
        }
      };
      console.log(`\n== ${n.toLocaleString('en-US')} questions ==`);
      // 1. the corpus
      log(`${formatCount(n)}: writing the corpus`);
      const corpusFile = path.join(dir, 'questions.jsonl');
      const corpus = timed('corpus', () =>
        writeQuestionsCorpus(
          {
            questions: n,
            file: corpusFile,
            seed,
            onProgress: process.stderr.isTTY
              ? (k, total) => {
                  if (k % 100_000 === 0 || k === total) process.stderr.write(`\r  ${k.toLocaleString('en-US')} / ${total.toLocaleString('en-US')}`);
                }
              : undefined,
          },
          real,
        ),
      );
      if (process.stderr.isTTY) process.stderr.write('\n');
      console.log(`corpus: ${fmt(MB(corpus.bytes), 0)} MB questions JSONL, written in ${fmt(step.corpus!, 1)} s`);
      const rnd = mulberry32(seed ^ 0x5eed);
      const ids = new Set<string>();
      while (ids.size < Math.min(nQueries, n)) ids.add(corpusQuestionId(Math.floor(rnd() * n)));
      const qFile = path.join(dir, 'queries.txt');
      writeFileSync(qFile, [...ids].join('\n') + '\n');

      // 2. import
      const loadBefore = os.loadavg()[0]!;
      // The corpus writer just kept one core busy, so ~1 of this is the benchmark's own.
      if (loadBefore > m.cores)
        console.log(`note: load average ${fmt(loadBefore, 2)} on ${m.cores} cores before the import — other processes are using the CPU, the figures of this size are pessimistic`);
      const ws = path.join(dir, 'scale.qpairs');
      runNode(tmp, [qpairs, 'init', ws], 'qpairs init');
      log(`${formatCount(n)}: qpairs import`);
      const imp = timed('import', () => runNode(tmp, [qpairs, 'import', ws, '--format', 'questions-jsonl', corpusFile], 'qpairs import'));
      const bm25Bytes = bm25TableBytes(ws);
      const wsBytes = workspaceBytes(ws);
      console.log(
        `qpairs import: ${fmt(imp.seconds, 1)} s = ${fmt(n / imp.seconds, 0)} q/s, peak RSS ${fmt(imp.peakRssMB, 0)} MB; BM25 tables ${fmt(MB(bm25Bytes), 1)} MB, workspace ${fmt(MB(wsBytes), 0)} MB`,
      );
      if (!keep) rmSync(corpusFile, { force: true }); // the texts are in the workspace now; Lucene reads them from there

      // 3. queries, pool create
      log(`${formatCount(n)}: queries (child process)`);
      const ourTop = path.join(dir, 'qpairs-top20.tsv');
      const q = timed('queries', () => runNode(tmp, [self, '--child-queries', ws, qFile, ourTop], 'query process'));
      const qr = JSON.parse(q.stdout.trim().split('\n').pop()!) as { loadMs: number; queryMedianMs: number; queryP99Ms: number };
      console.log(`queries: index load ${fmt(qr.loadMs, 0)} ms; top-${K} median ${fmt(qr.queryMedianMs, 2)} ms, p99 ${fmt(qr.queryP99Ms, 2)} ms; peak RSS ${fmt(q.peakRssMB, 0)} MB`);
      log(`${formatCount(n)}: qpairs pool create`);
      const pool = timed('poolCreate', () => runNode(tmp, [qpairs, 'pool', 'create', ws, '--name', 'p', '--queries', qFile, '--depth', String(K)], 'qpairs pool create'));
      console.log(`qpairs pool create: ${fmt(pool.seconds, 1)} s, peak RSS ${fmt(pool.peakRssMB, 0)} MB`);

      // 4. Lucene
      let lucene: SizeResult['lucene'] = null;
      let agreement: ListAgreement | null = null;
      if (classpath) {
        log(`${formatCount(n)}: Lucene (export the stored texts, build, query)`);
        const tsv = path.join(dir, 'corpus.tsv');
        timed('luceneExport', () => exportCorpus(ws, tsv));
        const indexDir = path.join(dir, 'lucene-index');
        const luceneTop = path.join(dir, 'lucene-top20.tsv');
        const l = timed('lucene', () => runLuceneBench(classpath, tsv, qFile, indexDir, luceneTop));
        lucene = {
          buildSeconds: l.buildSeconds,
          buildCpuSeconds: l.buildCpuSeconds,
          indexPerSec: l.indexPerSec,
          queryMedianMs: l.queryMedianMs,
          queryP99Ms: l.queryP99Ms,
          peakRssMB: l.peakRssMB,
          segments: l.segments,
          indexBytes: dirBytes(indexDir),
        };
        agreement = compareLists(readTop(ourTop), readTop(luceneTop), K);
        console.log(
          `Lucene: build ${fmt(l.buildSeconds, 1)} s = ${fmt(l.indexPerSec, 0)} q/s (${l.segments} segments), index ${fmt(MB(lucene.indexBytes), 1)} MB; ` +
            `top-${K} median ${fmt(l.queryMedianMs, 2)} ms, p99 ${fmt(l.queryP99Ms, 2)} ms; peak RSS ${fmt(l.peakRssMB, 0)} MB; ` +
            `identical lists ${agreement.identical} / ${agreement.n} (up to ties ${agreement.identicalUpToTies})`,
        );
      } else console.log(noLucene ? 'Lucene: skipped (--no-lucene)' : 'Lucene: not installed');

      const r: SizeResult = {
        questions: n,
        corpusBytes: corpus.bytes,
        qpairs: {
          importSeconds: imp.seconds,
          importPerSec: n / imp.seconds,
          importPeakRssMB: imp.peakRssMB,
          bm25Bytes,
          workspaceBytes: wsBytes,
          indexLoadMs: qr.loadMs,
          queryMedianMs: qr.queryMedianMs,
          queryP99Ms: qr.queryP99Ms,
          queryPeakRssMB: q.peakRssMB,
          poolSeconds: pool.seconds,
          poolPeakRssMB: pool.peakRssMB,
        },
        lucene,
        agreement,
        stepSeconds: step,
        loadAverage: { before: loadBefore, after: os.loadavg()[0]! },
      };
      if (!keep) rmSync(dir, { recursive: true, force: true });
      r.stepSeconds.total = Object.values(step).reduce((a, b) => a + b, 0);
      report.sizes.push(r);
      save();
      console.log('');
      printTable(sizeTable(r));
      console.log(
        `(${formatCount(n)} took ${fmt(r.stepSeconds.total!, 0)} s: ${Object.entries(step).map(([k, v]) => `${k} ${fmt(v, 0)} s`).join(', ')}; ` +
          `load average ${fmt(loadBefore, 2)} before, ${fmt(r.loadAverage!.after, 2)} after)`,
      );
    }

    printSummary(report);
    console.log(`\nwrote ${jsonFile} and ${svgFile} (whole run ${fmt((now() - t0) / 1000, 0)} s)`);
  } finally {
    if (!keep) rmSync(tmp, { recursive: true, force: true });
  }
}

const child = process.argv.indexOf('--child-queries');
if (child >= 0) childQueries(process.argv[child + 1]!, process.argv[child + 2]!, process.argv[child + 3]!);
else if (arg('render')) render(arg('render')!);
else
  exitOnUsageError('bench:scale', () => {
    checkOptions(['sizes', 'max', 'queries', 'seed', 'keep', 'json', 'svg'], ['write-docs', 'no-lucene']);
    main();
  });
