/**
 * A small streaming tar reader (`.tar`, and `.tar.gz`/`.tgz` through zlib's gunzip): POSIX ustar
 * headers (name with prefix, octal or base-256 size, header checksum checked), GNU long names
 * (type `L`) and pax extended headers (type `x`: `path`, `size`). Reads sequentially in chunks
 * with stream back-pressure, so memory stays bounded by a chunk (64 KiB) plus a long name.
 */
import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { CancelledError, QPairsError } from '../errors';
import { gzipDataError } from './gzip-error';
import type { ByteStream } from './sevenzip';

const BLOCK = 512;
/** Longest GNU long name or pax header read, in bytes. */
const MAX_META = 1 << 20;

/** Pulls exact byte counts out of a chunk stream. */
class ChunkReader {
  private cur: Uint8Array = new Uint8Array(0);
  private pos = 0;
  constructor(private readonly it: AsyncIterator<Uint8Array>) {}

  /** Up to `max` bytes (at least one), or null at the end of the stream. */
  async piece(max: number): Promise<Uint8Array | null> {
    while (this.pos >= this.cur.length) {
      const r = await this.it.next();
      if (r.done) return null;
      this.cur = r.value;
      this.pos = 0;
    }
    const n = Math.min(max, this.cur.length - this.pos);
    const out = this.cur.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  /** Exactly `n` bytes; null at the end of the stream before the first byte; throws when it ends within. */
  async exact(n: number, what: string): Promise<Uint8Array | null> {
    const first = await this.piece(n);
    if (!first) return null;
    if (first.length === n) return first;
    const out = new Uint8Array(n);
    out.set(first);
    let got = first.length;
    while (got < n) {
      const p = await this.piece(n - got);
      if (!p) throw new TarError(`unexpected end of the archive inside ${what}`);
      out.set(p, got);
      got += p.length;
    }
    return out;
  }

  /** Skips `n` bytes; throws when the stream ends first. */
  async skip(n: number, what: string): Promise<void> {
    while (n > 0) {
      const p = await this.piece(Math.min(n, 1 << 20));
      if (!p) throw new TarError(`unexpected end of the archive inside ${what}`);
      n -= p.length;
    }
  }
}

/** A malformed tar stream (turned into a QPairsError naming the archive by the callers). */
class TarError extends Error {}

const ascii = (b: Uint8Array, from: number, len: number): string => {
  let end = from;
  while (end < from + len && b[end] !== 0) end++;
  return Buffer.from(b.buffer, b.byteOffset + from, end - from).toString('utf8');
};

function number(b: Uint8Array, from: number, len: number): number {
  if (b[from]! & 0x80) {
    // base-256 (GNU): big-endian, the first byte's high bit is the flag
    let v = b[from]! & 0x7f;
    for (let i = from + 1; i < from + len; i++) v = v * 256 + b[i]!;
    return v;
  }
  const s = ascii(b, from, len).trim();
  if (!/^[0-7]*$/.test(s)) throw new TarError(`invalid number "${s}" in a header`);
  return s ? parseInt(s, 8) : 0;
}

function checksumOk(h: Uint8Array): boolean {
  const want = number(h, 148, 8);
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : h[i]!;
  return sum === want;
}

/** Pax extended header records: `<length> <key>=<value>\n`, the length in bytes and counting the whole record. */
function parsePax(b: Buffer): Record<string, string> {
  const out: Record<string, string> = {};
  let i = 0;
  while (i < b.length) {
    const sp = b.indexOf(0x20, i);
    if (sp === -1) break;
    const len = Number(b.toString('latin1', i, sp));
    if (!Number.isInteger(len) || len <= 0 || i + len > b.length) break;
    const kv = b.toString('utf8', sp + 1, i + len).replace(/\n$/, '');
    const eq = kv.indexOf('=');
    if (eq > 0) out[kv.slice(0, eq)] = kv.slice(eq + 1);
    i += len;
  }
  return out;
}

interface TarHeader {
  name: string;
  size: number;
  file: boolean;
}

/** The entries of a tar stream one by one, with the data of the current one. */
class TarReader {
  /** Bytes of the current entry (data and padding) not read yet. */
  private left = 0;
  /** Data bytes of the current entry not read yet. */
  private dataLeft = 0;
  constructor(private readonly r: ChunkReader) {}

  /** The next entry's header (skipping what is left of the current one), or null at the end. */
  async next(): Promise<TarHeader | null> {
    if (this.left > 0) await this.r.skip(this.left, 'an entry');
    this.left = 0;
    this.dataLeft = 0;
    let longName: string | null = null;
    let pax: Record<string, string> = {};
    for (;;) {
      const h = await this.r.exact(BLOCK, 'a header');
      if (!h) return null; // end without the two zero blocks: accepted, as GNU tar does with a warning
      if (h.every((x) => x === 0)) return null;
      if (!checksumOk(h)) throw new TarError('a header checksum does not match (corrupt archive, or not a tar file)');
      const type = String.fromCharCode(h[156]!);
      let size = number(h, 124, 12);
      if (type === 'L' || type === 'x' || type === 'g') {
        if (size > MAX_META) throw new TarError(`a ${type === 'L' ? 'long name' : 'pax header'} of ${size} bytes`);
        const data = size ? await this.r.exact(Math.ceil(size / BLOCK) * BLOCK, 'a long name') : new Uint8Array(0);
        if (!data) throw new TarError('unexpected end of the archive inside a long name');
        const meta = Buffer.from(data.buffer, data.byteOffset, size);
        if (type === 'L') longName = meta.toString('utf8').replace(/\0+$/, '');
        else if (type === 'x') pax = parsePax(meta);
        continue;
      }
      let name = ascii(h, 0, 100);
      if (ascii(h, 257, 6).startsWith('ustar')) {
        const prefix = ascii(h, 345, 155);
        if (prefix) name = `${prefix}/${name}`;
      }
      if (longName !== null) name = longName;
      if (pax['path'] !== undefined) name = pax['path'];
      if (pax['size'] !== undefined && /^\d+$/.test(pax['size'])) size = Number(pax['size']);
      this.dataLeft = size;
      this.left = Math.ceil(size / BLOCK) * BLOCK;
      return { name: name.replace(/^\.\//, ''), size, file: type === '0' || type === '\0' || type === '7' };
    }
  }

  /** Up to `max` bytes of the current entry's data; null when it is all read. */
  async data(max: number, what: string): Promise<Uint8Array | null> {
    if (this.dataLeft === 0) return null;
    const p = await this.r.piece(Math.min(max, this.dataLeft));
    if (!p) throw new TarError(`unexpected end of the archive inside ${what}`);
    this.dataLeft -= p.length;
    this.left -= p.length;
    return p;
  }
}

function source(archive: string, gz: boolean): { it: AsyncIterator<Uint8Array>; destroy(): void } {
  const raw = createReadStream(archive, { highWaterMark: 64 * 1024 });
  if (!gz) return { it: raw[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>, destroy: () => raw.destroy() };
  const gunzip = createGunzip({ chunkSize: 64 * 1024 });
  raw.on('error', (e) => gunzip.destroy(e));
  raw.pipe(gunzip);
  return {
    it: gunzip[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>,
    destroy: () => {
      raw.destroy();
      gunzip.destroy();
    },
  };
}

function describe(e: unknown): string {
  if (e instanceof TarError) return e.message;
  const err = e as NodeJS.ErrnoException;
  return gzipDataError(err) ?? `cannot read the archive (${err.code ?? err.message})`;
}

/** The regular files of a tar archive with their sizes (reads the whole archive once). */
export async function listTar(archive: string, gz: boolean, signal?: AbortSignal): Promise<Array<{ name: string; size: number }>> {
  const src = source(archive, gz);
  const r = new ChunkReader(src.it);
  const out: Array<{ name: string; size: number }> = [];
  try {
    const tar = new TarReader(r);
    for (let h = await tar.next(); h; h = await tar.next()) {
      if (signal?.aborted) throw new CancelledError();
      if (h.file) out.push({ name: h.name, size: h.size });
    }
    // Read to the end, so a truncated or corrupt gzip stream is found now.
    while (await r.piece(1 << 20)) if (signal?.aborted) throw new CancelledError();
  } catch (e) {
    if (e instanceof CancelledError) throw e;
    const reason = `cannot read the ${gz ? 'tar.gz' : 'tar'} archive: ${describe(e)}`;
    throw new QPairsError(`${archive}: ${reason}`, { file: archive, reason });
  } finally {
    src.destroy();
  }
  return out;
}

/**
 * Streams the data of one member of a tar archive; errors become `fail(reason)`; stops reading
 * the archive after the member.
 */
export function streamTarMember(archive: string, gz: boolean, member: string, fail: (reason: string) => Error, signal?: AbortSignal): ByteStream {
  let bytes = 0;
  let src: { it: AsyncIterator<Uint8Array>; destroy(): void } | null = null;
  async function* iterate(): AsyncGenerator<Uint8Array> {
    src = source(archive, gz);
    const r = new ChunkReader(src.it);
    try {
      const tar = new TarReader(r);
      for (let h = await tar.next(); h; h = await tar.next()) {
        if (signal?.aborted) throw new CancelledError();
        if (!h.file || h.name !== member) continue;
        for (let p = await tar.data(64 * 1024, member); p; p = await tar.data(64 * 1024, member)) {
          if (signal?.aborted) throw new CancelledError();
          bytes += p.length;
          yield p;
        }
        return;
      }
      throw new TarError(`no member ${member}`);
    } catch (e) {
      if (e instanceof CancelledError) throw e;
      throw fail(describe(e));
    } finally {
      src.destroy();
    }
  }
  const it = iterate();
  return {
    [Symbol.asyncIterator]: () => it,
    bytesRead: () => bytes,
    close: async () => {
      await it.return(undefined);
      src?.destroy();
    },
  };
}
