/**
 * Serve-mode downloads of exports (export.write with `download`): the export is streamed to files in
 * a folder of the server's own, never named to the client, and each file (or an hf-dataset's one
 * zip) is given an id the browser fetches once with GET /api/download/ID (src/main/serve/server.ts).
 * Before, the files came back whole in the command's JSON answer, so the server held each of them
 * in memory several times over.
 *
 * - Where: `<base>/<pid>-<hex>/` per store (base default `<tmp>/qpairs-downloads.u<uid>`, private to
 *   the user), one subfolder per export. Opening a store removes every `<pid>-…` folder of `base`
 *   whose process is gone (a server that crashed); `clear()` (the engine closes, the server stops)
 *   removes its own.
 * - Ids: 192 random bits, bound to who asked (the engine checks the caller: access.ts
 *   authorizeDownload). An id is taken once — `take` removes it, and its file goes once it is sent
 *   (`sent`); a transfer cut off before its end gives it back (`unsent`: the browser's Retry fetches it
 *   again) — and expires unused after `ttlMs` (default 15 minutes) from when it was given, its file removed.
 * - What became of each id (ready, sending, sent, expired) is kept in a ledger (download-ledger.ts) the
 *   exporter asks with export.downloads: the page cannot see whether the browser's download worked.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pidAlive } from '../workspace/lock';
import type { DownloadStatus } from '../../shared/gold';
import { DownloadLedger } from './download-ledger';

/** How long a download waits to be fetched before it is removed. */
export const DOWNLOAD_TTL_MS = 15 * 60_000;
/** A download id: 32 base64url characters (24 random bytes). */
export const DOWNLOAD_ID_RE = /^[A-Za-z0-9_-]{32}$/;
const INSTANCE_DIR_RE = /^(\d+)-[a-f0-9]{8,32}$/;

/** `<tmp>/qpairs-downloads.u<uid>` (one per user: tmp may be shared), or `<tmp>/qpairs-downloads`. */
export function defaultDownloadBase(): string {
  const uid = process.getuid?.();
  return path.join(tmpdir(), uid === undefined ? 'qpairs-downloads' : `qpairs-downloads.u${uid}`);
}

/** Removes the download folders of `base` whose server process is gone; returns them. */
export function sweepStaleDownloads(base = defaultDownloadBase()): string[] {
  const removed: string[] = [];
  let names: string[] = [];
  try {
    names = readdirSync(base);
  } catch {
    return removed;
  }
  for (const n of names) {
    const m = INSTANCE_DIR_RE.exec(n);
    if (!m || pidAlive(Number(m[1]))) continue;
    try {
      rmSync(path.join(base, n), { recursive: true, force: true });
      removed.push(path.join(base, n));
    } catch {
      // not ours to remove, or gone
    }
  }
  return removed;
}

/** One file of a download: where it is on the server, and its name in the download (a zip's entry: `POOL/README.md`). */
export interface DownloadFile {
  path: string;
  name: string;
  bytes: number;
}

/** What a download id stands for. Its paths are the server's: never sent to a client. */
export interface Download {
  /** Who asked for it (access.ts principalOf): no one else may fetch it. */
  owner: string;
  /** The file name the browser saves it under. */
  name: string;
  /** One file, or (zip) the files the zip holds, in order. */
  files: DownloadFile[];
  zip: boolean;
}

interface Held {
  download: Download;
  folder: string;
  timer: ReturnType<typeof setTimeout>;
  /** When it expires (Date.now() time). */
  expires: number;
}

/**
 * A download taken to be sent: `progress` as its bytes go out, `sent` once the last is out, `unsent` when
 * the transfer was cut off (`why` is what its exporter is told): the id is given back, unless `lost` (its
 * file is gone from the server's disk: fetching it again could only fail) — then it is removed.
 */
export type TakenDownload = Download & { progress: (bytes: number) => void; sent: () => void; unsent: (why?: string, lost?: boolean) => void };

export class DownloadStore {
  private dir: string | null = null;
  private readonly held = new Map<string, Held>();
  /** Ids not yet sent (or expired) per export folder: the folder goes with its last one. */
  private readonly pending = new Map<string, number>();
  /** Counts clear()s: a download taken before one is not given back after it. */
  private generation = 0;
  private readonly ledger: DownloadLedger;

  constructor(
    private readonly base = defaultDownloadBase(),
    private readonly ttlMs = DOWNLOAD_TTL_MS,
  ) {
    this.ledger = new DownloadLedger(ttlMs);
  }

  /** A new folder, private to this store, for one export's files (made on first use, with the store's own folder). */
  folder(): string {
    if (this.dir === null) {
      mkdirSync(this.base, { recursive: true, mode: 0o700 });
      sweepStaleDownloads(this.base);
      this.dir = path.join(this.base, `${process.pid}-${randomBytes(8).toString('hex')}`);
      mkdirSync(this.dir, { mode: 0o700 });
    }
    const f = path.join(this.dir, randomBytes(8).toString('hex'));
    mkdirSync(f, { mode: 0o700 });
    return f;
  }

  /** Gives each download of the export in `folder` its id (in order); the folder is removed once every one is sent or expired. */
  add(folder: string, downloads: readonly Download[]): string[] {
    const expires = Date.now() + this.ttlMs;
    const ids = downloads.map((download) => {
      const id = randomBytes(24).toString('base64url');
      this.hold(id, { download, folder, expires });
      this.ledger.given(id, download.owner, expires);
      return id;
    });
    this.pending.set(folder, (this.pending.get(folder) ?? 0) + ids.length);
    if (!ids.length) this.discard(folder);
    return ids;
  }

  /** The download behind an id (to check who may fetch it), or undefined: unknown, taken or expired. */
  peek(id: string): Download | undefined {
    return this.held.get(id)?.download;
  }

  /** What became of an id, with who it is for (to check who may ask); undefined once forgotten (ledger). */
  status(id: string): (DownloadStatus & { owner: string }) | undefined {
    return this.ledger.get(id);
  }

  /**
   * Takes a download once: its id is gone until `unsent` gives it back (a transfer cut off, while it has
   * not expired and the store is not cleared); `sent` removes its files. Only the first of the two counts.
   */
  take(id: string): TakenDownload | undefined {
    const h = this.held.get(id);
    if (!h) return undefined;
    this.held.delete(id);
    clearTimeout(h.timer);
    const generation = this.generation;
    this.ledger.sending(id);
    let done = false;
    const once =
      <A extends unknown[]>(fn: (...args: A) => void) =>
      (...args: A): void => {
        if (done) return;
        done = true;
        fn(...args);
      };
    return {
      ...h.download,
      progress: (bytes) => {
        if (!done && generation === this.generation) this.ledger.progress(id, bytes);
      },
      sent: once(() => {
        if (generation === this.generation) this.ledger.sent(id);
        this.release(h);
      }),
      unsent: once((why: string = 'the transfer was cut off', lost = false) => {
        if (generation !== this.generation) return this.release(h);
        const again = !lost && Date.now() < h.expires;
        this.ledger.failed(id, why, again ? 'ready' : 'expired');
        if (again) this.hold(id, h);
        else this.release(h);
      }),
    };
  }

  /** Removes an export's folder (it failed or was cancelled before its ids were given). */
  discard(folder: string): void {
    this.pending.delete(folder);
    rmSync(folder, { recursive: true, force: true });
  }

  /** How many ids wait to be fetched. */
  get size(): number {
    return this.held.size;
  }

  /** Removes every download and the store's folder (the engine closes: the server stops). */
  clear(): void {
    this.generation++;
    for (const h of this.held.values()) clearTimeout(h.timer);
    this.held.clear();
    this.pending.clear();
    this.ledger.clear();
    if (this.dir !== null) rmSync(this.dir, { recursive: true, force: true });
    this.dir = null;
  }

  /** Holds `id` until it is taken or expires. */
  private hold(id: string, h: Omit<Held, 'timer'>): void {
    const timer = setTimeout(() => this.expire(id), Math.max(0, h.expires - Date.now()));
    timer.unref();
    this.held.set(id, { ...h, timer });
  }

  private expire(id: string): void {
    const h = this.held.get(id);
    if (!h) return;
    this.held.delete(id);
    this.ledger.expired(id);
    this.release(h);
  }

  /** A download's files are no longer needed: removed, and its export's folder with its last download. */
  private release(h: Held): void {
    for (const f of h.download.files) rmSync(f.path, { force: true });
    const left = (this.pending.get(h.folder) ?? 1) - 1;
    if (left > 0) this.pending.set(h.folder, left);
    else this.discard(h.folder);
  }
}
