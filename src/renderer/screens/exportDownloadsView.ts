/**
 * What the Export screen says of each serve-mode download (lib/download-queue.ts) and of them all:
 * only what is known — the server sent a file's last byte ("sent"), never that the browser saved it,
 * which only the browser's downloads list shows.
 */
import { counted } from '../../shared/plural';
import type { QueuedDownload } from '../lib/download-queue';

/** Bytes as the screen shows them: B under a KB, else KB / MB / GB with one decimal. */
export function fmtBytes(n: number): string {
  if (n < 1000) return counted(n, 'byte');
  const [unit, size] = n < 1e6 ? ['KB', 1e3] : n < 1e9 ? ['MB', 1e6] : ['GB', 1e9];
  return `${(n / size).toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} ${unit}`;
}

/** A time as the screen's clock shows it: 14:32 (24-hour, local time). */
export function clockTime(ms: number): string {
  const t = new Date(ms);
  return `${String(t.getHours()).padStart(2, '0')}:${String(t.getMinutes()).padStart(2, '0')}`;
}

/** Until when the server keeps a file not yet fetched: "until 14:32", or (not known yet) "15 minutes from the export". */
function keptUntil(d: QueuedDownload): string {
  return d.expiresAt === undefined ? 'while the server keeps it (15 minutes from the export)' : `until ${clockTime(d.expiresAt)}, when the server stops keeping it`;
}

/** A file's state in words. */
export function downloadStateText(d: QueuedDownload): string {
  const s = d.state;
  switch (s.kind) {
    case 'waiting':
      return 'waiting: it starts once the file before it has ended';
    case 'offered':
      if (s.stalled)
        return `your browser has not fetched it: it was likely blocked (a browser may block a site's second and later downloads: allow this site's automatic downloads, in the address bar's blocked-download icon or the site's settings) or its prompt was dismissed. Choose Download again, ${keptUntil(d)}`;
      return 'your browser was asked to download it; the server has not begun sending it yet (if the browser asks whether to allow several downloads, allow it, or choose Download again)';
    case 'sending':
      return `downloading: ${fmtBytes(s.sentBytes)} of ${fmtBytes(d.bytes)} sent`;
    case 'sent':
      return `sent: the server sent all ${fmtBytes(d.bytes)}; your browser’s downloads list shows whether and where it saved it`;
    case 'failed':
      return `failed: ${s.why}. Retry fetches it again ${keptUntil(d)}`;
    case 'expired':
      if (s.why) return `failed: ${s.why}; the server no longer has it, so it cannot be fetched again: export again to make new ones`;
      return 'expired: the server no longer has it (it keeps a download 15 minutes, and not across a restart); export again to make new ones';
  }
}

/** One line for all the files (said to screen readers as it changes; a file's bytes going out do not change it). */
export function downloadsSummary(items: readonly QueuedDownload[]): string {
  const n = (kind: QueuedDownload['state']['kind']): number => items.filter((i) => i.state.kind === kind).length;
  const current = items.find((i) => i.state.kind === 'offered' || i.state.kind === 'sending');
  const parts = [`${n('sent')} of ${counted(items.length, 'file')} sent by the server`];
  if (n('failed')) parts.push(`${n('failed')} failed`);
  if (n('expired')) parts.push(`${n('expired')} expired`);
  const head = `Downloads: ${parts.join(', ')}`;
  return current ? `${head}; now ${current.name}` : `${head}.`;
}
