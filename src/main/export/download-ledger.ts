/**
 * What became of each download id (export.downloads, the Export screen's per-file state): the page
 * cannot see whether the browser's download of `<a download>` worked, the server can — it knows when
 * it sent a download's last byte (the response finished) and when a transfer was cut off (the client
 * went away, the file could not be read). The DownloadStore (downloads.ts) tells the ledger each step.
 *
 * A record is kept from when its id is given until `keepMs` after its end (sent or expired), then
 * forgotten (answered as unknown, as an id that never was); clear() forgets all (the server stops).
 * "sent" means the server sent every byte, not that the browser saved the file.
 */
import type { DownloadStatus } from '../../shared/gold';

interface Entry {
  owner: string;
  state: Exclude<DownloadStatus['state'], 'unknown'>;
  sentBytes: number;
  failures: number;
  failure?: string;
  /** When the id stops being fetchable if it is not fetched (Date.now() time; the store's ttl from when it was given). */
  expiresAt: number;
  /** When an ended record is forgotten (Date.now() time); none while it may still be fetched. */
  forgetAt?: number;
}

export class DownloadLedger {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly keepMs: number) {}

  /** An id is given (to `owner`, access.ts principalOf), ready to be fetched until `expiresAt` (Date.now() time). */
  given(id: string, owner: string, expiresAt: number): void {
    this.forgetEnded();
    this.entries.set(id, { owner, state: 'ready', sentBytes: 0, failures: 0, expiresAt });
  }

  /** Its transfer began. */
  sending(id: string): void {
    this.update(id, { state: 'sending', sentBytes: 0 });
  }

  /** `bytes` of it are out so far. */
  progress(id: string, bytes: number): void {
    const e = this.entries.get(id);
    if (e?.state === 'sending') e.sentBytes = bytes;
  }

  /** The server sent its last byte. */
  sent(id: string): void {
    const e = this.entries.get(id);
    if (e) this.update(id, { state: 'sent', forgetAt: Date.now() + this.keepMs });
  }

  /** Its transfer was cut off (`why`); the id was given back (`ready`: fetch it again) or removed (`expired`). */
  failed(id: string, why: string, then: 'ready' | 'expired'): void {
    const e = this.entries.get(id);
    if (!e) return;
    this.update(id, { state: then, failures: e.failures + 1, failure: why, ...(then === 'expired' ? { forgetAt: Date.now() + this.keepMs } : {}) });
  }

  /** It was not fetched in time and is removed. */
  expired(id: string): void {
    if (this.entries.has(id)) this.update(id, { state: 'expired', forgetAt: Date.now() + this.keepMs });
  }

  /** The record of an id and who it is for, or undefined once forgotten (or never given). */
  get(id: string): (DownloadStatus & { owner: string }) | undefined {
    this.forgetEnded();
    const e = this.entries.get(id);
    if (!e) return undefined;
    return { id, owner: e.owner, state: e.state, sentBytes: e.sentBytes, failures: e.failures, expiresAt: e.expiresAt, ...(e.failure !== undefined ? { failure: e.failure } : {}) };
  }

  clear(): void {
    this.entries.clear();
  }

  private update(id: string, change: Partial<Entry>): void {
    const e = this.entries.get(id);
    if (e) Object.assign(e, change);
  }

  private forgetEnded(): void {
    const now = Date.now();
    for (const [id, e] of this.entries) if (e.forgetAt !== undefined && e.forgetAt <= now) this.entries.delete(id);
  }
}
