/**
 * Serve mode's Export screen fetches an export's downloads one at a time: offering them all at once
 * held the browser's six connections to the server (and so the tab's own requests: labels, Review)
 * until the last one ended. Each is offered (lib/download.ts, `<a download>`) once the one before has
 * ended, as the server tells it: the page cannot see the browser's download, the server knows when it
 * sent the last byte or when the transfer was cut off (export.downloads). A file is then
 *
 * - waiting: its turn has not come;
 * - offered: the browser was asked to download it and the server has not begun sending it (a browser may
 *   ask whether to allow several downloads: until it is allowed, nothing is fetched; "Download again").
 *   Still so after STALLED_MS while the server answers: `stalled` (the screen says what likely happened:
 *   the browser blocked it or a prompt was dismissed); the next file still waits for it;
 * - sending: the server is sending it (bytes out so far);
 * - sent: the server sent its last byte — whether the browser saved it, only the browser can say;
 * - failed: cut off (why, as the server says); its id is still valid, so Retry fetches it again;
 * - expired: the server no longer has it (15 minutes after the export, or it restarted; with why when a
 *   transfer failed for good: its file gone from the server's disk): export again. Once an id's
 *   `expiresAt` has passed (lapse(), the screen's clock), a file not yet sent turns expired without asking
 *   the server; the server's answer, when one comes, still wins (a file it still has goes back as it was).
 *
 * The server's times (`expiresAt`) are on its clock; each answer carries its `now`, so the queue keeps how far the
 * page's clock is from the server's and holds every expiry on the page's own clock: a page whose clock is minutes
 * off shows when the file goes by its own clock and turns it expired when the server does, not minutes early or late.
 */
import type { DownloadStatus } from '../../shared/gold';

export type DownloadFileState =
  | { kind: 'waiting' }
  | { kind: 'offered'; stalled?: boolean }
  | { kind: 'sending'; sentBytes: number }
  | { kind: 'sent' }
  | { kind: 'failed'; why: string }
  | { kind: 'expired'; why?: string };

export interface QueuedDownload {
  id: string;
  name: string;
  bytes: number;
  /**
   * When the server stops keeping the id if it is not fetched, once known: on the page's clock (the server's
   * time less how far the server's clock is ahead of the page's, as its last answer said).
   */
  expiresAt?: number;
  state: DownloadFileState;
}

type OfferedDownload = Pick<QueuedDownload, 'id' | 'name' | 'bytes' | 'expiresAt'>;

export interface DownloadQueueDeps {
  /** Asks the browser to download it (a click on a link to GET /api/download/ID). */
  offer(d: { id: string; name: string }): void;
  /** export.downloads. */
  status(ids: string[]): Promise<DownloadStatus[]>;
  /** A pause between two questions to the server. */
  wait(ms: number): Promise<void>;
  /** Every change of any file's state, with all the files. */
  onChange(items: readonly QueuedDownload[]): void;
  /** The time (Date.now() by default). */
  now?: () => number;
  /** The server's time when it gave these downloads (export.write's `now`): the offered `expiresAt` are on its clock. */
  serverNow?: number;
}

/** How often the server is asked about the file being downloaded, and at most after failed questions. */
export const DOWNLOAD_POLL_MS = 400;
const MAX_POLL_MS = 5_000;
/** How long a file may stay asked for, with the server answering, before the screen says the browser likely did not fetch it. */
export const STALLED_MS = 10_000;
/** After the server said it still has a file the clock had turned expired (its clock is behind the page's): when to look again. */
export const LAPSE_RECHECK_MS = 60_000;

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
  /** When the file under way was (last) offered. */
  private offeredAt = 0;
  /** Files turned expired by the clock, with the state the server's answer may give back. */
  private readonly lapsedFrom = new Map<string, DownloadFileState>();
  /** Files the server still had after the clock turned them expired: not turned expired again before this time. */
  private readonly recheckAt = new Map<string, number>();
  private readonly now: () => number;
  /** How far the server's clock is ahead of the page's (ms; negative: behind), as its last answer with its time said. */
  private skew = 0;

  constructor(
    downloads: readonly OfferedDownload[],
    private readonly deps: DownloadQueueDeps,
    private readonly pollMs = DOWNLOAD_POLL_MS,
  ) {
    this.now = deps.now ?? Date.now;
    this.heardServerAt(deps.serverNow);
    this.items = downloads.map((d) => ({ id: d.id, name: d.name, bytes: d.bytes, ...(d.expiresAt !== undefined ? { expiresAt: this.onPageClock(d.expiresAt) } : {}), state: { kind: 'waiting' } }));
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
    if (item?.state.kind !== 'offered' || this.stopped) return;
    this.offeredAt = this.now();
    this.set(item, { kind: 'offered' });
    this.deps.offer(item);
  }

  /** When the first file not yet ended stops being fetchable (its `expiresAt`), if known. */
  get nextExpiry(): number | undefined {
    const open = this.items.filter((i) => lapsable(i.state) && i.expiresAt !== undefined).map((i) => this.lapsesAt(i));
    return open.length ? Math.min(...open) : undefined;
  }

  /**
   * Files not yet sent (waiting, asked for, failed) whose id has expired by `now` turn expired, with no
   * question to the server needed; then the server is asked once about them, and one it still has goes
   * back to what it was (its clock wins), to be looked at again LAPSE_RECHECK_MS later. The file under way
   * is asked about as it was anyway.
   */
  lapse(now = this.now()): void {
    if (this.stopped) return;
    const lapsed = this.items.filter((i) => lapsable(i.state) && i.expiresAt !== undefined && this.lapsesAt(i) <= now);
    for (const item of lapsed) {
      this.lapsedFrom.set(item.id, item.state);
      this.set(item, { kind: 'expired' });
    }
    const idle = lapsed.filter((i) => this.lapsedFrom.get(i.id)?.kind !== 'offered').map((i) => i.id);
    if (idle.length) void this.confirmLapsed(idle);
  }

  /** Stops asking and offering (a new export, the screen closed); the server keeps what was not fetched until it expires. */
  stop(): void {
    this.stopped = true;
  }

  private async fetchOne(item: QueuedDownload): Promise<void> {
    const before = this.failures.get(item.id) ?? 0;
    this.set(item, { kind: 'offered' });
    this.offeredAt = this.now();
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
      this.heardServerAt(s.now);
      if (s.expiresAt !== undefined) item.expiresAt = this.onPageClock(s.expiresAt);
      const state = stateFromStatus(s, before);
      if (state === 'unchanged') {
        this.stillOffered(item);
        continue;
      }
      this.lapsedFrom.delete(item.id);
      if (state.kind === 'failed') this.failures.set(item.id, s.failures);
      this.set(item, state);
      if (state.kind !== 'sending') return;
    }
  }

  /** The server still has the file offered and has not begun sending it: back from a lapse, or stalled after STALLED_MS. */
  private stillOffered(item: QueuedDownload): void {
    if (this.lapsedFrom.delete(item.id)) {
      this.recheckAt.set(item.id, this.now() + LAPSE_RECHECK_MS);
      this.set(item, { kind: 'offered' });
    }
    if (item.state.kind === 'offered' && !item.state.stalled && this.now() - this.offeredAt >= STALLED_MS) this.set(item, { kind: 'offered', stalled: true });
  }

  /** Asks the server about files the clock turned expired: one it still has goes back as it was (waiting ones run again). */
  private async confirmLapsed(ids: string[]): Promise<void> {
    let statuses: DownloadStatus[];
    try {
      statuses = await this.deps.status(ids);
    } catch {
      return; // the server unreachable: the clock's expired stands
    }
    this.heardServerAt(statuses[0]?.now);
    let again = false;
    for (const s of statuses) {
      const item = this.items.find((i) => i.id === s.id);
      const was = this.lapsedFrom.get(s.id);
      if (!item || !was || item.state.kind !== 'expired' || this.stopped) continue;
      this.lapsedFrom.delete(s.id);
      if (s.expiresAt !== undefined) item.expiresAt = this.onPageClock(s.expiresAt);
      if (s.state !== 'ready') {
        const state = stateFromStatus(s, this.failures.get(s.id) ?? 0);
        if (state !== 'unchanged' && state.kind !== 'expired') this.set(item, state);
        continue;
      }
      this.recheckAt.set(item.id, this.now() + LAPSE_RECHECK_MS);
      this.set(item, was);
      again ||= was.kind === 'waiting';
    }
    if (again) void this.run();
  }

  /** The server answered at its time `serverNow` (if it said): how far its clock is from the page's, now. */
  private heardServerAt(serverNow: number | undefined): void {
    if (serverNow !== undefined && Number.isFinite(serverNow)) this.skew = serverNow - this.now();
  }

  /** A time on the server's clock, on the page's. */
  private onPageClock(serverTime: number): number {
    return serverTime - this.skew;
  }

  /** When the clock turns a file expired: its expiry, or later once the server said it still had it. */
  private lapsesAt(item: QueuedDownload): number {
    return Math.max(item.expiresAt ?? Infinity, this.recheckAt.get(item.id) ?? -Infinity);
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

/** A file the clock may turn expired: not sent, not being sent, not ended. */
function lapsable(s: DownloadFileState): boolean {
  return s.kind === 'waiting' || s.kind === 'offered' || s.kind === 'failed';
}
