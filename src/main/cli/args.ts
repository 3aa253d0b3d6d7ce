import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A usage error: wrong flags or arguments (exit code 2). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** node:util parseArgs with readable errors as UsageError. */
export function parse<O extends Options>(argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message.replace(/^TypeError \[[A-Z_]+\]: /, ''));
  }
}

export function requireString(v: unknown, flag: string): string {
  if (typeof v !== 'string' || v === '') throw new UsageError(`missing ${flag}`);
  return v;
}

export function optionalInt(v: unknown, flag: string): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !/^-?\d+$/.test(v)) throw new UsageError(`${flag} needs a whole number, got "${String(v)}"`);
  return Number(v);
}

/** A fixed-width text table for terminal output. */
export function table(headers: string[], rows: Array<Array<string | number>>): string {
  const cells = [headers, ...rows.map((r) => r.map(String))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]): string => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(cells[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}
