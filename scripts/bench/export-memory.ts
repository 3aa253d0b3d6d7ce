/**
 * `node scripts/build-node.mjs && node out/node/bench-export.mjs [--queries 20000] [--candidates 20] [--formats jsonl,csv,hf-dataset,qrels] [--keep DIR]`:
 * peak RSS of `qpairs export` run as a separate process (as a user runs it), per format, beside the size of
 * the files it writes — the export streams its files (src/main/export/line-sink.ts), so its memory should
 * not follow the files' size: what is left is the pool's state, labels and runs, about what a qrels export
 * (a small file) of the same pool takes. The pool (QUERIES × CANDIDATES pairs, one annotator labeling every
 * pair, a run scoring every candidate, questions of ~500 characters) is made directly in the workspace,
 * not by BM25 (minutes for a pool this size; still about 2 minutes per 5,000 queries on 2 cores), and kept in `--keep DIR` (reused when present; default a
 * temporary folder, removed).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Workspace } from '../../src/main/workspace/workspace';
import { checkCounts, checkOptions, exitOnUsageError } from './bench-options';
import { arg, root } from './bench-common';

exitOnUsageError('bench:export', () => {
  checkOptions(['queries', 'candidates', 'formats', 'keep'], []);
  checkCounts(['queries', 'candidates']);
});

const qpairs = path.join(root, 'bin', 'qpairs.mjs');

/** The workspace: questions q0…, pool p of `queries` × `candidates` pairs, labels of one annotator, run bm25. */
function makeWorkspace(file: string, queries: number, candidates: number): void {
  const words = 'wifi drops after suspend kernel driver laptop network grub boot install package update screen sound disk usb keyboard server python error terminal script service login permission file folder'.split(' ');
  let s = 1;
  const rnd = (): number => ((s = (s * 1103515245 + 12345) % 2 ** 31), s / 2 ** 31);
  const text = (n: number): string => Array.from({ length: n }, () => words[Math.floor(rnd() * words.length)]).join(' ');
  const ws = Workspace.create(file);
  try {
    ws.db.transaction(() => {
      for (let i = 0; i < queries * (candidates + 1); i++) ws.upsertQuestion({ id: `q${i}`, source: 'bench', title: text(8), body: `${text(70)} "quoted", and, commas` });
      ws.createPool({ name: 'p', scheme: 'binary' });
      const run = ws.ensureRun('p', 'bm25', 'bench');
      for (let q = 0; q < queries; q++) {
        const base = q * (candidates + 1);
        ws.addPoolQuery('p', `q${base}`, Array.from({ length: candidates }, (_, c) => `q${base + c + 1}`));
        for (let c = 1; c <= candidates; c++) {
          ws.addLabel({ pool: 'p', queryId: `q${base}`, candidateId: `q${base + c}`, annotator: 'ann', value: rnd() < 0.3 ? '1' : '0', origin: 'bench' });
          ws.setRunScore(run, `q${base}`, `q${base + c}`, candidates - c + rnd());
        }
      }
    })();
  } finally {
    ws.close();
  }
}

/** Bytes of a file, or of every file under a folder (hf-dataset), the datasheet left out. */
function bytesOf(p: string): number {
  const st = statSync(p);
  if (st.isFile()) return st.size;
  return readdirSync(p, { recursive: true })
    .map((f) => path.join(p, String(f)))
    .filter((f) => statSync(f).isFile() && !f.endsWith('README.md'))
    .reduce((a, f) => a + statSync(f).size, 0);
}

const mb = (b: number): string => `${(b / 1048576).toFixed(0)} MB`;

function main(): void {
  const queries = Number(arg('queries') ?? 20_000);
  const candidates = Number(arg('candidates') ?? 20);
  const formats = (arg('formats') ?? 'jsonl,csv,hf-dataset,qrels').split(',');
  const keep = arg('keep');
  const dir = keep ? path.resolve(keep) : mkdtempSync(path.join(tmpdir(), 'qpairs-bench-export-'));
  mkdirSync(dir, { recursive: true });
  try {
    const w = path.join(dir, `bench-${queries}x${candidates}.qpairs`);
    if (!existsSync(w)) {
      const t0 = performance.now();
      makeWorkspace(w, queries, candidates);
      console.log(`made ${w}: ${queries * candidates} pairs in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    }
    const hook = path.join(dir, 'rss-hook.mjs');
    writeFileSync(hook, `import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => writeFileSync(process.env.QPAIRS_BENCH_RSS, String(process.resourceUsage().maxRSS)));\n`);
    console.log('');
    console.log(`| format | file size | peak RSS of qpairs export | RSS / file size |`);
    console.log('|---|---|---|---|');
    for (const format of formats) {
      const out = path.join(dir, `out-${format}`);
      rmSync(out, { recursive: true, force: true });
      rmSync(`${out}.datasheet.md`, { force: true });
      const rssFile = path.join(dir, `rss-${format}`);
      const r = spawnSync(process.execPath, ['--import', `file://${hook}`, qpairs, 'export', w, '--pool', 'p', '--format', format, '--json', out], {
        env: { ...process.env, QPAIRS_BENCH_RSS: rssFile },
        encoding: 'utf8',
        maxBuffer: 1 << 26,
      });
      if (r.status !== 0) throw new Error(`qpairs export --format ${format} failed (exit ${r.status ?? r.signal}):\n${r.stderr}`);
      const rss = Number(readFileSync(rssFile, 'utf8')) * 1024;
      const size = bytesOf(out);
      console.log(`| ${format} | ${mb(size)} | ${mb(rss)} | ${(rss / size).toFixed(1)}× |`);
      rmSync(out, { recursive: true, force: true });
      rmSync(`${out}.datasheet.md`, { force: true });
    }
  } finally {
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}

main();
