import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { QPairsError } from '../errors';
import { baseName, firstInvalidUtf8, readCsv, readLines, readTextChunks } from './reader';
import { decodeEntities, htmlToText, parseTags } from './text';
import { cleanupTemp, tempDir } from './test-helpers';
import type { ImportContext } from './types';

afterEach(cleanupTemp);

const ctx = { fileBytes() {}, signal: undefined } as unknown as ImportContext;

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

function write(name: string, data: string | Buffer): string {
  const f = path.join(tempDir(), name);
  writeFileSync(f, data);
  return f;
}

async function failure(p: Promise<unknown>): Promise<QPairsError> {
  const e = await p.then(
    () => null,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(QPairsError);
  return e as QPairsError;
}

describe('readLines', () => {
  it('numbers lines across chunk boundaries, strips CR and a BOM, keeps a last line without newline', async () => {
    const long = 'é'.repeat(50_000); // 100 kB: the multi-byte characters straddle 64 KiB chunks
    const f = write('a.txt', `\uFEFFfirst\r\n${long}\n\nlast ✓`);
    const lines = await collect(readLines(ctx, f));
    expect(lines.map((l) => l.line)).toEqual([1, 2, 3, 4]);
    expect(lines[0]!.text).toBe('first');
    expect(lines[1]!.text).toBe(long);
    expect(lines[2]!.text).toBe('');
    expect(lines[3]!.text).toBe('last ✓');
  });

  it('reads gzip transparently, by name or by magic bytes', async () => {
    const text = Array.from({ length: 5000 }, (_, i) => `line ${i + 1} ü`).join('\n') + '\n';
    for (const name of ['x.txt.gz', 'x.txt']) {
      const lines = await collect(readLines(ctx, write(name, gzipSync(text))));
      expect(lines).toHaveLength(5000);
      expect(lines[4999]).toEqual({ text: 'line 5000 ü', line: 5000 });
    }
  });

  it('rejects invalid UTF-8 naming the line, also when it straddles a chunk boundary', async () => {
    const head = Buffer.from('ok\n'.repeat(30000)); // 90,000 bytes: past the first 64 KiB chunk
    const f = write('bad.txt', Buffer.concat([head, Buffer.from('still ok\nbad '), Buffer.from([0xe2, 0x28, 0xa1]), Buffer.from('\nafter\n')]));
    const e = await failure(collect(readLines(ctx, f)));
    expect(e.message).toContain(`${f}, line 30002: invalid UTF-8`);
    expect(e.details.line).toBe(30002);
    // A lone lead byte at the very end of the file.
    const g = write('bad2.txt', Buffer.concat([Buffer.from('a\nb\n'), Buffer.from([0xc3])]));
    expect((await failure(collect(readLines(ctx, g)))).message).toContain('line 3: invalid UTF-8');
  });

  it('reports truncated gzip data with the file name', async () => {
    const gz = gzipSync('a\nb\nc\n'.repeat(1000));
    const f = write('t.txt.gz', gz.subarray(0, gz.length - 20));
    const e = await failure(collect(readLines(ctx, f)));
    expect(e.message).toMatch(/t\.txt\.gz.*gzip/);
  });

  it('calls a zero-byte or whitespace-only file empty, and a missing file unreadable', async () => {
    expect((await failure(collect(readLines(ctx, write('e.txt', ''))))).message).toMatch(/e\.txt: empty file$/);
    expect((await failure(collect(readLines(ctx, write('w.txt', ' \n\t\r\n'))))).message).toMatch(/w\.txt: empty file: nothing but blank lines and white space$/);
    // A byte-order mark alone is no text either.
    expect((await failure(collect(readLines(ctx, write('b.txt', '\ufeff'))))).message).toMatch(/b\.txt: empty file$/);
    expect((await failure(collect(readTextChunks(ctx, '/nonexistent/q.jsonl')))).message).toMatch(/q\.jsonl: cannot read the file: no such file \(ENOENT\)/);
  });
});

describe('firstInvalidUtf8', () => {
  it('finds overlongs, surrogates, stray continuations and truncated sequences', () => {
    expect(firstInvalidUtf8(Buffer.from('héllo ✓ 😀'))).toBe(-1);
    expect(firstInvalidUtf8(Buffer.from([0x61, 0xc0, 0xaf]))).toBe(1);
    expect(firstInvalidUtf8(Buffer.from([0xed, 0xa0, 0x80]))).toBe(0);
    expect(firstInvalidUtf8(Buffer.from([0x61, 0x80]))).toBe(1);
    expect(firstInvalidUtf8(Buffer.from([0x61, 0xf0, 0x9f, 0x98]))).toBe(1);
    expect(firstInvalidUtf8(Buffer.from([0xf4, 0x90, 0x80, 0x80]))).toBe(0);
  });
});

describe('readCsv (RFC 4180)', () => {
  it('handles quoted commas, doubled quotes, line breaks inside quotes and blank lines, with start lines', async () => {
    const f = write('c.csv', 'a,b,c\r\n1,"x, y","say ""hi"""\r\n\r\n2,"multi\r\nline\n\nfield",\r\n3,,"",\n"",last\n');
    const recs = await collect(readCsv(ctx, f));
    expect(recs).toEqual([
      { fields: ['a', 'b', 'c'], line: 1 },
      { fields: ['1', 'x, y', 'say "hi"'], line: 2 },
      { fields: ['2', 'multi\r\nline\n\nfield', ''], line: 4 },
      { fields: ['3', '', '', ''], line: 8 },
      { fields: ['', 'last'], line: 9 },
    ]);
  });

  it('keeps the line breaks inside a quoted field as the file has them: CRLF stays CRLF, LF stays LF', async () => {
    const crlf = await collect(readCsv(ctx, write('crlf.csv', 'id,body\r\n1,"one\r\ntwo\r\n\r\nthree"\r\n2,"a\nb\r\nc"\r\n')));
    expect(crlf.map((r) => r.fields[1])).toEqual(['body', 'one\r\ntwo\r\n\r\nthree', 'a\nb\r\nc']);
    expect(crlf.map((r) => r.line)).toEqual([1, 2, 6]);
    // A lone CR inside a field is text too; the record's own CRLF is not part of its last field.
    const lone = await collect(readCsv(ctx, write('cr.csv', 'a,b\r\n"x\ry",z\r\n')));
    expect(lone[1].fields).toEqual(['x\ry', 'z']);
  });

  it('keeps a quote inside an unquoted field, rejects text after a closing quote and unterminated quotes', async () => {
    expect(await collect(readCsv(ctx, write('q.csv', 'a,b\n5" disk,x\n')))).toEqual([
      { fields: ['a', 'b'], line: 1 },
      { fields: ['5" disk', 'x'], line: 2 },
    ]);
    const e = await failure(collect(readCsv(ctx, write('q2.csv', 'a,b\n"x"y,z\n'))));
    expect(e.message).toMatch(/q2\.csv, line 2: unexpected character "y" after a closing quote/);
    const u = await failure(collect(readCsv(ctx, write('q3.csv', 'a,b\n1,2\n3,"open\n4,5\n'))));
    expect(u.message).toMatch(/q3\.csv, line 3: unterminated quoted field/);
  });
});

describe('text helpers', () => {
  it('parses tag lists in every spelling', () => {
    expect(parseTags('<a><b-c><a>')).toEqual(['a', 'b-c']);
    expect(parseTags('|x|y|')).toEqual(['x', 'y']);
    expect(parseTags('  p  q ')).toEqual(['p', 'q']);
    expect(parseTags(['m', 'two words', ''])).toEqual(['m', 'two-words']);
    expect(parseTags(undefined)).toEqual([]);
  });

  it('turns HTML into text', () => {
    expect(htmlToText('<p>a <b>bold</b>word</p><pre><code>x &lt; y &amp;&amp; z\n</code></pre><!-- c --><p>&eacute;&#233;&#xE9;&nbsp;&unknown;</p>')).toBe(
      'a boldword x < y && z ééé &unknown;',
    );
    expect(decodeEntities('&lt;b&gt; &#0; &#x110000;')).toBe('<b> \uFFFD \uFFFD');
    // Tag edge cases: not tags (`<_`, `< p>`, `<p_x>`, a `<` with no `>` after it), upper case,
    // script/style, whitespace of every kind.
    expect(htmlToText('1 <_ 2 < p> <p_x> <EM>e</Em>m<DIV/>d<br>\t\n\u00a0<script>x</script ><STYLE a>y</style>z <b')).toBe('1 <_ 2 < p> <p_x> em d z <b');
    expect(htmlToText('  a \u2028\r\n b\u3000 ')).toBe('a b');
  });

  it('derives base names', () => {
    expect(baseName('/d/dev.txt')).toBe('dev');
    expect(baseName('/d/text_tokenized.txt.gz')).toBe('text_tokenized');
    expect(baseName('/d/SemEval2016-Task3-CQA-QL-dev.xml', false)).toBe('SemEval2016-Task3-CQA-QL-dev');
    expect(baseName('/d/SemEval2016-Task3-CQA-QL-train-part1.v2.0.xml.gz', false)).toBe('SemEval2016-Task3-CQA-QL-train-part1.v2.0');
  });
});
