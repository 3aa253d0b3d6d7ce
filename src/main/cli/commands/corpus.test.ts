import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli as run } from '../test-cli';
import { Workspace } from '../../workspace/workspace';
import { Bm25Index } from '../../bm25/bm25-index';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-cli-corpus-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const ROWS = [
  { id: 'a1', title: 'Tabs\tand\\slashes', body: 'line one\nline two\r\nend' },
  { id: 'a2', title: 'Running servers', body: "The server's disks are running hot" },
  { id: 'a3', title: 'C++ build', body: 'g++ fails on fig3.png' },
];

async function workspace(): Promise<string> {
  const w = path.join(dir, 'w.qpairs');
  expect((await run('init', w)).code).toBe(0);
  const file = path.join(dir, 'q.jsonl');
  writeFileSync(file, ROWS.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const r = await run('import', w, '--format', 'questions-jsonl', '--source', 'demo', file);
  expect(r.code, r.err).toBe(0);
  return w;
}

describe('qpairs corpus export', () => {
  it('writes the stored texts as tsv (backslash escapes) and jsonl, in doc order', async () => {
    const w = await workspace();
    const tsv = path.join(dir, 'c.tsv');
    const r = await run('corpus', 'export', w, '--format', 'tsv', tsv);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/exported 3 questions/);
    expect(readFileSync(tsv, 'utf8')).toBe(
      ['a1\tTabs\\tand\\\\slashes\tline one\\nline two\\r\\nend', "a2\tRunning servers\tThe server's disks are running hot", 'a3\tC++ build\tg++ fails on fig3.png', ''].join('\n'),
    );
    const jl = path.join(dir, 'c.jsonl');
    expect((await run('corpus', 'export', w, '--format', 'jsonl', '--source', 'demo', jl)).code).toBe(0);
    const back = readFileSync(jl, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(back).toEqual(ROWS.map((x) => ({ ...x, source: 'demo' })));
    expect((await run('corpus', 'export', w, '--format', 'xml', jl)).code).toBe(2);
    // never onto the workspace itself
    const onto = await run('corpus', 'export', w, '--format', 'tsv', w);
    expect(onto.code).toBe(1);
    expect(onto.err).toMatch(/refusing to write/);
  });

  it('a --source the workspace lacks (a typo) is an error naming the sources, and writes nothing (it wrote an empty file, exit 0)', async () => {
    const w = await workspace();
    const out = path.join(dir, 'c.tsv');
    const r = await run('corpus', 'export', w, '--format', 'tsv', '--source', 'dmeo', out);
    expect(r.code).toBe(1);
    expect(r.err).toContain('no questions of source "dmeo" in the workspace (did you mean "demo"? sources: demo); nothing was written');
    expect(r.out).toBe('');
    expect(readdirSync(dir).filter((f) => f.startsWith('c.') || f.endsWith('.tmp'))).toEqual([]);
    const toStdout = await run('corpus', 'export', w, '--format', 'jsonl', '--source', 'nosuch', '-');
    expect(toStdout.code).toBe(1);
    expect(toStdout.err).toContain('no questions of source "nosuch"');
  });

  it('never replaces an existing file unless --force (as export)', async () => {
    const w = await workspace();
    const jl = path.join(dir, 'c.jsonl');
    writeFileSync(jl, 'kept\n');
    const r = await run('corpus', 'export', w, '--format', 'jsonl', jl);
    expect(r).toEqual({ code: 1, out: '', err: `qpairs corpus export: refusing to overwrite an existing file: ${jl}; nothing was written (choose another output, or give --force to replace it)\n` });
    expect(readFileSync(jl, 'utf8')).toBe('kept\n');
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    const forced = await run('corpus', 'export', w, '--format', 'jsonl', '--force', jl);
    expect(forced.code, forced.err).toBe(0);
    expect(readFileSync(jl, 'utf8').trim().split('\n').map((l) => JSON.parse(l).id)).toEqual(['a1', 'a2', 'a3']);
    expect((await run('corpus', '--help')).out).toMatch(/\[--force\][^\n]*\n\s+an existing OUT is never replaced unless --force/);
  });

  it('--json with - (standard output, which carries the corpus) is a usage error (its summary was dropped in silence)', async () => {
    const w = await workspace();
    const r = await run('corpus', 'export', w, '--format', 'tsv', '--json', '-');
    expect(r).toEqual({ code: 2, out: '', err: expect.stringContaining('--json goes with an output file: with - the corpus itself is written to standard output') });
  });
});

describe('qpairs corpus index --analyzer', () => {
  it('rebuilds the index with the chosen analyzer, which later imports keep', async () => {
    const w = await workspace();
    let r = await run('corpus', 'index', w, '--analyzer', 'lucene-english', '--json');
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ analyzer: 'lucene-english', questions: 3 });
    const more = path.join(dir, 'more.jsonl');
    writeFileSync(more, JSON.stringify({ id: 'a4', title: 'runs', body: 'servers' }) + '\n');
    expect((await run('import', w, '--format', 'questions-jsonl', '--source', 'demo', more)).code).toBe(0);
    let ws = Workspace.open(w);
    try {
      const idx = Bm25Index.load(ws.db);
      expect(idx.stats).toMatchObject({ analyzer: 'lucene-english', docs: 4 });
      expect(idx.docFreq('run')).toBe(2);
      expect(idx.docFreq('server')).toBe(2);
    } finally {
      ws.close();
    }
    r = await run('corpus', 'index', w);
    expect(r.out).toMatch(/analyzer lucene-english/);
    expect((await run('corpus', 'index', w, '--analyzer', 'lucene-standard')).code).toBe(0);
    ws = Workspace.open(w);
    try {
      const idx = Bm25Index.load(ws.db);
      expect(idx.stats.analyzer).toBe('lucene-standard');
      expect(idx.docFreq('the')).toBe(1); // no stop words
      expect(idx.docFreq("server's")).toBe(1); // no possessive filter
    } finally {
      ws.close();
    }
    expect((await run('corpus', 'index', w, '--analyzer', 'klingon')).code).toBe(2);
  });

  it('streams: 20,000 questions rebuilt in several segments search exactly like an index built in memory; an empty workspace keeps the analyzer chosen', async () => {
    const w = path.join(dir, 'big.qpairs');
    expect((await run('init', w)).code).toBe(0);
    const file = path.join(dir, 'big.jsonl');
    const words = ['server', 'disk', 'visa', 'bank', 'doha', 'running', 'build', 'network', 'printer', 'salary', 'the', 'and'];
    writeFileSync(
      file,
      Array.from({ length: 20_000 }, (_, i) =>
        JSON.stringify({ id: `b${i}`, title: `${words[i % 12]} ${words[(i * 7) % 12]} ${i % 101}`, body: `${words[(i * 5) % 12]} ${words[(i * 3) % 11]} item${i % 997}` }),
      ).join('\n') + '\n',
    );
    expect((await run('import', w, '--format', 'questions-jsonl', file)).code).toBe(0);
    const r = await run('corpus', 'index', w, '--analyzer', 'lucene-english', '--json');
    expect(r.code, r.err).toBe(0);
    const report = JSON.parse(r.out) as { questions: number; segments: number; postings: number };
    expect(report.questions).toBe(20_000);
    expect(report.segments).toBeGreaterThanOrEqual(3);
    const ws = Workspace.open(w, { readonly: true });
    try {
      const stored = Bm25Index.load(ws.db);
      const inMemory = new Bm25Index({ analyzer: 'lucene-english' });
      inMemory.addDocuments(ws.db.prepare(`SELECT doc, title, body FROM questions ORDER BY doc`).all() as Array<{ doc: number; title: string; body: string }>);
      expect(stored.stats).toMatchObject({ ...inMemory.stats, segments: report.segments, unpersistedChanges: 0 });
      expect(report.postings).toBe(inMemory.stats.postings);
      for (const q of ['running servers', 'visa salary bank', 'item42 doha', 'printers network 7']) expect(stored.search(q, 20)).toEqual(inMemory.search(q, 20));
    } finally {
      ws.close();
    }
    const empty = path.join(dir, 'empty.qpairs');
    expect((await run('init', empty)).code).toBe(0);
    expect((await run('corpus', 'index', empty, '--analyzer', 'lucene-english')).code).toBe(0);
    const one = path.join(dir, 'one.jsonl');
    writeFileSync(one, JSON.stringify({ id: 'o1', title: 'running servers', body: '' }) + '\n');
    expect((await run('import', empty, '--format', 'questions-jsonl', one)).code).toBe(0);
    const ews = Workspace.open(empty, { readonly: true });
    try {
      expect(Bm25Index.load(ews.db).stats.analyzer).toBe('lucene-english');
    } finally {
      ews.close();
    }
  });
});

describe('qpairs pool create --analyzer', () => {
  it('retrieves one pool with another analyzer than the workspace index, and records it', async () => {
    const w = await workspace();
    const more = path.join(dir, 'more.jsonl');
    writeFileSync(more, [JSON.stringify({ id: 'a4', title: 'runs', body: 'servers' }), JSON.stringify({ id: 'a5', title: 'run', body: 'a server' })].join('\n') + '\n');
    expect((await run('import', w, '--format', 'questions-jsonl', '--source', 'demo', more)).code).toBe(0);
    const q = path.join(dir, 'q.txt');
    writeFileSync(q, 'a4\n');
    for (const [pool, analyzer] of [['std', 'lucene-standard-stop'], ['en', 'lucene-english']] as const) {
      const r = await run('pool', 'create', w, '--name', pool, '--queries', q, '--analyzer', analyzer, '--blind', 'false');
      expect(r.code, r.err).toBe(0);
    }
    const ws = Workspace.open(w);
    try {
      expect(ws.pool('en').retriever).toBe('bm25 (k1=1.2, b=0.75, analyzer lucene-english)');
      expect(ws.pool('std').retriever).toBe('bm25 (k1=1.2, b=0.75, analyzer lucene-standard-stop)');
      // "runs servers": unstemmed only a2's "servers" matches; stemmed, run + server match a2 and a5
      expect(ws.poolQueries('std')[0]!.candidates).toEqual(['a2']);
      const want = new Bm25Index({ analyzer: 'lucene-english' });
      want.addDocuments([...ws.getQuestions(['a1', 'a2', 'a3', 'a4', 'a5']).values()].map((x) => ({ doc: ws.docOf(x.id)!, title: x.title, body: x.body })));
      const q4 = ws.getQuestion('a4')!;
      const hits = want.searchDocument({ doc: ws.docOf('a4')!, title: q4.title, body: q4.body }, 20).map((h) => ws.idOfDoc(h.doc));
      expect([...hits].sort()).toEqual(['a2', 'a5']);
      expect(ws.poolQueries('en')[0]!.candidates).toEqual(hits);
      expect(Bm25Index.load(ws.db).stats.analyzer).toBe('lucene-standard-stop'); // the workspace index is unchanged
    } finally {
      ws.close();
    }
    expect((await run('pool', 'create', w, '--name', 'x', '--queries', q, '--analyzer', 'nope')).code).toBe(2);
  });
});

describe('qpairs corpus export, cancelled', () => {
  it('Ctrl-C mid-export removes its temporary file, writes no OUT and exits 130 (it left .OUT.PID.HEX.tmp behind)', async () => {
    const w = path.join(dir, 'w.qpairs');
    expect((await run('init', w)).code).toBe(0);
    const file = path.join(dir, 'many.jsonl');
    // More than one chunk of 4096 lines, so the export is under way when the signal comes.
    writeFileSync(file, Array.from({ length: 9000 }, (_, i) => JSON.stringify({ id: `q${i}`, title: `title ${i}`, body: `body ${i}` })).join('\n') + '\n');
    expect((await run('import', w, '--format', 'questions-jsonl', file)).code).toBe(0);
    const out = path.join(dir, 'out', 'c.jsonl');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(path.dirname(out));
    // The handler main installs for this command is what a real SIGINT runs: call it alone (the
    // test runner's own SIGINT handlers are left out), once the export has written its first chunk.
    const before = new Set(process.listeners('SIGINT'));
    const running = run('corpus', 'export', w, '--format', 'jsonl', out);
    expect(readdirSync(path.dirname(out)).some((f) => f.endsWith('.tmp')), 'the export has begun').toBe(true);
    const added = process.listeners('SIGINT').filter((l) => !before.has(l));
    expect(added.length, 'corpus export listens for Ctrl-C').toBeGreaterThan(0);
    for (const l of added) (l as (s: NodeJS.Signals) => void)('SIGINT');
    const r = await running;
    expect(r.code, r.err).toBe(130);
    expect(r.err).toMatch(/qpairs corpus export: cancelled/);
    expect(r.out).toBe('');
    expect(readdirSync(path.dirname(out))).toEqual([]);
    // And Node's default comes back once the command has ended.
    expect(process.listeners('SIGINT').filter((l) => !before.has(l))).toEqual([]);
  });
});
