/**
 * A benchmark's command line, checked before anything runs: an option it does not take, or one
 * without its value, is a usage error in one line (exit 2). The benchmarks read their options by
 * name, so a typo (`--doc 1000` for `--docs`) was ignored and the benchmark ran at its default size.
 */

/** A wrong command line of a benchmark, said in one line (exitOnUsageError), not with a stack trace. */
export class BenchUsageError extends Error {}

/**
 * Refuses an option the benchmark does not take, or one without its value (bench:bm25 ran 200,000
 * questions after `--doc 1000`, bench:scale 100K to 3M questions — about an hour and 4.5 GB of
 * temporary disk — after `--size 2000`). `valued` take a value (`--docs N`), `flags` none (`--no-lucene`).
 */
export function checkOptions(valued: readonly string[], flags: readonly string[], argv: readonly string[] = process.argv.slice(2)): void {
  const takes = `options: ${[...valued.map((v) => `--${v} V`), ...flags.map((f) => `--${f}`)].join(', ')}`;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a.startsWith('--') && valued.includes(a.slice(2))) {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new BenchUsageError(`${a} needs a value (${takes})`);
    } else if (!(a.startsWith('--') && flags.includes(a.slice(2)))) {
      throw new BenchUsageError(a.startsWith('-') ? `unknown option ${a} (${takes})` : `unexpected argument "${a}" (${takes})`);
    }
  }
}

/**
 * Refuses a value that is no positive whole number for the options that count something (`--reps abc`
 * ran with NaN repetitions and ended in a stack trace). Options not given are not checked.
 */
export function checkCounts(names: readonly string[], argv: readonly string[] = process.argv.slice(2)): void {
  for (const name of names) {
    const i = argv.indexOf(`--${name}`);
    if (i < 0) continue;
    const n = Number(argv[i + 1]);
    if (!Number.isInteger(n) || n <= 0) throw new BenchUsageError(`--${name} needs a positive integer, got ${argv[i + 1]}`);
  }
}

/**
 * Refuses a `--NAME` value that is no TCP port (a whole number from 1 to 65535), as the server would
 * only later, after the benchmark built its workspace. Not given: not checked.
 */
export function checkPort(name: string, argv: readonly string[] = process.argv.slice(2)): void {
  const i = argv.indexOf(`--${name}`);
  if (i < 0) return;
  const n = Number(argv[i + 1]);
  if (!Number.isInteger(n) || n < 1 || n > 65535) throw new BenchUsageError(`--${name} needs a port from 1 to 65535, got ${argv[i + 1]}`);
}

/** Runs a benchmark's main; a BenchUsageError ends it with `NAME: message` on standard error and exit 2. */
export function exitOnUsageError(name: string, main: () => void): void {
  try {
    main();
  } catch (e) {
    if (!(e instanceof BenchUsageError)) throw e;
    console.error(`${name}: ${e.message}`);
    process.exit(2);
  }
}
