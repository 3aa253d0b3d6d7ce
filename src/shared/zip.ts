/**
 * A minimal ZIP writer for downloads of folder exports (issue 24: the hf-dataset export downloads
 * as one `.zip`, its files under their folder, instead of loose files). Files are stored (method 0,
 * no compression: every unzip reads "stored"), names UTF-8 (general purpose flag bit 11), one fixed
 * timestamp. Layout (PKWARE APPNOTE 6.3): per file a local header + data, then the central
 * directory, then the end record. No ZIP64: refuses more than 65,535 files or 4 GiB.
 *
 * The headers are built one by one (zipLocalHeader, zipCentralEntry, zipEndRecord) so that serve
 * mode streams a zip from the files on disk (src/main/serve/download-send.ts) with the same bytes
 * as zipFiles makes of them in memory.
 */

/** CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320), as ZIP stores it. */
export function crc32(bytes: Uint8Array): number {
  let c = ~0;
  for (let i = 0; i < bytes.length; i++) {
    c ^= bytes[i]!;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

/** DOS date and time of 1980-01-01 00:00 (a fixed stamp: the same files give the same bytes). */
const DOS_TIME = 0;
const DOS_DATE = (0 << 9) | (1 << 5) | 1;
const MAX_ZIP_BYTES = 0xffffffff;

/** A file's name as the zip stores it: UTF-8, `/` for folders, no leading `/`. */
export function zipEntryName(name: string): Uint8Array {
  return new TextEncoder().encode(name.replace(/\\/g, '/').replace(/^\/+/, ''));
}

/** A file's local header: its data (`size` bytes, CRC-32 `crc`) follows. */
export function zipLocalHeader(name: Uint8Array, crc: number, size: number): Uint8Array {
  const local = new Uint8Array(30 + name.length);
  const lv = new DataView(local.buffer);
  lv.setUint32(0, 0x04034b50, true); // local file header signature
  lv.setUint16(4, 20, true); // version needed: 2.0
  lv.setUint16(6, 0x0800, true); // UTF-8 names
  lv.setUint16(8, 0, true); // stored
  lv.setUint16(10, DOS_TIME, true);
  lv.setUint16(12, DOS_DATE, true);
  lv.setUint32(14, crc, true);
  lv.setUint32(18, size, true);
  lv.setUint32(22, size, true);
  lv.setUint16(26, name.length, true);
  lv.setUint16(28, 0, true);
  local.set(name, 30);
  return local;
}

/** A file's entry in the central directory; `offset`: where its local header starts. */
export function zipCentralEntry(name: Uint8Array, crc: number, size: number, offset: number): Uint8Array {
  const cd = new Uint8Array(46 + name.length);
  const cv = new DataView(cd.buffer);
  cv.setUint32(0, 0x02014b50, true); // central directory header signature
  cv.setUint16(4, 20, true); // version made by
  cv.setUint16(6, 20, true);
  cv.setUint16(8, 0x0800, true);
  cv.setUint16(10, 0, true);
  cv.setUint16(12, DOS_TIME, true);
  cv.setUint16(14, DOS_DATE, true);
  cv.setUint32(16, crc, true);
  cv.setUint32(20, size, true);
  cv.setUint32(24, size, true);
  cv.setUint16(28, name.length, true);
  cv.setUint32(42, offset, true); // the local header's offset
  cd.set(name, 46);
  return cd;
}

/** The end record: `count` files, the central directory's size and where it starts. */
export function zipEndRecord(count: number, centralSize: number, centralOffset: number): Uint8Array {
  const end = new Uint8Array(22);
  const ev = new DataView(end.buffer);
  ev.setUint32(0, 0x06054b50, true); // end of central directory signature
  ev.setUint16(8, count, true);
  ev.setUint16(10, count, true);
  ev.setUint32(12, centralSize, true);
  ev.setUint32(16, centralOffset, true);
  return end;
}

/**
 * The size of a zip of files with these names (UTF-8 bytes each) and sizes, refused (an Error) past
 * what a ZIP without ZIP64 holds: known before any byte is read (a download's Content-Length).
 */
export function zipSize(entries: ReadonlyArray<{ name: Uint8Array; size: number }>): number {
  if (entries.length > 0xffff) throw new Error('too many files for a ZIP without ZIP64');
  let offset = 0;
  let central = 0;
  for (const e of entries) {
    offset += 30 + e.name.length + e.size;
    if (offset > MAX_ZIP_BYTES) throw new Error('the files are too large for a ZIP without ZIP64');
    central += 46 + e.name.length;
  }
  return offset + central + 22;
}

/** The bytes of a ZIP holding `files` (names with `/` for folders), stored uncompressed. */
export function zipFiles(files: ReadonlyArray<{ name: string; content: string | Uint8Array }>): Uint8Array {
  const enc = new TextEncoder();
  const entries = files.map((f) => ({ name: zipEntryName(f.name), data: typeof f.content === 'string' ? enc.encode(f.content) : f.content }));
  const total = zipSize(entries.map((e) => ({ name: e.name, size: e.data.length })));
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const { name, data } of entries) {
    const crc = crc32(data);
    const local = zipLocalHeader(name, crc, data.length);
    central.push(zipCentralEntry(name, crc, data.length, offset));
    parts.push(local, data);
    offset += local.length + data.length;
  }
  const cdSize = central.reduce((n, c) => n + c.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of [...parts, ...central, zipEndRecord(files.length, cdSize, offset)]) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
