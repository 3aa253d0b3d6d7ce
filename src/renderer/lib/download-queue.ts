/**
 * Serve mode's Export screen fetches an export's downloads one at a time: offering them all at once
 * held the browser's six connections to the server (and so the tab's own requests: labels, Review)
 * until the last one ended. Each is offered (lib/download.ts, `<a download>`) once the one before has
 * ended, as the server tells it: the page cannot see the browser's download, the server knows when it
 * sent the last byte or when the transfer was cut off (export.downloads). A file is then
 *
 * - waiting: its turn has not come;
 * - offered: the browser was asked to download it and the server has not begun sending it (a browser may
 *   ask whether to allow several downloads: until it is allowed, nothing is fetched; "Download again");
 * - sending: the server is sending it (bytes out so far);
 * - sent: the server sent its last byte — whether the browser saved it, only the browser can say;
 * - failed: cut off (why, as the server says); its id is still valid, so Retry fetches it again;
 * - expired: the server no longer has it (15 minutes after the export, or it restarted; with why when a
 *   transfer failed for good: its file gone from the server's disk): export again.
 */
import type { DownloadStatus } from '../../shared/gold';

export type DownloadFileState =
  | { kind: 'waiting' }
  | { kind: 'offered' }
  | { kind: 'sending'; sentBytes: number }
  | { kind: 'sent' }
  | { kind: 'failed'; why: string }
  | { kind: 'expired'; why?: string };

export interface QueuedDownload {
  id: string;
  name: string;
  bytes: number;
  state: DownloadFileState;
}

export interface DownloadQueueDeps {
  /** Asks the browser to download it (a click on a link to GET /api/download/ID). */
  offer(d: { id: string; name: string }): void;
  /** export.downloads. */
  status(ids: string[]): Promise<DownloadStatus[]>;
  /** A pause between two questions to the server. */
  wait(ms: number): Promise<void>;
  /** Every change of any file's state, with all the files. */
  onChange(items: readonly QueuedDownload[]): void;
}

/** How often the server is asked about the file being downloaded, and at most after failed questions. */
export const DOWNLOAD_POLL_MS = 400;
const MAX_POLL_MS = 5_000;

/** What a file's download is, from the server's status of its id; `failuresBefore`: the failures known when it was offered. */
export function stateFromStatus(s: DownloadStatus, failuresBefore: number): DownloadFileState | 'unchanged' {
  switch (s.state) {
    case 'sent':
      return { kind: 'sent' };
    case 'sending':
      return { kind: 'sending', sentBytes: s.sentBytes };
    case 'expired':
      return s.failures > failuresBefore && s.failure ? { kind: 'expired', why: s.failure } : { kind: 'expired' };
    case 'unknown':
      return { kind: 'expired' };
    case 'ready':
      return s.failures > failuresBefore ? { kind: 'failed', why: s.failure ?? 'the transfer was cut off' } : 'unchanged';
  }
}

export class DownloadQueue {
  private readonly items: QueuedDownload[];
  /** The failures the server had counted for each id when it was last offered. */
  private readonly failures = new Map<string, number>();
  /** The run under way, if any. */
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    downloads: ReadonlyArray<{ id: string; name: string; bytes: number }>,
    private readonly deps: DownloadQueueDeps,
    private readonly pollMs = DOWNLOAD_POLL_MS,
  ) {
    this.items = downloads.map((d) => ({ id: d.id, name: d.name, bytes: d.bytes, state: { kind: 'waiting' } }));
  }

  get files(): readonly QueuedDownload[] {
    return this.items;
  }

  /**
   * Offers the files one at a time, in order, each once the one before has ended; resolves when none is
   * left waiting (or it is stopped). Called while it runs: the run under way.
   */
  run(): Promise<void> {
    this.running ??= (async () => {
      this.emit();
      try {
        for (let next = this.nextWaiting(); next && !this.stopped; next = this.nextWaiting()) await this.fetchOne(next);
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  /** A failed file goes back in line (its id is still valid); the queue runs again if it had ended. Resolves as run() does. */
  retry(id: string): Promise<void> {
    const item = this.items.find((i) => i.id === id);
    if (!item || item.state.kind !== 'failed' || this.stopped) return this.running ?? Promise.resolve();
    this.set(item, { kind: 'waiting' });
    return this.run();
  }

  /** Asks the browser again for a file it was asked for and has not fetched (it may have asked to allow several downloads). */
  offerAgain(id: string): void {
    const item = this.items.find((i) => i.id === id);
    if (item?.state.kind === 'offered' && !this.stopped) this.deps.offer(item);
  }

  /** Stops asking and offering (a new export, the screen closed); the server keeps what was not fetched until it expires. */
  stop(): void {
    this.stopped = true;
  }

  private async fetchOne(item: QueuedDownload): Promise<void> {
    const before = this.failures.get(item.id) ?? 0;
    this.set(item, { kind: 'offered' });
    this.deps.offer(item);
    let errors = 0;
    while (!this.stopped) {
      await this.deps.wait(Math.min(this.pollMs * 2 ** errors, MAX_POLL_MS));
      if (this.stopped) return;
      let s: DownloadStatus | undefined;
      try {
        s = (await this.deps.status([item.id])).find((x) => x.id === item.id);
        errors = 0;
      } catch {
        errors++; // the server unreachable a moment: ask again, less often
        continue;
      }
      if (!s) continue;
      const state = stateFromStatus(s, before);
      if (state === 'unchanged') continue;
      if (state.kind === 'failed') this.failures.set(item.id, s.failures);
      this.set(item, state);
      if (state.kind !== 'sending') return;
    }
  }

  private nextWaiting(): QueuedDownload | undefined {
    return this.items.find((i) => i.state.kind === 'waiting');
  }

  private set(item: QueuedDownload, state: DownloadFileState): void {
    const same = item.state.kind === state.kind && JSON.stringify(item.state) === JSON.stringify(state);
    item.state = state;
    if (!same) this.emit();
  }

  private emit(): void {
    if (!this.stopped) this.deps.onChange(this.items.map((i) => ({ ...i })));
  }
}
