import { parseArgs, type ParseArgsConfig } from 'node:util';
import { closest } from '../../shared/suggest';

/** A usage error: wrong flags or arguments (exit code 2). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * Joins a negative number to the value-taking flag before it (`--seed -3` → `--seed=-3`), which
 * node:util parseArgs would otherwise refuse as an ambiguous option. Only numbers: `--pool -x`
 * stays refused (a missing value is the likelier mistake).
 */
export function joinNegativeNumbers(argv: readonly string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const next = argv[i + 1];
    const flag = a.startsWith('--') && !a.includes('=') ? options[a.slice(2)] : undefined;
    if (flag?.type === 'string' && next !== undefined && /^-\d+(\.\d+)?$/.test(next)) {
      out.push(`${a}=${next}`);
      i++;
    } else out.push(a);
  }
  return out;
}

/** node:util parseArgs with readable errors as UsageError; an unknown flag names the one it most likely meant and the command's flags. */
export function parse<O extends Options>(argv: string[], options: O) {
  refuseSingleDashWords(argv, options);
  let parsed;
  try {
    parsed = parseArgs({ args: joinNegativeNumbers(argv, options), options, allowPositionals: true, strict: true, tokens: true });
  } catch (e) {
    const err = e as Error & { code?: string };
    const unknown = err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /Unknown option '([^']+)'/.exec(err.message)?.[1] : undefined;
    if (unknown !== undefined) throw new UsageError(unknownOption(unknown, Object.keys(options)));
    throw new UsageError(err.message.replace(/^TypeError \[[A-Z_]+\]: /, ''));
  }
  refuseRepeatedOptions(parsed.tokens, options);
  return { values: parsed.values, positionals: parsed.positionals };
}

/**
 * An option given twice with different values (`--pool a … --pool b`): node:util keeps the last one
 * in silence, so a script that appended a flag to a command line acted on another pool than the one it
 * named first. Refused, naming both values; an option that takes several (`multiple`) or the same
 * value twice is fine.
 */
function refuseRepeatedOptions(tokens: ReadonlyArray<{ kind: string; name?: string; value?: string }>, options: Options): void {
  const seen = new Map<string, string | undefined>();
  for (const t of tokens) {
    if (t.kind !== 'option' || t.name === undefined || options[t.name]?.multiple) continue;
    if (seen.has(t.name) && seen.get(t.name) !== t.value) {
      const shown = (v: string | undefined): string => (v === undefined ? `--${t.name}` : JSON.stringify(v));
      throw new UsageError(`--${t.name} is given twice (${shown(seen.get(t.name))}, then ${shown(t.value)}): give it once`);
    }
    seen.set(t.name, t.value);
  }
}

/**
 * A long option written with one dash (`-pool p1`, `-json`): node:util reads it as a cluster of
 * one-letter options and said `unknown option -p` — or, where the first letter is a short option
 * taking a value, took the rest as that value (`-format semeval` gave --format "ormat"). Refused
 * here naming the word and the option it most likely meant. Skipped: a value after a flag that
 * takes one (`--name -ab` stays parseArgs' "ambiguous" error), numbers, single letters, and
 * anything after `--`.
 */
function refuseSingleDashWords(argv: readonly string[], options: Options): void {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') return;
    const m = /^-([A-Za-z][A-Za-z0-9_-]+)(=.*)?$/.exec(a);
    if (!m) continue;
    const prev = argv[i - 1];
    const prevFlag = prev?.startsWith('--') && !prev.includes('=') ? options[prev.slice(2)] : undefined;
    if (prevFlag?.type === 'string') continue;
    const flags = Object.keys(options).map((n) => `--${n}`);
    const meant = closest(`--${m[1]!}`, flags);
    throw new UsageError(
      `unknown option ${a} (${meant ? `did you mean ${meant}? ` : ''}long options take two dashes${flags.length ? `; options: ${flags.join(', ')}` : ''})`,
    );
  }
}

/** `unknown option --pol (did you mean --pool? options: --pool, --json)`. */
function unknownOption(flag: string, names: readonly string[]): string {
  const flags = names.map((n) => `--${n}`);
  if (flags.length === 0) return `unknown option ${flag} (this command takes no options)`;
  const meant = closest(flag.replace(/=.*$/, ''), flags);
  return `unknown option ${flag} (${meant ? `did you mean ${meant}? ` : ''}options: ${flags.join(', ')})`;
}

export function requireString(v: unknown, flag: string): string {
  if (typeof v !== 'string' || v === '') throw new UsageError(`missing ${flag}`);
  return v;
}

/** --convention skip|zero (issue 24: a pool's evaluation convention: pool create, pool set, eval), or undefined when not given. */
export function parseConvention(v: string | undefined): 'skip' | 'zero' | undefined {
  if (v === undefined) return undefined;
  if (v !== 'skip' && v !== 'zero') throw new UsageError('--convention is skip or zero');
  return v;
}

export function optionalInt(v: unknown, flag: string): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !/^-?\d+$/.test(v)) throw new UsageError(`${flag} needs a whole number, got "${String(v)}"`);
  return exactInt(v, flag);
}

/**
 * A whole number written in decimal, refused when a double cannot hold it exactly: beyond 2^53 − 1
 * `--seed 9007199254740993` became 9007199254740992 (two seeds, one sample, and the datasheet naming
 * another seed than the one given), `--seed 99999999999999999999999` "seed 1e+23", and
 * `--depth 99999999999999999999` an internal error with a stack trace.
 */
export function exactInt(v: string, flag: string): number {
  const n = Number(v);
  if (!Number.isSafeInteger(n)) {
    throw new UsageError(`${flag} needs a whole number from -${Number.MAX_SAFE_INTEGER} to ${Number.MAX_SAFE_INTEGER} (2^53 − 1), got "${v}"`);
  }
  return n;
}

/** A fixed-width text table for terminal output. */
export function table(headers: string[], rows: Array<Array<string | number>>): string {
  const cells = [headers, ...rows.map((r) => r.map(String))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]): string => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(cells[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

/**
 * The positional arguments a command takes, by name (`['W']`, `['W', 'NAME']`): more are a usage
 * error naming them. They were ignored: `qpairs init a.qpairs b.qpairs` made a.qpairs only and said
 * nothing of b; `qpairs models delete W m1 m2` deleted m1 alone; an unquoted path with a space
 * (`qpairs stats My W.qpairs`) ran on "My".
 */
export function takePositionals(positionals: readonly string[], names: readonly string[], command: string): void {
  const extra = positionals.slice(names.length);
  if (extra.length === 0) return;
  const shown = extra.map((a) => JSON.stringify(a)).join(' ');
  throw new UsageError(
    `unexpected argument${extra.length > 1 ? 's' : ''} ${shown}: qpairs ${command} takes ${names.join(' ')}` +
      ` (a path with spaces goes in quotes; each option's value follows its --flag)`,
  );
}
