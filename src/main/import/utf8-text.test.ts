/**
 * Decoding a file's bytes piece by piece (utf8-text.ts): however the bytes are cut, the same text
 * and lines as decoding them whole, the BOM dropped, and the same errors.
 */
import { describe, expect, it } from 'vitest';
import { QPairsError } from '../errors';
import { Utf8TextDecoder, type TextChunk } from './utf8-text';

/** Decodes `bytes` cut into pieces of the given sizes (cycling); returns the pieces of text. */
function decodeInPieces(bytes: Uint8Array, sizes: number[]): TextChunk[] {
  const d = new Utf8TextDecoder('f.xml');
  const out: TextChunk[] = [];
  for (let i = 0, k = 0; i < bytes.length; k++) {
    const n = sizes[k % sizes.length]!;
    const piece = d.push(bytes.subarray(i, i + n));
    if (piece) out.push(piece);
    i += n;
  }
  d.end();
  return out;
}

function errorOf(f: () => unknown): { message: string; line: unknown } {
  try {
    f();
  } catch (e) {
    if (e instanceof QPairsError) return { message: e.message, line: e.details.line };
    throw e;
  }
  throw new Error('no error');
}

describe('Utf8TextDecoder', () => {
  const text = '\ufeffline one é\nline two 日本語\n\nline four 😀 end\n';
  const bytes = new TextEncoder().encode(text);

  it('pieces of any size, even one byte: the whole text without its BOM, each piece on its first line', () => {
    for (const sizes of [[1], [2], [3], [5, 1, 7], [bytes.length]]) {
      const pieces = decodeInPieces(bytes, sizes);
      expect(pieces.map((p) => p.text).join('')).toBe(text.slice(1));
      for (const p of pieces) expect(p.line).toBe(1 + (text.slice(1).slice(0, pieces.slice(0, pieces.indexOf(p)).map((q) => q.text).join('').length).match(/\n/g)?.length ?? 0));
    }
  });

  it('a piece that completes no character gives nothing; the next one carries it', () => {
    const d = new Utf8TextDecoder('f.xml');
    const smile = new TextEncoder().encode('😀');
    expect(d.push(smile.subarray(0, 1))).toBeNull();
    expect(d.push(smile.subarray(1, 3))).toBeNull();
    expect(d.push(smile.subarray(3))).toEqual({ text: '😀', line: 1 });
  });

  it('invalid UTF-8: the line and the byte of the line, wherever the pieces are cut (a line begun in an earlier piece counts its bytes there)', () => {
    const bad = new Uint8Array([...new TextEncoder().encode('ok\nstill ok\nab'), 0xff, ...new TextEncoder().encode('cd\n')]);
    for (const sizes of [[1], [4], [13, 1], [bad.length]]) {
      expect(errorOf(() => decodeInPieces(bad, sizes))).toEqual({
        message: 'f.xml, line 3: invalid UTF-8 (byte 0xff at byte 3 of the line): the file must be UTF-8 — save it as UTF-8, or convert it (e.g. iconv -f WINDOWS-1252 -t UTF-8 for Latin-1 text)',
        line: 3,
      });
    }
  });

  it('a UTF-16 file (a spreadsheet\'s "Unicode text") is named as such, not as a bad byte on line 1', () => {
    for (const bom of [[0xff, 0xfe], [0xfe, 0xff]]) {
      const utf16 = new Uint8Array([...bom, ...Buffer.from('id\ttitle\n', 'utf16le')]);
      expect(errorOf(() => decodeInPieces(utf16, [utf16.length]))).toEqual({
        message: 'f.xml, line 1: the file is UTF-16 (it begins with a UTF-16 byte order mark), not UTF-8: save or convert it as UTF-8 (e.g. iconv -f UTF-16 -t UTF-8)',
        line: 1,
      });
    }
  });

  it('a character left unfinished at the end is invalid; white space alone is an empty file', () => {
    const cut = new TextEncoder().encode('a\nb😀').subarray(0, 5);
    expect(errorOf(() => decodeInPieces(cut, [2])).message).toMatch(/^f\.xml, line 2: invalid UTF-8/);
    expect(errorOf(() => decodeInPieces(new TextEncoder().encode(' \n\t\n'), [1])).message).toBe('f.xml: empty file: nothing but blank lines and white space');
  });
});
