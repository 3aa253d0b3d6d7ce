export function fmtMetric(x: number | null | undefined): string {
  return x == null || !Number.isFinite(x) ? '—' : x.toFixed(3);
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
