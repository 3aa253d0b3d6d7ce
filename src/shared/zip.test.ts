import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { crc32, zipFiles } from './zip';

/** Reads a stored ZIP back (central directory → local data), for the round trip. */
function unzip(z: Uint8Array): Record<string, string> {
  const v = new DataView(z.buffer, z.byteOffset, z.byteLength);
  const endAt = z.length - 22;
  expect(v.getUint32(endAt, true)).toBe(0x06054b50);
  const n = v.getUint16(endAt + 10, true);
  let p = v.getUint32(endAt + 16, true);
  const out: Record<string, string> = {};
  const dec = new TextDecoder();
  for (let i = 0; i < n; i++) {
    expect(v.getUint32(p, true)).toBe(0x02014b50);
    const size = v.getUint32(p + 24, true);
    const nameLen = v.getUint16(p + 28, true);
    const local = v.getUint32(p + 42, true);
    const name = dec.decode(z.subarray(p + 46, p + 46 + nameLen));
    const dataAt = local + 30 + v.getUint16(local + 26, true) + v.getUint16(local + 28, true);
    const data = z.subarray(dataAt, dataAt + size);
    expect(crc32(data)).toBe(v.getUint32(p + 16, true));
    out[name] = dec.decode(data);
    p += 46 + nameLen + v.getUint16(p + 30, true) + v.getUint16(p + 32, true);
  }
  return out;
}

describe('zipFiles (issue 24: folder exports download as one .zip)', () => {
  it('CRC-32 of the standard check string', () => {
    expect(crc32(new TextEncoder().encode('123456789'))).toBe(0xcbf43926);
  });

  const files = { 'gold/README.md': '---\npretty_name: "x"\n---\n# café ✓\n', 'gold/data/pairs.jsonl': '{"a":1}\n{"a":2}\n', 'empty.txt': '' };

  it('round-trips names (UTF-8, folders) and contents', () => {
    const z = zipFiles(Object.entries(files).map(([name, content]) => ({ name, content })));
    expect(unzip(z)).toEqual(files);
  });

  it('is a ZIP other tools read (python3 zipfile, when installed)', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-zip-'));
    try {
      const f = path.join(dir, 'x.zip');
      writeFileSync(f, zipFiles(Object.entries(files).map(([name, content]) => ({ name, content }))));
      let listed: string;
      try {
        listed = execFileSync('python3', ['-c', 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; print("\\n".join(sorted(z.namelist())))', f], { encoding: 'utf8' });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return; // no python3 here: the round trip above stands
        throw e;
      }
      expect(listed.trim().split('\n')).toEqual(Object.keys(files).sort());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
