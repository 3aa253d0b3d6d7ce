/** Helpers shared by the CLI command modules (each exports `(argv, out) => Promise<number>`). */
import { Workspace } from '../../workspace/workspace';
import { UsageError } from '../args';

export type Out = { log: (s: string) => void; err: (s: string) => void };
export type Command = (argv: string[], out: Out) => Promise<number>;

export function openWorkspace(path: string | undefined): Workspace {
  if (!path) throw new UsageError('missing workspace path W');
  return Workspace.open(path);
}

/** Runs fn on the opened workspace and closes it. */
export async function withWorkspace<T>(path: string | undefined, fn: (ws: Workspace) => T | Promise<T>): Promise<T> {
  const ws = openWorkspace(path);
  try {
    return await fn(ws);
  } finally {
    ws.close();
  }
}

export function json(o: unknown): string {
  return JSON.stringify(o, null, 2);
}

/** A comma-separated list flag (`A,B,C`), trimmed, empty entries dropped. */
export function list(v: string | undefined): string[] | undefined {
  if (v === undefined) return undefined;
  const l = v.split(',').map((s) => s.trim()).filter(Boolean);
  if (l.length === 0) throw new UsageError('an empty list was given');
  return l;
}

/** A positive whole number flag. */
export function positiveInt(v: string | undefined, flag: string): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v) || Number(v) < 1) throw new UsageError(`${flag} needs a positive whole number, got "${v}"`);
  return Number(v);
}

export function intFlag(v: string | undefined, flag: string): number | undefined {
  if (v === undefined) return undefined;
  if (!/^-?\d+$/.test(v)) throw new UsageError(`${flag} needs a whole number, got "${v}"`);
  return Number(v);
}

export function numberFlag(v: string | undefined, flag: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n)) throw new UsageError(`${flag} needs a number, got "${v}"`);
  return n;
}

/** A statistic for a text table: 3 decimals, or "n/a". */
export function fmt(s: { value: number | null }, digits = 3): string {
  return s.value === null ? 'n/a' : s.value.toFixed(digits);
}

export function fmtCi(s: { value: [number, number] | null }, digits = 3): string {
  return s.value === null ? 'n/a' : `[${s.value[0].toFixed(digits)}, ${s.value[1].toFixed(digits)}]`;
}
