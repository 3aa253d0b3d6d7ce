/**
 * Parsing a dump file on the worker (dump-parse-client.ts) against parsing it on this thread: the
 * same rows (text converted the same way), lines and errors, in the same order — on a real dump,
 * on a file of many chunks (flow control), on malformed XML (including seeded random edits), on a
 * read error after some chunks, and with the importer failing on a row first. And the packed form
 * the rows travel in.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { datasetText } from '../../../tests/datasets';
import { CancelledError, QPairsError } from '../errors';
import { defaultDumpParseWorkerPath, readDumpRows } from './dump-parse-client';
import { DumpRowPacker, prepareDumpRow, unpackDumpRows, type DumpRow, type DumpRowSink } from './dump-rows';
import { cleanupTemp, seededEdits, tempDir } from './test-helpers';
import type { ImportContext } from './types';

afterAll(cleanupTemp);

const dir = tempDir();
const ctx = (signal?: AbortSignal): ImportContext => ({ fileBytes() {}, tick() {}, signal }) as unknown as ImportContext;
const workerPath = defaultDumpParseWorkerPath();

let n = 0;
function file(text: string | Buffer): string {
  const f = path.join(dir, `d${n++}.xml`);
  writeFileSync(f, text);
  return f;
}

interface Outcome {
  events: string[];
  error: { message: string; line: unknown; type: string } | null;
}

/** Records what the sink gets; `failOn`: throw (as the importer would) at the row of that Id. */
function recorder(events: string[], failOn?: string): DumpRowSink {
  return {
    root(name, line) {
      events.push(`root ${name} ${line}`);
    },
    row(r) {
      events.push(JSON.stringify(r));
      if (r.id === failOn) throw new QPairsError(`row ${r.id}, line ${r.line}: refused by the importer`, { line: r.line });
    },
  };
}

async function outcome(f: string, worker: string | null, failOn?: string, signal?: AbortSignal): Promise<Outcome> {
  const events: string[] = [];
  try {
    await readDumpRows(ctx(signal), f, recorder(events, failOn), worker);
    return { events, error: null };
  } catch (e) {
    if (!(e instanceof QPairsError)) throw e;
    return { events, error: { message: e.message, line: e.details.line, type: e.constructor.name } };
  }
}

/** Both ways agree on `f`; returns the outcome. */
async function same(f: string, failOn?: string): Promise<Outcome> {
  const here = await outcome(f, null, failOn);
  expect(await outcome(f, workerPath, failOn)).toEqual(here);
  return here;
}

const doc = (rows: string): string => `<?xml version="1.0" encoding="utf-8"?>\n<posts>\n${rows}</posts>\n`;

/** A dump of `k` questions with answers, HTML bodies and entities: several MB, many chunks. */
function bigDump(k: number): string {
  const rows: string[] = [];
  for (let i = 1; i <= k; i++) {
    const body = `&lt;p&gt;How do I ${'configure the thing &amp; its parts '.repeat(1 + (i % 9))}on day ${i}?&lt;/p&gt;&lt;pre&gt;&lt;code&gt;x = ${i}&lt;/code&gt;&lt;/pre&gt;`;
    rows.push(`  <row Id="${2 * i}" PostTypeId="1" CreationDate="2020-01-01T00:00:${i % 60}" Title="  Question\u00a0${i}  about  things " Tags="&lt;a${i % 7}&gt;&lt;b&gt;" OwnerUserId="${i % 13}" Body="${body}" />`);
    rows.push(`  <row Id="${2 * i + 1}" PostTypeId="2" ParentId="${2 * i}" OwnerDisplayName="user ${i}" Body="&lt;p&gt;Answer ${i}: use &lt;b&gt;that&lt;/b&gt;.&lt;/p&gt;" />`);
  }
  return doc(rows.join('\n') + '\n');
}

describe('the worker is there to test', () => {
  it('the bundled worker is found (the tests build out/node first)', () => {
    expect(workerPath).not.toBeNull();
  });
});

describe('the worker yields what this thread yields', () => {
  it('the shipped cstheory meta dump: Posts.xml and PostLinks.xml', async () => {
    for (const name of ['Posts.xml', 'PostLinks.xml']) {
      const out = await same(file(datasetText(`stackexchange-cstheory-meta/${name}`)));
      expect(out.error).toBeNull();
      expect(out.events.length).toBeGreaterThan(100);
    }
  });

  it('a dump of many chunks (about 12 MB): every row, in order, with its text converted', async () => {
    const text = bigDump(12_000);
    const out = await same(file(text));
    expect(out.error).toBeNull();
    expect(out.events).toHaveLength(1 + 24_000);
    const q = JSON.parse(out.events[1 + 2 * 4999]!) as DumpRow;
    expect(q).toMatchObject({ id: '10000', postTypeId: '1', title: 'Question 5000 about things', tags: ['a2', 'b'], author: '8' });
    expect(q.body).toMatch(/^How do I configure the thing & its parts .*on day 5000\?\s+x = 5000$/);
    const a = JSON.parse(out.events[2 + 2 * 4999]!) as DumpRow;
    expect(a).toMatchObject({ id: '10001', parentId: '10000', body: 'Answer 5000: use that.', author: 'user 5000', title: '', tags: [] });
  });

  it('the importer failing on a row: the same rows before it, its error, whatever follows', async () => {
    const text = bigDump(3_000) + 'junk after the root\n';
    const out = await same(file(text), '4001');
    // Id 4001: the answer of question 2000, the 4,000th row, on line 3 + 3,999.
    expect(out.error?.message).toBe('row 4001, line 4002: refused by the importer');
    expect(out.events).toHaveLength(1 + 4000);
  });

  const malformed: Array<[string, string]> = [
    ['a root that is not the dump', '<users>\n<row Id="1" />\n</users>\n'],
    ['an unescaped < in a value', doc('<row Id="1" />\n<row Id="2" Body="a < b" />\n')],
    ['an undefined entity', doc('<row Id="1" />\n<row Id="2" Body="&nbsp;" />\n')],
    ['a repeated attribute', doc('<row Id="1" />\n<row Id="2" Id="3" />\n')],
    ['a control character between rows', doc('<row Id="1" />\n\u0002<row Id="2" />\n')],
    ['text after the root', `${doc('<row Id="1" PostTypeId="1" Body="&lt;p&gt;x" />\n')}junk\n`],
    ['a file cut inside a value', '<posts>\n<row Id="1" />\n<row Id="2" Body="abc'],
    ['other elements, comments, nested rows', doc('<!-- c -->\n<row Id="1"><row Id="9" /></row>\n<item Id="2" />\n<row Id="3" PostTypeId="2" ParentId="1" Body="b" />\n')],
    ['an empty file', '  \n'],
  ];
  for (const [what, text] of malformed) {
    it(`malformed or unusual: ${what}`, async () => {
      await same(file(text));
    });
  }

  it('an error deep in a file of many chunks: the rows before it, then the same error', async () => {
    const text = bigDump(4_000).replace('Id="6001" PostTypeId="2"', 'Id="6001" PostTypeId="2" Body2="a & b"');
    const out = await same(file(text));
    expect(out.error?.message).toMatch(/malformed XML/);
    expect(out.events.length).toBeGreaterThan(5000);
  });

  it('an error early in a file of many chunks: reported while the text is still being read (no wait for the rest)', async () => {
    const text = bigDump(12_000).replace('Id="21" PostTypeId="2"', 'Id="21" PostTypeId="2" Body2="a < b"');
    const out = await same(file(text));
    expect(out.error?.message).toMatch(/, line 22: malformed XML/);
    // Id 21: the 20th row, on line 22; the 19 rows before it come first.
    expect(out.events).toHaveLength(1 + 19);
  }, 20_000);

  it('random edits of a small dump (seeded): the same outcome both ways', async () => {
    const base = doc('<row Id="1" PostTypeId="1" Body="&lt;p&gt;a &amp; b&#xA;" Title="t" Tags="&lt;x&gt;" />\r\n  <row Id="2" PostTypeId="2" ParentId="1" Body="x" />\n<row Id="3"/>\n');
    const alphabet = ['<', '>', '&', ';', '#', '"', '=', ' ', '/', '\n', 'a', '1', '\u0001', 'row', '&amp;'];
    for (const t of seededEdits(base, alphabet, 40, 4242)) {
      if (!t.trim()) continue;
      await same(file(t));
    }
  });
});

describe('read errors after some chunks', () => {
  /** bigDump with an invalid UTF-8 byte at about 2/3 of the file. */
  function withBadByte(): Buffer {
    const b = Buffer.from(bigDump(6_000));
    const at = b.indexOf('Id="8001"');
    b[at + 20] = 0xff;
    return b;
  }

  it('invalid UTF-8: the rows of the chunks before it, then the same error', async () => {
    const out = await same(file(withBadByte()));
    expect(out.error?.message).toMatch(/invalid UTF-8/);
    expect(out.events.length).toBeGreaterThan(4000);
  });

  it('the importer failing on a row before the bad byte: its error comes first, both ways', async () => {
    const out = await same(file(withBadByte()), '7001');
    expect(out.error?.message).toMatch(/^row 7001, line \d+: refused by the importer$/);
  });
});

describe('cancel', () => {
  it('an aborted import stops reading, with CancelledError, the worker stopped', async () => {
    const f = file(bigDump(12_000));
    const abort = new AbortController();
    let rows = 0;
    const sink: DumpRowSink = {
      root() {},
      row() {
        if (++rows === 1000) abort.abort();
      },
    };
    const err = await readDumpRows(ctx(abort.signal), f, sink, workerPath).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CancelledError);
    expect(rows).toBeLessThan(24_000);
  });
});

describe('prepareDumpRow and the packed form', () => {
  it('converts what the importer uses: questions title, body, tags; answers body; links untouched', () => {
    expect(prepareDumpRow({ Id: ' 7 ', PostTypeId: '1', Title: ' a \n b ', Body: '<p>x &amp; y</p>', Tags: '<p><q>', OwnerDisplayName: ' n ', CreationDate: ' d ' }, 3)).toEqual({
      line: 3, id: '7', postTypeId: '1', parentId: '', title: 'a b', body: 'x & y', tags: ['p', 'q'], author: 'n', created: 'd', postId: '', relatedPostId: '', linkTypeId: '',
    });
    // Answers: no title or tags; other post types: no text work at all.
    expect(prepareDumpRow({ Id: '8', PostTypeId: '2', ParentId: '7', Title: 'T', Tags: '<p>', Body: '<b>z</b>', OwnerUserId: '' }, 4)).toMatchObject({ title: '', tags: [], body: 'z', author: null });
    expect(prepareDumpRow({ Id: '9', PostTypeId: '4', Body: '<b>wiki</b>' }, 5)).toMatchObject({ body: '' });
    expect(prepareDumpRow({ Id: '1', PostId: ' 2 ', RelatedPostId: '3', LinkTypeId: '3' }, 6)).toMatchObject({ postId: '2', relatedPostId: '3', linkTypeId: '3', created: null });
  });

  it('packing and unpacking give back the same events, in order', () => {
    const rows = [
      prepareDumpRow({ Id: '1', PostTypeId: '1', Title: 't', Body: 'b', Tags: '<a><b c>' }, 3),
      prepareDumpRow({ Id: '2', PostTypeId: '2', ParentId: '1', Body: '', OwnerUserId: '5', CreationDate: '2020' }, 4),
      prepareDumpRow({ PostId: '1', RelatedPostId: '2', LinkTypeId: '1' }, 9),
    ];
    const packer = new DumpRowPacker();
    const want: string[] = [];
    const sink = recorder(want);
    packer.root('posts', 2);
    sink.root('posts', 2);
    for (const r of rows) {
      packer.row(r);
      sink.row(r);
    }
    const got: string[] = [];
    unpackDumpRows(packer.take(), recorder(got));
    expect(got).toEqual(want);
    expect(packer.take()).toEqual({ strings: [], lines: [] });
  });
});
