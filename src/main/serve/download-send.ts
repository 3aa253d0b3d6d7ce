/**
 * Sends an export's download (GET /api/download/ID) from the files on the server's disk, streamed:
 * one file as it is, or an hf-dataset's files as one stored zip with the same bytes as the browser
 * made of them in memory before (src/shared/zip.ts: each file's CRC-32 is read first, as its local
 * header needs it, then its bytes are sent). The headers name the file (Content-Disposition) and its
 * size; `progress` follows the bytes sent, and once the response is over `sent` is called when it was sent
 * whole, `unsent` with why when it was cut off (the client went away, a file could not be read: the
 * response is then destroyed, so the browser's download fails rather than ending short; a file gone
 * from the disk is `lost`, its id not given back).
 */
import { createReadStream } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { crc32 as zlibCrc32 } from 'node:zlib';
import { zipCentralEntry, zipEndRecord, zipEntryName, zipLocalHeader, zipSize } from '../../shared/zip';

/** A download as the server sends it: its name, its files on disk (a zip's entries by their names in it). */
export interface SentDownload {
  name: string;
  zip: boolean;
  files: ReadonlyArray<{ path: string; name: string; bytes: number }>;
  progress: (bytes: number) => void;
  sent: () => void;
  unsent: (why: string, lost: boolean) => void;
}

/** A content type for an export file by its name. */
export function downloadType(name: string): string {
  const n = name.toLowerCase();
  if (n.endsWith('.zip')) return 'application/zip';
  if (n.endsWith('.md')) return 'text/markdown; charset=utf-8';
  if (n.endsWith('.csv')) return 'text/csv; charset=utf-8';
  if (n.endsWith('.jsonl')) return 'application/jsonl; charset=utf-8';
  return 'text/plain; charset=utf-8';
}

/** `attachment` with the name: ASCII in `filename` (others as `_`), the exact name in RFC 5987's `filename*`. */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** Streams a file into the response (not ending it), telling each chunk's size; false when the response went away meanwhile. */
function pipeFile(res: ServerResponse, file: string, onBytes: (n: number) => void): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const src = createReadStream(file);
    const onClose = (): void => {
      src.destroy();
      resolve(false);
    };
    res.once('close', onClose);
    src.on('data', (chunk) => onBytes(chunk.length));
    src.on('error', (e) => {
      res.off('close', onClose);
      reject(e);
    });
    src.on('end', () => {
      res.off('close', onClose);
      resolve(!res.destroyed);
    });
    src.pipe(res, { end: false });
  });
}

/** A file's CRC-32, read in chunks. */
function fileCrc32(file: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let crc = 0;
    createReadStream(file)
      .on('data', (chunk) => (crc = zlibCrc32(chunk as Buffer, crc)))
      .on('error', reject)
      .on('end', () => resolve(crc >>> 0));
  });
}

/** Sends a download with its headers; `extra`: the server's security headers. */
export async function sendDownload(res: ServerResponse, d: SentDownload, extra: Record<string, string>): Promise<void> {
  let out = 0;
  let length = 0;
  let failure: string | null = null;
  let lost = false;
  const sending = (n: number): void => {
    out += n;
    d.progress(out);
  };
  try {
    const names = d.files.map((f) => zipEntryName(f.name));
    length = d.zip ? zipSize(d.files.map((f, i) => ({ name: names[i]!, size: f.bytes }))) : d.files[0]!.bytes;
    const crcs = d.zip ? await Promise.all(d.files.map((f) => fileCrc32(f.path))) : [];
    res.writeHead(200, {
      ...extra,
      'Content-Type': downloadType(d.name),
      'Content-Length': String(length),
      'Content-Disposition': contentDisposition(d.name),
      'Cache-Control': 'no-store',
    });
    if (!d.zip) {
      if (await pipeFile(res, d.files[0]!.path, sending)) res.end();
      return;
    }
    const central: Uint8Array[] = [];
    let offset = 0;
    for (const [i, f] of d.files.entries()) {
      const local = zipLocalHeader(names[i]!, crcs[i]!, f.bytes);
      central.push(zipCentralEntry(names[i]!, crcs[i]!, f.bytes, offset));
      res.write(local);
      sending(local.length);
      if (!(await pipeFile(res, f.path, sending))) return;
      offset += local.length + f.bytes;
    }
    for (const c of central) res.write(c);
    res.end(zipEndRecord(d.files.length, central.reduce((n, c) => n + c.length, 0), offset));
    sending(length - out);
  } catch (e) {
    // A file that cannot be read: the response (if begun) is cut off, never ended short as if whole.
    const code = (e as NodeJS.ErrnoException).code;
    failure = `the server could not read the file (${code ?? 'read error'})`;
    lost = code === 'ENOENT'; // removed from the server's folder: no fetch can send it
    if (res.headersSent) res.destroy();
    throw e;
  } finally {
    const why = (): string => failure ?? `the connection closed before the end (${out.toLocaleString('en-US')} of ${length.toLocaleString('en-US')} bytes sent): the browser stopped the download or the network dropped`;
    const over = (): void => (res.writableFinished ? d.sent() : d.unsent(why(), lost));
    if (res.writableFinished || res.destroyed) over();
    else res.once('close', over);
  }
}
