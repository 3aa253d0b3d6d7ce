/**
 * The fast row scanner (xml-rows.ts) against saxes (xml.ts parseXml): the same events (names,
 * attributes, lines) and the same errors (message, line) on real dumps, on every way of cutting
 * them into chunks, and on well-formed and malformed variations the scanner leaves to saxes.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dataset, datasetText } from '../../../tests/datasets';
import { QPairsError } from '../errors';
import type { TextChunk } from './reader';
import { cleanupTemp, seededEdits, tempDir } from './test-helpers';
import type { ImportContext } from './types';
import { parseXml, parseXmlChunks } from './xml';
import { parseRowsXml, parseRowsXmlChunks, RowScanner } from './xml-rows';

afterAll(cleanupTemp);

const ctx = { fileBytes() {}, tick() {} } as unknown as ImportContext;
const dir = tempDir();

type Event = string;
interface Outcome {
  events: Event[];
  error: { message: string; line: unknown } | null;
}

function recorder(events: Event[]) {
  return {
    open(name: string, a: Record<string, string>, line: number) {
      events.push(`open ${name} ${line} ${JSON.stringify(Object.entries(a))}`);
    },
    close(name: string, line: number) {
      events.push(`close ${name} ${line}`);
    },
    end(line: number) {
      events.push(`end ${line}`);
    },
  };
}

async function outcome(run: (h: ReturnType<typeof recorder>) => Promise<void>): Promise<Outcome> {
  const events: Event[] = [];
  try {
    await run(recorder(events));
    return { events, error: null };
  } catch (e) {
    if (!(e instanceof QPairsError)) throw e;
    return { events, error: { message: e.message, line: e.details.line } };
  }
}

let n = 0;
function file(text: string): string {
  const f = path.join(dir, `t${n++}.xml`);
  writeFileSync(f, text);
  return f;
}

/** Reference: saxes over the whole file. */
const bySaxes = (f: string): Promise<Outcome> => outcome((h) => parseXml(ctx, f, h));
const byRows = (f: string): Promise<Outcome> => outcome((h) => parseRowsXml(ctx, f, h));

/** The text in pieces of the given sizes (cycled), as the reader would give them. */
function pieces(text: string, sizes: number[]): AsyncIterable<TextChunk> {
  return (async function* chunks(): AsyncGenerator<TextChunk> {
    let line = 1;
    for (let i = 0, k = 0; i < text.length; k++) {
      const piece = text.slice(i, i + sizes[k % sizes.length]!);
      yield { text: piece, line };
      line += piece.split('\n').length - 1;
      i += piece.length;
    }
  })();
}

/** The scanner, and saxes (whose errors after text outside the root depend on where chunks end), fed the same pieces. */
async function byPieces(text: string, f: string, sizes: number[]): Promise<[Outcome, Outcome]> {
  return [await outcome((h) => parseRowsXmlChunks(pieces(text, sizes), f, h)), await outcome((h) => parseXmlChunks(pieces(text, sizes), f, h))];
}

async function same(text: string, cuts: number[][] = [[1], [7], [64], [1000]]): Promise<Outcome> {
  const f = file(text);
  const want = await bySaxes(f);
  expect(await byRows(f)).toEqual(want);
  for (const sizes of cuts) {
    const [rows, saxes] = await byPieces(text, f, sizes);
    expect(rows, `pieces ${sizes.join(',')}`).toEqual(saxes);
  }
  return want;
}

const doc = (rows: string, nl = '\n'): string => `<?xml version="1.0" encoding="utf-8"?>${nl}<posts>${nl}${rows}</posts>${nl}`;

describe('the row scanner agrees with saxes on real dumps', () => {
  for (const name of ['Posts.xml', 'PostLinks.xml']) {
    it(`cstheory meta ${name}, whole and cut into chunks`, async () => {
      const f = dataset(`stackexchange-cstheory-meta/${name}`);
      const text = datasetText(`stackexchange-cstheory-meta/${name}`).replace(/^\uFEFF/, '');
      const want = await bySaxes(f);
      expect(want.error).toBeNull();
      expect(want.events.length).toBeGreaterThan(400);
      expect(await byRows(f)).toEqual(want);
      for (const sizes of [[1, 2, 3, 5, 8, 13], [97], [4096, 1]]) expect((await byPieces(text, f, sizes))[0]).toEqual(want);
    });
  }

  it('reads the rows itself (saxes only reads the prolog and the end)', () => {
    const rows: Array<[Record<string, string>, number]> = [];
    const s = new RowScanner((a, line) => rows.push([a, line]));
    const text = '\r\n  <row Id="1" Body="a &amp; b&#xA;" />\r\n  <row Id="2"/>\n</posts>\n';
    expect(s.scan(text, 0, 2)).toBe(1 /* HAND_OVER */);
    expect(rows.map(([a, l]) => [{ ...a }, l])).toEqual([
      [{ Id: '1', Body: 'a & b\n' }, 3],
      [{ Id: '2' }, 4],
    ]);
    expect(text.slice(s.pos)).toBe('</posts>\n');
    expect(s.line).toBe(5);
  });
});

describe('well-formed variations: same events as saxes', () => {
  it('entities: predefined, decimal, hex (either case), astral, line breaks', async () => {
    const out = await same(
      doc(`<row Id="1" Body="&lt;p&gt;a &amp;amp; &quot;q&quot; &apos;s&apos; &#65;&#x42;&#x6a;&#X6A;&#x1F600;&#128512;&#xA;&#xD;&#9;x" />\n`.replace('&#X6A;', '')),
    );
    expect(out.events[1]).toContain(JSON.stringify(['Body', '<p>a &amp; "q" \'s\' ABj😀😀\n\r\tx']));
  });

  it('attributes in any order, missing, or named like Object members', async () => {
    await same(
      doc(
        '<row Id="1" PostTypeId="1" Title="t" Body="b" />\n<row Body="b2" Title="t2" PostTypeId="1" Id="2" />\n<row Id="3"/>\n' +
          '<row constructor="c" __proto__="p" toString="s" hasOwnProperty="h" Id="4" />\n<row a="" b="" />\n',
      ),
    );
  });

  it('CRLF and lone CR line ends, blank lines, tabs, rows over several lines, spaces around =', async () => {
    await same(doc('<row Id="1" />\r\n\r\n<row Id="2" />\r<row\r\n Id="3"\n\tBody="x"\r\n/>\n<row Id = "4" />\n<row Id="5"\t/>\n', '\r\n'));
  });

  it('values with literal tabs and line breaks (normalised to spaces by XML), single quotes, > and / in values', async () => {
    await same(doc(`<row Id="1" Body="a\tb\nc\r\nd\re" />\n<row Id='2' Title='it"s' />\n<row Id="3" Body="a > b / c />" />\n`));
  });

  it('other content: comments, text, CDATA, non-empty rows, other elements, processing instructions', async () => {
    await same(
      doc(
        '<row Id="1"/>\n<!-- a comment <row Id="x"/> -->\n<row Id="2"/>text\n<row Id="3"></row>\n<other a="1"/>\n<row Id="4"><x/></row>\n<?pi data?>\n<![CDATA[<row Id="y"/>]]>\n<row Id="5"/>\n<rows Id="6"/>\n',
      ),
    );
  });

  it('prologs: none, a comment, a doctype, a BOM-less declaration, root attributes, a self-closing root', async () => {
    await same('<posts>\n<row Id="1"/>\n</posts>\n');
    await same('<!-- c -->\n<posts>\n<row Id="1"/>\n</posts>\n');
    await same('<?xml version="1.0"?>\n<!DOCTYPE posts>\n<posts>\n<row Id="1"/>\n</posts>\n');
    await same('<posts version="2" x=\'y\'>\n<row Id="1"/>\n</posts>\n');
    await same('<posts a="1>2">\n<row Id="1"/>\n</posts>\n');
    await same('<posts/>\n');
    await same('<?xml version="1.0"?>\n\n\n<posts\n>\n<row Id="1"/>\n</posts>\n<!-- after -->\n');
  });

  it('a row longer than the pieces it comes in, and one beyond what the scanner carries', async () => {
    const long = 'x&amp;y '.repeat(20000);
    await same(doc(`<row Id="1" Body="${long}" />\n<row Id="2" />\n`), [[1000], [65536], [3, 70000]]);
    const huge = 'z'.repeat(5 << 20);
    const f = file(doc(`<row Id="1" Body="${huge}" />\n<row Id="2" />\n`));
    expect(await byRows(f)).toEqual(await bySaxes(f));
  });
});

describe('a file that is not XML at all', () => {
  it('is refused on the line where it begins, naming what it begins with, however it is read and cut', async () => {
    // A JSON lines file given as a Stack Exchange dump: saxes alone said "line 4: text data outside of root node."
    const text = '\n{"id":"q1","title":"How to sort","body":"sort a list"}\n{"id":"q2","title":"t","body":"b"}\n{"id":"q3","title":"t","body":"b"}\n';
    const f = file(text);
    const want = {
      events: [],
      error: { message: `${f}, line 2: not XML: the file begins with “{"id":"q1","title":"How to sort","body":…” where XML begins with “<”: is this the right format for this file?`, line: 2 },
    };
    expect(await bySaxes(f)).toEqual(want);
    expect(await byRows(f)).toEqual(want);
    for (const sizes of [[1], [3], [64]]) expect(await byPieces(text, f, sizes)).toEqual([want, want]);
    // XML after blank lines is read as before.
    expect((await same('\n  \n<posts>\n<row Id="1" />\n</posts>\n')).error).toBeNull();
  });
});

describe('malformed XML: the same error (reason and line) as saxes', () => {
  const cases: Array<[string, string]> = [
    ['an unescaped < in a value', doc('<row Id="1" />\n<row Id="2" Body="a < b" />\n')],
    ['an undefined entity', doc('<row Id="1" />\n<row Id="2" Body="&nbsp;" />\n')],
    ['an entity without ;', doc('<row Id="1" Body="a &amp b" />\n')],
    ['a bare &', doc('<row Id="1" Body="a & b" />\n')],
    ['a character reference to a non-character', doc('<row Id="1" />\n\n<row Id="2" Body="&#0;" />\n')],
    ['a character reference to a control character', doc('<row Id="1" Body="&#x1;" />\n')],
    ['a character reference beyond Unicode', doc('<row Id="1" Body="&#x110000;" />\n')],
    ['a huge decimal reference', doc('<row Id="1" Body="&#99999999999999999999;" />\n')],
    ['an empty hex reference', doc('<row Id="1" Body="&#x;" />\n')],
    ['a reference to a surrogate', doc('<row Id="1" Body="&#xD800;" />\n')],
    ['an uppercase X reference', doc('<row Id="1" Body="&#X41;" />\n')],
    ['a repeated attribute', doc('<row Id="1" />\n<row Id="2" Id="3" />\n')],
    ['attributes without whitespace between them', doc('<row Id="1"Body="x" />\n')],
    ['an unquoted value', doc('<row Id=1 />\n')],
    ['an attribute without a value', doc('<row Id />\n')],
    ['a control character in a value', doc('<row Id="1" Body="a\u0001b" />\n')],
    ['U+FFFF in a value', doc('<row Id="1" Body="a\uffffb" />\n')],
    ['a control character between rows', doc('<row Id="1" />\n\u0002<row Id="2" />\n')],
    ['/ not followed by >', doc('<row Id="1" / >\n')],
    ['a mismatched end tag', doc('<row Id="1" />\n').replace('</posts>', '</post>')],
    ['a second root', `${doc('<row Id="1" />\n')}<posts/>\n`],
    ['text after the root', `${doc('<row Id="1" />\n')}junk\n`],
    ['a file cut inside a row', doc('<row Id="1" />\n<row Id="2" Bo').replace(/<\/posts>\n$/, '')],
    ['a file cut inside a value', '<posts>\n<row Id="1" />\n<row Id="2" Body="abc'],
    ['a file cut after a row', '<posts>\n<row Id="1" />\n<row Id="2" />\n\n'],
    ['a file cut in an entity', '<posts>\n<row Id="1" Body="&am'],
    ['a file cut in the root tag', '<?xml version="1.0"?>\n<pos'],
    ['an unclosed row element', doc('<row Id="1">\n<row Id="2" />\n')],
    ['a bad XML declaration', '<?xml version="1.0" foo="bar"?>\n<posts>\n<row Id="1" />\n</posts>\n'],
    ['a declaration after whitespace', '\n<?xml version="1.0"?>\n<posts>\n<row Id="1" />\n</posts>\n'],
    ['no root', '<?xml version="1.0"?>\n<!-- only a comment -->\n'],
    ['a lone CR before an error', doc('<row Id="1" />\r<row Id="2" />\r\r<row Id="3" Body="<" />\n')],
  ];
  for (const [what, text] of cases) {
    it(what, async () => {
      const out = await same(text);
      expect(out.error, 'saxes rejects it').not.toBeNull();
      expect(out.error!.message).toMatch(/malformed XML/);
    });
  }

  it('random edits of a small dump (seeded): whatever saxes makes of them', async () => {
    const base = doc('<row Id="1" PostTypeId="1" Body="&lt;p&gt;a &amp; b&#xA;" Title="t" />\r\n  <row Id="2" ParentId="1" Body="x" />\n<row Id="3"/>\n', '\r\n');
    const alphabet = ['<', '>', '&', ';', '#', 'x', '"', "'", '=', ' ', '/', '\r', '\n', '\t', 'a', 'Z', '1', '\u0001', '\uffff', '!', '?', '-', 'row', '&#x41;', '&amp;'];
    for (const t of seededEdits(base, alphabet, 300, 12345)) {
      if (!t.trim()) continue;
      await same(t, [[1], [5]]);
    }
  });

  it('errors thrown by the handlers pass through, after the rows before them', async () => {
    const f = file(doc('<row Id="1" />\n<row Id="2" />\n<row Id="3" />\n'));
    const seen: string[] = [];
    const err = await parseRowsXml(ctx, f, {
      open(name, a, line) {
        if (name !== 'row') return;
        seen.push(a.Id!);
        if (a.Id === '2') throw new QPairsError(`${f}, line ${line}: stop`);
      },
    }).catch((e: unknown) => e);
    expect(seen).toEqual(['1', '2']);
    expect((err as Error).message).toBe(`${f}, line 4: stop`);
  });
});
