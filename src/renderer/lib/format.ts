import type { ImportSubject } from '../../shared/contract';

/**
 * IR metrics (MAP, MRR, P@k, R-Prec, AP, RR) in the papers' and the CLI's format: percent with
 * two decimals, no sign (0.71354 → "71.35"); null or not finite → "—".
 */
export function fmtMetric(x: number | null | undefined): string {
  return x == null || !Number.isFinite(x) ? '—' : (x * 100).toFixed(2);
}

/** Minutes, hours: an ETA from a rate (items per ms) and the items left. */
export function fmtEta(left: number, msPerItem: number | null): string {
  if (msPerItem == null || !Number.isFinite(msPerItem) || msPerItem <= 0) return '—';
  if (left <= 0) return 'done';
  const ms = left * msPerItem;
  const min = Math.round(ms / 60_000);
  if (min < 1) return '< 1 min';
  if (min < 60) return `${min} min`;
  return `${Math.floor(min / 60)} h ${String(min % 60).padStart(2, '0')} min`;
}

export function fmtDuration(ms: number | null): string {
  if (ms == null || !Number.isFinite(ms)) return '—';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  return `${m} min ${String(s % 60).padStart(2, '0')} s`;
}

export function fmtInt(n: number): string {
  return n.toLocaleString('en-US');
}

/**
 * An import's progress beside its bar: the bytes of its files read so far, in MB (the bare
 * "2,621,440 / 23,027,767" named no unit); null while it indexes (those counts are questions).
 */
export function fmtImportProgress(done: number, total: number, message: string): string | null {
  if (message === 'indexing' || total <= 0) return null;
  const mb = (n: number): string => (n / 1_000_000).toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return `${mb(done)} of ${mb(total)} MB read`;
}

/**
 * What a running import imports, for a tab following it (it may not have started it): "Importing
 * large.jsonl (questions-jsonl) into pool dev, started by alice at 10:02:03". Files as the events name
 * them (an upload's chosen name, a server file's base name); beyond three, how many more. `startedBy`
 * null: the owner without a sign-in token (the desktop app, serve mode on loopback).
 */
export function fmtImportSubject(s: ImportSubject, time: (iso: string) => string = (iso) => new Date(iso).toLocaleTimeString()): string {
  const files = s.files.length <= 3 ? s.files.join(', ') : `${s.files.slice(0, 3).join(', ')} and ${fmtCount(s.files.length - 3, 'more file', 'more files')}`;
  const pool = s.pool === undefined ? '' : ` into pool ${s.pool}`;
  const by = s.startedBy === null ? 'the owner' : s.startedBy;
  return `Importing ${files} (${s.format})${pool}, started by ${by} at ${time(s.started)}`;
}

/** A count with its noun in the right number: "1 pair", "2 pairs", "0 rulings". */
export function fmtCount(n: number, one: string, many = `${one}s`): string {
  return `${fmtInt(n)} ${n === 1 ? one : many}`;
}

export function snippet(text: string, max = 180): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > max ? t.slice(0, max - 1).trimEnd() + '…' : t;
}

export function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * Import errors name the uploaded temp file (…/qpairs-uploads-XXXX/<upload id>/name.xml); show
 * just the name the user chose.
 */
export function cleanUploadPaths(message: string): string {
  return message.replace(/[^\s"'(]*qpairs-uploads-[^/\\\s]+[/\\][a-f0-9-]{8,64}[/\\]/g, '');
}
