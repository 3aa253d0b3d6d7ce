/**
 * Files uploaded over HTTP in serve mode (imports from a browser).
 *
 * - Where: each server instance has its own directory `<base>/<pid>-<random>/` (base default
 *   `<tmp>/qpairs-uploads.u<uid>`, private to the user), one subdirectory per upload holding the file under its sanitised
 *   original name — so import error reports name the file the user chose. The engine resolves
 *   an upload id with `store.path(id)`.
 * - Bounds: each upload is capped (`maxBytes` of `receive`), and all of a store's uploads
 *   together — finished ones plus the bytes of those still arriving — by its quota (default
 *   4 GiB): an upload that would go over it is refused (UploadQuotaError) and its partial file
 *   deleted.
 * - Lifetime: until `remove(id)`, `clear()` (the server stops) or the process ends. A server that
 *   crashed cannot clear its directory; opening a store removes every `<pid>-…` directory of
 *   `base` whose process is gone (sweepStaleUploads).
 *
 * `openUploadStore()` makes a store per server instance. The module-level functions
 * (receiveUpload, uploadPath, …) use one default store per process.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream, existsSync, lstatSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { NotFoundError, QPairsError } from '../errors';
import { pidAlive } from '../workspace/lock';
import { UPLOAD_ID_RE } from '../../shared/contract';

/** Total size of one store's uploads (default quota). */
export const DEFAULT_UPLOAD_QUOTA = 4 * 1024 ** 3;
/** Directory names of per-instance upload directories: `<pid>-<hex>`. */
const INSTANCE_DIR_RE = /^(\d+)-[a-f0-9]{8,32}$/;
/** Upload directories of QPairs versions before per-instance directories, directly in tmp. */
const LEGACY_DIR_RE = /^qpairs-uploads-[A-Za-z0-9]{6}$/;
const LEGACY_MAX_AGE_MS = 24 * 3600 * 1000;

/** `<tmp>/qpairs-uploads.u<uid>` (one per user: tmp may be shared), or `<tmp>/qpairs-uploads`. */
export function defaultUploadBase(): string {
  const uid = process.getuid?.();
  return path.join(tmpdir(), uid === undefined ? 'qpairs-uploads' : `qpairs-uploads.u${uid}`);
}

/** A file name safe to create: the base name, odd characters replaced, at most 200 chars. */
export function sanitiseName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = base.replace(/[^\w.\- ()+,@=]/g, '_').replace(/^\.+/, '_').slice(0, 200).trim();
  return clean || 'upload';
}

/** Raised when an upload exceeds its size cap. */
export class UploadTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`upload exceeds the size limit of ${limit} bytes`);
    this.name = 'UploadTooLargeError';
  }
}

const gib = (n: number): string => (n >= 1024 ** 3 ? `${(n / 1024 ** 3).toFixed(1)} GiB` : n >= 1024 ** 2 ? `${(n / 1024 ** 2).toFixed(1)} MiB` : `${n} bytes`);

/** Raised when an upload would bring a store's uploads over their total quota (HTTP 413). */
export class UploadQuotaError extends QPairsError {
  constructor(
    readonly quota: number,
    readonly held: number,
    name: string,
  ) {
    super(
      `${name}: refused, the uploads kept by this server would exceed their total quota of ${gib(quota)} (${gib(held)} held by other uploads). ` +
        `Uploads are kept until the server stops: import what was uploaded, then restart the server, or start it with a larger upload quota.`,
      { file: name, reason: 'upload quota' },
    );
    this.name = 'UploadQuotaError';
  }
}

/**
 * Removes upload directories left by servers that are gone: every `<pid>-<hex>` directory of
 * `base` whose process no longer runs (a live process's directory is kept, even if the pid was
 * reused), and, in `legacyDir` (default the OS tmp dir), `qpairs-uploads-XXXXXX` directories of
 * older QPairs versions untouched for a day. Returns the removed paths; errors are ignored.
 */
export function sweepStaleUploads(base = defaultUploadBase(), legacyDir: string | null = tmpdir()): string[] {
  const removed: string[] = [];
  const rm = (p: string): void => {
    try {
      rmSync(p, { recursive: true, force: true });
      removed.push(p);
    } catch {
      // not ours to remove (another user's), or already gone
    }
  };
  const list = (dir: string): string[] => {
    try {
      return readdirSync(dir);
    } catch {
      return [];
    }
  };
  for (const n of list(base)) {
    const m = INSTANCE_DIR_RE.exec(n);
    if (m && !pidAlive(Number(m[1]))) rm(path.join(base, n));
  }
  if (legacyDir) {
    const now = Date.now();
    for (const n of list(legacyDir)) {
      if (!LEGACY_DIR_RE.test(n)) continue;
      const p = path.join(legacyDir, n);
      try {
        if (now - statSync(p).mtimeMs > LEGACY_MAX_AGE_MS) rm(p);
      } catch {
        // gone meanwhile
      }
    }
  }
  return removed;
}

interface Upload {
  path: string;
  name: string;
  size: number;
}

export interface UploadStoreOptions {
  /** Parent of the per-instance directories (default `<tmp>/qpairs-uploads`). */
  baseDir?: string;
  /** Total bytes of this store's uploads, arriving ones included (default 4 GiB). */
  quotaBytes?: number;
  /** Remove directories of dead servers first (default true). */
  sweep?: boolean;
}

/** The uploads of one server instance (see the module comment). */
export class UploadStore {
  readonly dir: string;
  readonly quotaBytes: number;
  private readonly uploads = new Map<string, Upload>();
  private stored = 0;
  private arriving = 0;
  private cleared = false;

  constructor(o: UploadStoreOptions = {}) {
    const base = o.baseDir ?? defaultUploadBase();
    if (o.sweep ?? true) sweepStaleUploads(base, o.baseDir === undefined ? tmpdir() : null);
    this.quotaBytes = o.quotaBytes ?? DEFAULT_UPLOAD_QUOTA;
    if (!(this.quotaBytes > 0)) throw new QPairsError(`the upload quota must be a positive number of bytes (got ${o.quotaBytes})`);
    mkdirSync(base, { recursive: true, mode: 0o700 });
    const st = lstatSync(base);
    if (!st.isDirectory() || (process.getuid && st.uid !== process.getuid())) {
      throw new QPairsError(`the upload directory ${base} is not a directory of this user; remove it or choose another`, { file: base });
    }
    this.dir = path.join(base, `${process.pid}-${randomBytes(8).toString('hex')}`);
    mkdirSync(this.dir, { mode: 0o700 });
  }

  /** Bytes held: finished uploads plus what has arrived of those in progress. */
  get heldBytes(): number {
    return this.stored + this.arriving;
  }

  /** Throws UploadQuotaError unless `bytes` more fit in the quota (e.g. a declared Content-Length). */
  checkRoom(bytes: number, name: string): void {
    if (this.heldBytes + bytes > this.quotaBytes) throw new UploadQuotaError(this.quotaBytes, this.heldBytes, name);
  }

  /**
   * Streams `body` to a new upload file, failing (and deleting the partial file) as soon as more
   * than `maxBytes` bytes arrive (UploadTooLargeError) or the store's quota would be exceeded
   * (UploadQuotaError).
   */
  async receive(body: Readable, name: string, maxBytes: number): Promise<{ uploadId: string; size: number; name: string }> {
    if (this.cleared) throw new QPairsError('this server is stopping; uploads are closed');
    const uploadId = randomUUID();
    const dir = path.join(this.dir, uploadId);
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, sanitiseName(name));
    let size = 0;
    try {
      // Piped by hand (not stream.pipeline) so that a refused upload leaves the request intact:
      // the server can still answer 413 before it closes the connection.
      await new Promise<void>((resolve, reject) => {
        const out = createWriteStream(file, { flags: 'wx' });
        let done = false;
        let ended = false;
        const fail = (e: Error): void => {
          if (done) return;
          done = true;
          body.off('data', onData);
          body.pause();
          out.destroy();
          reject(e);
        };
        const onData = (chunk: Buffer): void => {
          if (size + chunk.length > maxBytes) return fail(new UploadTooLargeError(maxBytes));
          if (this.heldBytes + chunk.length > this.quotaBytes) return fail(new UploadQuotaError(this.quotaBytes, this.heldBytes - size, name));
          size += chunk.length;
          this.arriving += chunk.length;
          if (!out.write(chunk)) {
            body.pause();
            out.once('drain', () => !done && body.resume());
          }
        };
        body.on('data', onData);
        body.once('end', () => {
          ended = true;
          if (!done) out.end();
        });
        body.once('error', fail);
        body.once('close', () => !ended && fail(new Error(`upload of ${name} was interrupted`)));
        out.once('error', fail);
        out.once('finish', () => {
          if (done) return;
          done = true;
          resolve();
        });
      });
    } catch (e) {
      rmSync(dir, { recursive: true, force: true });
      throw e;
    } finally {
      this.arriving -= size;
    }
    if (this.cleared) {
      rmSync(dir, { recursive: true, force: true });
      throw new QPairsError('this server is stopping; uploads are closed');
    }
    this.uploads.set(uploadId, { path: file, name, size });
    this.stored += size;
    return { uploadId, size, name };
  }

  /** The file of an upload on this machine; NotFoundError for an unknown id. */
  path(uploadId: string): string {
    const u = UPLOAD_ID_RE.test(uploadId) ? this.uploads.get(uploadId) : undefined;
    if (!u || !existsSync(u.path)) {
      throw new NotFoundError(`upload ${uploadId} not found (uploads are kept until the server stops; upload the file again)`);
    }
    return u.path;
  }

  /** The name the uploader gave, or null. */
  name(uploadId: string): string | null {
    return this.uploads.get(uploadId)?.name ?? null;
  }

  /** Deletes one upload (e.g. once imported), freeing its share of the quota. */
  remove(uploadId: string): boolean {
    const u = this.uploads.get(uploadId);
    if (!u) return false;
    this.uploads.delete(uploadId);
    this.stored -= u.size;
    rmSync(path.dirname(u.path), { recursive: true, force: true });
    return true;
  }

  /** Deletes every upload and the store's directory (the server stops); later uploads are refused. */
  clear(): void {
    this.cleared = true;
    this.uploads.clear();
    this.stored = 0;
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A new store for one server instance (sweeps directories of dead servers first). */
export function openUploadStore(o: UploadStoreOptions = {}): UploadStore {
  return new UploadStore(o);
}

// ---------------------------------------------------------------- the process's default store

let defaultStore: UploadStore | null = null;
let defaultOptions: UploadStoreOptions = {};

/** Options of the default store (e.g. its quota); takes effect when it is next created. */
export function configureUploads(o: UploadStoreOptions): void {
  defaultOptions = { ...o };
}

/** The default store, created on first use (and again after clearUploads). */
export function defaultUploadStore(): UploadStore {
  defaultStore ??= new UploadStore(defaultOptions);
  return defaultStore;
}

/** `defaultUploadStore().receive` (see UploadStore.receive). */
export function receiveUpload(body: Readable, name: string, maxBytes: number): Promise<{ uploadId: string; size: number; name: string }> {
  return defaultUploadStore().receive(body, name, maxBytes);
}

/** The file of an upload of the default store; NotFoundError for an unknown id. */
export function uploadPath(uploadId: string): string {
  if (!defaultStore) throw new NotFoundError(`upload ${uploadId} not found (uploads are kept until the server stops; upload the file again)`);
  return defaultStore.path(uploadId);
}

/** The name the uploader gave, or null. */
export function uploadName(uploadId: string): string | null {
  return defaultStore?.name(uploadId) ?? null;
}

export function removeUpload(uploadId: string): void {
  defaultStore?.remove(uploadId);
}

/** Deletes every upload of the default store (called when the server stops). */
export function clearUploads(): void {
  defaultStore?.clear();
  defaultStore = null;
}
