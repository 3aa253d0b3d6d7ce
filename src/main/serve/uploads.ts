/**
 * Files uploaded over HTTP in serve mode (imports from a browser). Each upload is streamed to
 * `<tmp>/qpairs-uploads-XXXX/<uploadId>/<sanitised original name>` — the original name is kept
 * so import error reports name the file the user chose. The engine resolves an upload id with
 * `uploadPath(id)`. Uploads live as long as the process (or until `clearUploads()`).
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdtempSync, mkdirSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { QPairsError } from '../errors';

export const UPLOAD_ID_RE = /^[a-f0-9-]{8,64}$/;

interface Upload {
  path: string;
  name: string;
  size: number;
}

const uploads = new Map<string, Upload>();
let root: string | null = null;

function uploadRoot(): string {
  if (!root || !existsSync(root)) root = mkdtempSync(path.join(tmpdir(), 'qpairs-uploads-'));
  return root;
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

/**
 * Streams `body` to a new upload file, failing (and deleting the partial file) as soon as more
 * than `maxBytes` bytes arrive.
 */
export async function receiveUpload(body: Readable, name: string, maxBytes: number): Promise<{ uploadId: string; size: number; name: string }> {
  const uploadId = randomUUID();
  const dir = path.join(uploadRoot(), uploadId);
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
        size += chunk.length;
        if (size > maxBytes) return fail(new UploadTooLargeError(maxBytes));
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
  }
  uploads.set(uploadId, { path: file, name, size });
  return { uploadId, size, name };
}

/** The file of an upload on this machine; throws a readable error for an unknown id. */
export function uploadPath(uploadId: string): string {
  const u = UPLOAD_ID_RE.test(uploadId) ? uploads.get(uploadId) : undefined;
  if (!u || !existsSync(u.path)) {
    throw new QPairsError(`upload ${uploadId} not found (uploads are kept until the server stops; upload the file again)`);
  }
  return u.path;
}

/** The name the uploader gave, or null. */
export function uploadName(uploadId: string): string | null {
  return uploads.get(uploadId)?.name ?? null;
}

export function removeUpload(uploadId: string): void {
  const u = uploads.get(uploadId);
  if (!u) return;
  uploads.delete(uploadId);
  rmSync(path.dirname(u.path), { recursive: true, force: true });
}

/** Deletes every upload (called when the server stops). */
export function clearUploads(): void {
  uploads.clear();
  if (root) rmSync(root, { recursive: true, force: true });
  root = null;
}
