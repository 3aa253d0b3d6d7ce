/**
 * `node scripts/build-node.mjs && node out/node/bench-archive.mjs [--shipped | --questions N] [--runs 3] [--keep DIR]`:
 * a Stack Exchange import from the site's `.7z` (as the dump site ships it) against the same
 * dump unpacked: wall time, CPU time (all threads) and peak RSS of `qpairs import W --format stackexchange INPUT` run as a
 * separate process (as a user runs it; fresh workspace each run, `qpairs init` not timed), and
 * the question / duplicate counts, which must be equal.
 *
 * - `--shipped` (default): the shipped cstheory.meta dump: its folder as shipped (`.xml.gz`), the
 *   folder unpacked (plain `.xml`), and `cstheory.meta.stackexchange.com.7z` packed here with the
 *   7-Zip WebAssembly build QPairs reads it with (`-t7z -mx=9`, solid LZMA2 as archive.org's).
 * - `--questions N`: a synthetic dump (se-dump.ts) of N questions, plain and as `.7z` packed with
 *   `--mx` (default 1: packing is single-threaded WebAssembly) and `--md` (dictionary, default
 *   64m: the largest the real dumps use, so that 7-Zip's decoding memory is the real worst case).
 *   For the memory bound: peak RSS must not grow with the archive's size (it is streamed).
 *
 * Inputs are kept in `--keep DIR` (reused when present; default a temporary folder, removed).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { runSevenZip } from '../../src/main/import/sevenzip';
import { datasetPath } from './datasets-dir';
import { writeStackExchangeDump } from './se-dump';
import { checkCounts, checkOptions, exitOnUsageError } from './bench-options';

exitOnUsageError('bench:archive', () => {
  checkOptions(['questions', 'runs', 'keep', 'mx', 'md'], ['shipped']);
  checkCounts(['questions', 'runs']);
});

const here = path.dirname(fileURLToPath(import.meta.url));
const root = [path.resolve(here, '../..'), path.resolve(here, '..'), process.cwd()].find((d) => existsSync(path.join(d, 'bin', 'qpairs.mjs')))!;
const qpairs = path.join(root, 'bin', 'qpairs.mjs');

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? undefined : process.argv[i + 1];
}

interface Run {
  seconds: number;
  /** CPU time of the whole process (all threads: the 7-Zip worker too), user + system. */
  cpuSeconds: number;
  peakRssMB: number;
  counts: Record<string, number>;
  skipped: Record<string, number>;
}

/** `qpairs import` of `input` into a fresh workspace, timed, with its peak RSS (a preload hook writes maxRSS at exit). */
function importOnce(tmp: string, input: string, n: number): Run {
  const hook = path.join(tmp, 'rss-hook.mjs');
  writeFileSync(
    hook,
    `import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => { const u = process.resourceUsage(); writeFileSync(process.env.QPAIRS_BENCH_RSS, JSON.stringify([u.maxRSS, u.userCPUTime + u.systemCPUTime])); });\n`,
  );
  const ws = path.join(tmp, `bench-${n}.qpairs`);
  for (const s of ['', '-wal', '-shm']) rmSync(ws + s, { force: true });
  const init = spawnSync(process.execPath, [qpairs, 'init', ws], { encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`qpairs init failed: ${init.stderr}`);
  const rssFile = path.join(tmp, `rss-${n}`);
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--import', `file://${hook}`, qpairs, 'import', ws, '--format', 'stackexchange', input, '--source', 'bench', '--json'], {
    env: { ...process.env, QPAIRS_BENCH_RSS: rssFile },
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  const seconds = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`qpairs import ${input} failed (exit ${r.status ?? r.signal}):\n${r.stderr}`);
  const report = JSON.parse(r.stdout) as { counts: Record<string, number>; skipped: Record<string, number> };
  for (const s of ['', '-wal', '-shm']) rmSync(ws + s, { force: true });
  const [maxRss, cpuMicros] = JSON.parse(readFileSync(rssFile, 'utf8')) as [number, number];
  return { seconds, cpuSeconds: cpuMicros / 1e6, peakRssMB: maxRss / 1024, counts: report.counts, skipped: report.skipped };
}

/** Packs `dir`'s Posts.xml and PostLinks.xml into `archive` (at the archive's root) with 7-Zip (WebAssembly). */
async function pack(dir: string, archive: string, args: string[]): Promise<void> {
  const t0 = performance.now();
  // 7-Zip sees only `dir` (mounted as its working folder): it writes the archive there, then it is moved.
  const part = '.bench-archive.7z.part';
  rmSync(path.join(dir, part), { force: true });
  const r = await runSevenZip(dir, ['a', '-bd', '-t7z', ...args, part, 'Posts.xml', 'PostLinks.xml']);
  if (r.code !== 0) throw new Error(`7-Zip could not pack ${archive}: ${r.stderr}`);
  renameSync(path.join(dir, part), archive);
  console.log(`packed ${archive} (7z ${args.join(' ')}) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

const size = (p: string): number => {
  const st = statSync(p);
  if (st.isFile()) return st.size;
  return ['Posts.xml', 'PostLinks.xml', 'Posts.xml.gz', 'PostLinks.xml.gz'].map((f) => path.join(p, f)).filter((f) => existsSync(f)).reduce((a, f) => a + statSync(f).size, 0);
};
const mb = (b: number): string => `${(b / 1048576).toFixed(1)} MB`;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

async function main(): Promise<void> {
  const runs = Number(arg('runs') ?? 3);
  const questions = arg('questions');
  const keep = arg('keep');
  const dir = keep ? path.resolve(keep) : mkdtempSync(path.join(tmpdir(), 'qpairs-bench-archive-'));
  mkdirSync(dir, { recursive: true });
  const inputs: Array<{ name: string; path: string }> = [];
  try {
    if (questions) {
      const site = path.join(dir, 'bench.stackexchange.com');
      if (!existsSync(path.join(site, 'PostLinks.xml'))) {
        const s = writeStackExchangeDump({ questions: Number(questions), dir: site, seed: 7 });
        console.log(`wrote ${s.questions} questions, ${s.answers} answers (${mb(s.bytes)}) to ${site}`);
      }
      const archive = path.join(dir, 'bench.stackexchange.com.7z');
      if (!existsSync(archive)) await pack(site, archive, [`-mx=${arg('mx') ?? 1}`, `-md=${arg('md') ?? '64m'}`]);
      inputs.push({ name: 'folder, plain XML', path: site }, { name: '.7z', path: archive });
    } else {
      const shipped = path.dirname(datasetPath('stackexchange-cstheory-meta/Posts.xml'));
      const plain = path.join(dir, 'cstheory.meta.stackexchange.com');
      mkdirSync(plain, { recursive: true });
      for (const f of ['Posts.xml', 'PostLinks.xml']) {
        const gz = path.join(shipped, `${f}.gz`);
        if (!existsSync(path.join(plain, f))) writeFileSync(path.join(plain, f), existsSync(gz) ? gunzipSync(readFileSync(gz)) : readFileSync(path.join(shipped, f)));
      }
      const archive = path.join(dir, 'cstheory.meta.stackexchange.com.7z');
      if (!existsSync(archive)) await pack(plain, archive, ['-mx=9']);
      inputs.push({ name: 'folder as shipped (.xml.gz)', path: shipped }, { name: 'folder, plain XML', path: plain }, { name: '.7z', path: archive });
    }

    const results = new Map<string, Run[]>(inputs.map((i) => [i.name, []]));
    // Interleaved, so that other load on the machine hits every input alike.
    for (let r = 0; r < runs; r++) {
      for (const i of inputs) {
        const run = importOnce(dir, i.path, r);
        results.get(i.name)!.push(run);
        console.log(`run ${r + 1}: ${i.name}: ${run.seconds.toFixed(2)} s (CPU ${run.cpuSeconds.toFixed(2)} s), peak RSS ${run.peakRssMB.toFixed(0)} MB`);
      }
    }
    console.log('');
    console.log('| input | size | import wall time (s), runs | median | CPU time (s), median | peak RSS (max) | questions | duplicate pairs |');
    console.log('|---|---|---|---|---|---|---|---|');
    let reference: string | null = null;
    for (const i of inputs) {
      const rs = results.get(i.name)!;
      const c = rs[0]!.counts;
      const key = JSON.stringify({ counts: c, skipped: rs[0]!.skipped });
      if (reference === null) reference = key;
      else if (key !== reference) throw new Error(`${i.name}: the counts differ from the first input's: ${key} vs ${reference}`);
      console.log(
        `| ${i.name} | ${mb(size(i.path))} | ${rs.map((x) => x.seconds.toFixed(2)).join(', ')} | ${median(rs.map((x) => x.seconds)).toFixed(2)} | ${median(rs.map((x) => x.cpuSeconds)).toFixed(2)} | ${Math.max(...rs.map((x) => x.peakRssMB)).toFixed(0)} MB | ${c.questionsInserted ?? 0} | ${c.duplicatePairs ?? 0} |`,
      );
    }
    console.log('\nthe counts (questions, answers, duplicate pairs, skipped) are equal for every input');
  } finally {
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
