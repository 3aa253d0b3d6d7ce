/**
 * What the Export screen says of serve-mode downloads (exportDownloadsView.ts): each state in words —
 * "sent" is the server's last byte, never a file saved — and one line for them all, which does not
 * change as a file's bytes go out (it is said to screen readers).
 */
import { describe, expect, it } from 'vitest';
import type { QueuedDownload, DownloadFileState } from '../lib/download-queue';
import { clockTime, downloadStateText, downloadsSummary, fmtBytes } from './exportDownloadsView';

const file = (name: string, state: DownloadFileState, bytes = 2_500_000): QueuedDownload => ({ id: name, name, bytes, state });

describe('export downloads in words', () => {
  it('says each state, and never that the browser saved a file', () => {
    const texts = [
      downloadStateText(file('p.jsonl', { kind: 'waiting' })),
      downloadStateText(file('p.jsonl', { kind: 'offered' })),
      downloadStateText(file('p.jsonl', { kind: 'sending', sentBytes: 1_200_000 })),
      downloadStateText(file('p.jsonl', { kind: 'sent' })),
      downloadStateText(file('p.jsonl', { kind: 'failed', why: 'the connection closed before the end (10 of 100 bytes sent)' })),
      downloadStateText(file('p.jsonl', { kind: 'expired' })),
      downloadStateText(file('p.jsonl', { kind: 'expired', why: 'the server could not read the file (ENOENT)' })),
    ];
    expect(texts[2]).toBe('downloading: 1.2 MB of 2.5 MB sent');
    expect(texts[3]).toBe('sent: the server sent all 2.5 MB; your browser’s downloads list shows whether and where it saved it');
    expect(texts[4]).toContain('failed: the connection closed before the end (10 of 100 bytes sent). Retry');
    expect(texts[5]).toContain('export again to make new ones');
    expect(texts[6]).toBe('failed: the server could not read the file (ENOENT); the server no longer has it, so it cannot be fetched again: export again to make new ones');
    for (const t of texts) expect(t).not.toMatch(/\b(was|were|is) saved\b|\bsaved to\b/);
  });

  it('says until when a failed or stalled file can be fetched again, by the clock, once the server said it', () => {
    const at = new Date(2026, 10, 29, 14, 32, 50).getTime();
    const failed = { ...file('p.jsonl', { kind: 'failed', why: 'cut off' }), expiresAt: at };
    expect(clockTime(at)).toBe('14:32');
    expect(clockTime(new Date(2026, 10, 29, 9, 5).getTime())).toBe('09:05');
    expect(downloadStateText(failed)).toBe('failed: cut off. Retry fetches it again until 14:32, when the server stops keeping it');
    expect(downloadStateText(file('p.jsonl', { kind: 'failed', why: 'cut off' }))).toBe('failed: cut off. Retry fetches it again while the server keeps it (15 minutes from the export)');
    const stalled = downloadStateText({ ...file('p.jsonl', { kind: 'offered', stalled: true }), expiresAt: at });
    expect(stalled).toContain('your browser has not fetched it');
    expect(stalled).toContain("allow this site's automatic downloads");
    expect(stalled).toContain('Choose Download again, until 14:32');
    expect(downloadStateText(file('p.jsonl', { kind: 'offered' }))).not.toContain('has not fetched it');
  });

  it('sums them up in one line that names the file under way, and not its bytes', () => {
    const a = file('p.jsonl', { kind: 'sent' });
    const b = file('p.jsonl.datasheet.md', { kind: 'sending', sentBytes: 10 });
    const c = file('p.csv', { kind: 'waiting' });
    expect(downloadsSummary([a, b, c])).toBe('Downloads: 1 of 3 files sent by the server; now p.jsonl.datasheet.md');
    expect(downloadsSummary([a, { ...b, state: { kind: 'sending', sentBytes: 99 } }, c])).toBe(downloadsSummary([a, b, c]));
    expect(downloadsSummary([a, { ...b, state: { kind: 'failed', why: 'x' } }, { ...c, state: { kind: 'expired' } }])).toBe('Downloads: 1 of 3 files sent by the server, 1 failed, 1 expired.');
  });

  it('gives sizes in bytes, KB, MB and GB', () => {
    expect([fmtBytes(1), fmtBytes(999), fmtBytes(1500), fmtBytes(2_500_000), fmtBytes(3_210_000_000)]).toEqual(['1 byte', '999 bytes', '1.5 KB', '2.5 MB', '3.2 GB']);
  });
});
