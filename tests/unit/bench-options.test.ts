/**
 * The benchmarks (`npm run bench:bm25`, `bench:scale`, `bench:live`, `bench:active`, `bench:models`,
 * `bench:archive`, `bench:semeval`, `bench:fair-use`, and `gen-se-dump`) refuse an option they do not
 * take, before anything runs. A typo (`--doc 1000` for `--docs`, `--size` for `--sizes`) was ignored
 * and the benchmark ran at its default size — bench:bm25 200,000 questions, bench:scale 100K to 3M
 * questions (about an hour and 4.5 GB of disk) — and a count that is no positive whole number (`--docs abc`,
 * `--reps x`) printed a stack trace.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BenchUsageError, checkCounts, checkOptions, checkPort } from '../../scripts/bench/bench-options';

const root = path.resolve(import.meta.dirname, '../..');
/** Where gen-se-dump would write, were its typo ignored (made in beforeAll: a run skipping every test runs no afterAll). */
let scratch = '';
beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'qpairs-bench-options-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('checkOptions', () => {
  it('takes the options given, each valued one with its value, and refuses anything else, naming the options', () => {
    expect(() => checkOptions(['docs', 'json'], ['no-lucene'], ['--docs', '10', '--no-lucene', '--json', 'x.json'])).not.toThrow();
    expect(() => checkOptions(['docs'], [], [])).not.toThrow();
    const refused = (argv: string[]) => {
      try {
        checkOptions(['docs'], ['no-lucene'], argv);
      } catch (e) {
        expect(e).toBeInstanceOf(BenchUsageError);
        return (e as Error).message;
      }
      return null;
    };
    expect(refused(['--doc', '10'])).toBe('unknown option --doc (options: --docs V, --no-lucene)');
    expect(refused(['--docs'])).toBe('--docs needs a value (options: --docs V, --no-lucene)');
    expect(refused(['--docs', '--no-lucene'])).toBe('--docs needs a value (options: --docs V, --no-lucene)');
    expect(refused(['1000'])).toBe('unexpected argument "1000" (options: --docs V, --no-lucene)');
    expect(refused(['--no-lucene', 'yes'])).toBe('unexpected argument "yes" (options: --docs V, --no-lucene)');
  });
});

describe('checkCounts', () => {
  it('takes a positive whole number or no option, and refuses anything else (NaN repetitions ended in a stack trace)', () => {
    expect(() => checkCounts(['reps'], ['--reps', '3'])).not.toThrow();
    expect(() => checkCounts(['reps'], [])).not.toThrow();
    for (const bad of ['abc', '0', '-2', '1.5']) {
      expect(() => checkCounts(['reps'], ['--reps', bad])).toThrow(new BenchUsageError(`--reps needs a positive integer, got ${bad}`));
    }
  });
});

describe('checkPort', () => {
  it('takes a TCP port or no option, and refuses anything else (bench:fair-use chose a random port, with no way to name one)', () => {
    for (const good of ['1', '25513', '65535']) expect(() => checkPort('port', ['--port', good])).not.toThrow();
    expect(() => checkPort('port', [])).not.toThrow();
    for (const bad of ['0', '65536', '-1', '80.5', 'http']) {
      expect(() => checkPort('port', ['--port', bad])).toThrow(new BenchUsageError(`--port needs a port from 1 to 65535, got ${bad}`));
    }
  });
});

describe('the benchmarks refuse a wrong command line before they run', () => {
  // The bundles the README's npm scripts run (built by the tests' global setup). Were a typo ignored,
  // these would run a small benchmark (the right option is given too) and exit 0.
  it.each([
    ['bench-bm25', ['--doc', '1000', '--docs', '200', '--queries', '5'], 'bench:bm25: unknown option --doc (options: --docs V, '],
    ['bench-bm25', ['--docs', 'abc'], 'bench:bm25: --docs needs a positive integer, got abc'],
    ['bench-scale', ['--size', '1000', '--sizes', '200', '--queries', '5', '--no-lucene'], 'bench:scale: unknown option --size (options: --sizes V, '],
    ['bench-scale', ['--sizes', 'x'], 'bench:scale: --sizes needs positive integers, got x'],
    ['bench-live', ['--querie', '50', '--skip-eval', '--skip-retrain', '--skip-incremental', '--skip-import'], 'bench:live: unknown option --querie (options: --queries V, '],
    ['bench-models', ['--rep', '1', '--reps', '1', '--models', 'tfidf', '--no-ablation', '--backends', 'wasm'], 'bench:models: unknown option --rep (options: --reps V, '],
    ['bench-live', ['--queries', 'abc', '--skip-eval', '--skip-retrain', '--skip-import'], 'bench:live: --queries needs a positive integer, got abc'],
    ['bench-models', ['--reps', 'x', '--models', 'tfidf', '--no-ablation', '--backends', 'wasm'], 'bench:models: --reps needs a positive integer, got x'],
    ['bench-archive', ['--run', '1', '--runs', '1', '--shipped'], 'bench:archive: unknown option --run (options: --questions V, '],
    ['bench-semeval-models', ['--mdoels', 'x', '--models', 'engine', '--select', '1', '--report', '1', '--no-peer'], 'bench:semeval: unknown option --mdoels (options: --data V, '],
    ['bench-export', ['--querie', '5', '--queries', '5', '--candidates', '2', '--formats', 'qrels'], 'bench:export: unknown option --querie (options: --queries V, '],
    ['bench-fair-use', ['--label', '5'], 'bench:fair-use: unknown option --label (options: --questions V, '],
    ['bench-fair-use', ['--port', '70000'], 'bench:fair-use: --port needs a port from 1 to 65535, got 70000'],
    ['gen-se-dump', ['--question', '5', '--questions', '5', '--out', 'SCRATCH/dump'], 'gen-se-dump: unknown option --question (options: --questions V, '],
    // Its valid options alone still train five rankers (minutes), so this typo has nothing cheaper beside it.
    ['bench-active', ['--rep', '1'], 'bench:active: unknown option --rep (options: --reps V, '],
  ])('%s %j: one line, exit 2', (bundle, args, start) => {
    const argv = args.map((a) => a.replace('SCRATCH', scratch));
    const r = spawnSync(process.execPath, [path.join(root, 'out', 'node', `${bundle}.mjs`), ...argv], { encoding: 'utf8', timeout: 300_000, killSignal: 'SIGKILL' });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr.startsWith(start), r.stderr).toBe(true);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stdout).toBe('');
  });
});
