import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { QPairsError } from '../errors';
import { rankIndices } from '../metrics/ranking';
import { Workspace } from '../workspace/workspace';
import { IMPORT_CACHE_KIB, IMPORT_FORMAT_NAMES, IMPORTERS, importFiles } from './index';
import { cleanupTemp, runPool, snapshot, tempDir, tempWorkspace } from './test-helpers';

afterEach(cleanupTemp);

const FIX = path.resolve(__dirname, '../../../tests/fixtures/import');
const fx = (name: string): string => path.join(FIX, name);

function write(name: string, data: string | Buffer): string {
  const f = path.join(tempDir(), name);
  writeFileSync(f, data);
  return f;
}

/** Imports twice; the second import must leave the stats and every table but the audit unchanged. */
async function idempotent(ws: Workspace, format: string, files: string[], opts = {}) {
  const first = await importFiles(ws, format, files, opts);
  const before = snapshot(ws);
  const second = await importFiles(ws, format, files, opts);
  const after = snapshot(ws);
  expect(after.stats).toEqual(before.stats);
  // Row for row the same, but for the new imports audit row.
  expect(after.dataChecksum).toBe(before.dataChecksum);
  expect(after.imports).toBe(before.imports + 1);
  expect(second.changedDocs).toEqual([]);
  return { first, second };
}

describe('registry', () => {
  it('lists every format once, with an importer', () => {
    expect(IMPORTERS.map((f) => f.name)).toEqual([...IMPORT_FORMAT_NAMES]);
    for (const f of IMPORTERS) expect(f.run ?? f.importFile).toBeTypeOf('function');
  });

  it('rejects an unknown format and missing files before touching the workspace', async () => {
    const ws = Workspace.create(':memory:');
    await expect(importFiles(ws, 'nope', [fx('qrels-good.txt')])).rejects.toThrow(/unknown import format "nope" \(formats: questions-jsonl/);
    await expect(importFiles(ws, 'qrels', [])).rejects.toThrow(/no files/);
    await expect(importFiles(ws, 'qrels', [fx('nope.txt')], { pool: 'p' })).rejects.toThrow(/nope\.txt: cannot read the file/);
    expect(ws.listImports()).toEqual([]);
    ws.close();
  });
});

describe('the page cache of an import', () => {
  it('is larger while the import runs and as before afterwards, whether it succeeded or failed', async () => {
    const ws = tempWorkspace();
    const cache = (): number => ws.db.pragma('cache_size', { simple: true }) as number;
    const before = cache();
    expect(before).not.toBe(-IMPORT_CACHE_KIB);
    const during: number[] = [];
    await importFiles(ws, 'questions-jsonl', [write('q.jsonl', '{"id":"1","title":"a","body":"b"}\n')], { onProgress: () => during.push(cache()), progressIntervalMs: 0 });
    expect(during.length).toBeGreaterThan(0);
    expect(new Set(during)).toEqual(new Set([-IMPORT_CACHE_KIB]));
    expect(cache()).toBe(before);
    await expect(importFiles(ws, 'questions-jsonl', [write('bad.jsonl', '{"id":"2","title":"x"}\nnot json\n')])).rejects.toThrow(QPairsError);
    expect(cache()).toBe(before);
    ws.close();
  });
});

describe('questions-csv / questions-jsonl / askubuntu-corpus', () => {
  it('reads RFC 4180 CSV with the columns in any order and extra columns ignored', async () => {
    const ws = tempWorkspace();
    const { first, second } = await idempotent(ws, 'questions-csv', [fx('questions-quoted.csv')]);
    expect(first.counts).toEqual({ questionsInserted: 3 });
    expect(second.counts).toEqual({ questionsUnchanged: 3 });
    expect(first.changedDocs).toHaveLength(3);
    expect(ws.getQuestion('101')).toEqual({
      id: '101',
      source: 'questions-quoted',
      title: 'Wifi drops, again',
      // The file's line breaks inside a quoted field, CRLF here (LF in 103's): a stored text is the file's text.
      body: 'My wifi says "connected" but\r\nnothing loads.\r\n\r\nAny idea?',
      tags: ['networking', 'wifi'],
      author: 'alice',
      created: '2020-01-02',
      category: null,
    });
    expect(ws.getQuestion('102')).toMatchObject({ title: 'Plain title', body: 'plain body', tags: [], author: null, created: null });
    expect(ws.getQuestion('103')).toMatchObject({ title: 'Quote "inside" title', body: 'multi\nline, with comma', tags: ['boot', 'grub'], author: 'bob' });
    // A later file with new text updates (and reports the changed doc for the index).
    const f = write('more.csv', 'body,id,title\nnew body,102,Plain title\n');
    const r = await importFiles(ws, 'questions-csv', [f], { source: 'questions-quoted' });
    expect(r.counts).toEqual({ questionsUpdated: 1 });
    expect(r.changedDocs).toEqual([ws.docOf('102')]);
    ws.close();
  });

  it('reads JSON lines: numeric ids, tag arrays or strings, per-record source', async () => {
    const ws = tempWorkspace();
    const f = write('forum.jsonl', readFileSync(fx('questions-dup-ids.jsonl'), 'utf8').split('\n').slice(0, 4).join('\n'));
    const { first } = await idempotent(ws, 'questions-jsonl', [f]);
    expect(first.counts).toEqual({ questionsInserted: 3 });
    expect(ws.getQuestion('a1')).toMatchObject({ source: 'forum', tags: ['x', 'y'] });
    expect(ws.getQuestion('2')).toMatchObject({ title: 'Second', tags: ['p', 'q'] });
    expect(ws.getQuestion('3')).toMatchObject({ source: 'forum', author: 'carol', created: '2021-05-06' });
    expect(ws.stats().sources).toEqual({ forum: 3 });
    ws.close();
  });

  it('reads the AskUbuntu corpus, gzipped or not', async () => {
    const ws = tempWorkspace();
    const gz = write('text_tokenized.txt.gz', gzipSync(readFileSync(fx('askubuntu-corpus.txt'))));
    const { first } = await idempotent(ws, 'askubuntu-corpus', [gz]);
    expect(first.counts).toEqual({ questionsInserted: 3 });
    expect(ws.getQuestion('1')).toMatchObject({ source: 'askubuntu', title: 'how to install x', body: 'i tried apt-get install x' });
    expect(ws.getQuestion('2')).toMatchObject({ title: 'wifi drops', body: '' });
    const plain = await importFiles(ws, 'askubuntu-corpus', [fx('askubuntu-corpus.txt')]);
    expect(plain.counts).toEqual({ questionsUnchanged: 3 });
    ws.close();
  });
});

describe('askubuntu-pairs', () => {
  it('similar ids become duplicate pairs, random ids negative pairs', async () => {
    const ws = tempWorkspace();
    const { first, second } = await idempotent(ws, 'askubuntu-pairs', [fx('askubuntu-pairs.txt')]);
    expect(first.counts).toEqual({ duplicatePairs: 2, negativePairs: 5 });
    expect(second.counts).toEqual({ duplicatePairsKnown: 2, negativePairsKnown: 5 });
    expect(ws.duplicatePairs()).toEqual([
      ['1', '2'],
      ['1', '3'],
    ]);
    expect(ws.negativePairs().sort()).toEqual([
      ['1', '7'],
      ['1', '8'],
      ['1', '9'],
      ['4', '5'],
      ['4', '6'],
    ]);
    ws.close();
  });
});

describe('labels-csv / labels-jsonl', () => {
  it('creates a missing pool from the pairs in file order and normalises labels', async () => {
    const ws = tempWorkspace();
    const { first, second } = await idempotent(ws, 'labels-csv', [fx('labels-good.csv')], { pool: 'lp' });
    expect(first.counts).toEqual({ poolsCreated: 1, poolQueries: 2, poolCandidates: 4, labels: 4 });
    expect(second.counts).toEqual({ labelsUnchanged: 4 });
    expect(ws.pool('lp')).toMatchObject({ scheme: 'binary', queries: 2, pairs: 4 });
    expect(ws.poolQueries('lp')).toEqual([
      { queryId: 'q1', candidates: ['c1', 'c2'] },
      { queryId: 'q2', candidates: ['c3', 'c4'] },
    ]);
    expect(ws.currentLabels('lp').map((l) => [l.queryId, l.candidateId, l.annotator, l.value])).toEqual([
      ['q1', 'c1', 'gold', '1'],
      ['q1', 'c2', 'gold', '0'],
      ['q2', 'c3', 'gold', '?'],
      ['q2', 'c4', 'gold', '1'],
    ]);
    ws.close();
  });

  it('takes the annotator from the file, else the option; an existing pool must hold every pair', async () => {
    const ws = tempWorkspace();
    await importFiles(ws, 'labels-csv', [fx('labels-good.csv')], { pool: 'lp', annotator: 'ann1' });
    const f = write('l.jsonl', '{"query_id":"q1","candidate_id":"c2","annotator":"bob","label":1}\n{"query_id":"q2","candidate_id":"c4","label":"no"}\n');
    const { first } = await idempotent(ws, 'labels-jsonl', [f], { pool: 'lp', annotator: 'ann1', scheme: 'likert5' });
    expect(first.counts).toEqual({ labels: 2 });
    // bob, whom the file's annotator field names, is new to the workspace: said, as for the option's name.
    expect(first.warnings).toEqual([
      'pool "lp" already exists with the binary scheme; the likert5 scheme option was ignored',
      'bob was not a person of this workspace and is added as a new annotator',
    ]);
    expect(ws.currentLabels('lp', 'bob').map((l) => l.value)).toEqual(['1']);
    expect(ws.currentLabels('lp', 'ann1').map((l) => [l.candidateId, l.value])).toEqual([
      ['c1', '1'],
      ['c2', '0'],
      ['c3', '?'],
      ['c4', '0'],
    ]);
    ws.close();
  });

  it('creates a pool with the scheme asked for', async () => {
    const ws = tempWorkspace();
    const f = write('s.csv', 'query_id,candidate_id,label\nq,a,perfectmatch\nq,b,0\n');
    await importFiles(ws, 'labels-csv', [f], { pool: 'sp', scheme: 'semeval3' });
    expect(ws.pool('sp').scheme).toBe('semeval3');
    expect(ws.currentLabels('sp').map((l) => l.value)).toEqual(['PerfectMatch', 'Irrelevant']);
    ws.close();
  });
});

describe('qrels', () => {
  it('imports graded labels, adding the judged pairs', async () => {
    const ws = tempWorkspace();
    const { first, second } = await idempotent(ws, 'qrels', [fx('qrels-good.txt')], { pool: 'qp' });
    expect(first.counts).toEqual({ poolsCreated: 1, poolQueries: 2, poolCandidates: 3, labels: 3 });
    expect(second.counts).toEqual({ labelsUnchanged: 3 });
    expect(ws.pool('qp')).toMatchObject({ scheme: 'graded', queries: 2, pairs: 3 });
    expect(ws.currentLabels('qp', 'gold').map((l) => l.value)).toEqual(['2', '0', '1']);
    // Into an existing pool: missing judged pairs are appended to it.
    runPool(ws, 'rp', 'graded');
    await importFiles(ws, 'trec-run', [fx('run-good.txt')], { pool: 'rp' });
    const r = await importFiles(ws, 'qrels', [fx('qrels-good.txt')], { pool: 'rp', annotator: 'trec' });
    expect(r.counts).toEqual({ poolCandidates: 1, labels: 3 });
    expect(ws.poolQueries('rp')[0]!.candidates).toEqual(['c2', 'c1', 'c3', 'c9']);
    ws.close();
  });
});

describe('trec-run', () => {
  it('refuses a pool that does not exist (a typo would have made a new pool), naming the pools; nothing is written', async () => {
    const ws = tempWorkspace();
    const none = await importFiles(ws, 'trec-run', [fx('run-good.txt')], { pool: 'rp' }).catch((x: unknown) => x);
    expect(none).toBeInstanceOf(QPairsError);
    expect((none as Error).message).toMatch(/^no pool named "rp" \(the workspace has no pools\); a run goes into an existing pool — create it first/);
    runPool(ws, 'dev');
    runPool(ws, 'test');
    const before = snapshot(ws);
    const typo = await importFiles(ws, 'trec-run', [fx('run-good.txt')], { pool: 'dve' }).catch((x: unknown) => x);
    expect((typo as Error).message).toBe(
      'no pool named "dve" (pools: dev, test); a run goes into an existing pool — create it first (qpairs pool create, or import its labels: labels-csv, labels-jsonl, qrels)',
    );
    expect(snapshot(ws)).toEqual(before);
    expect(ws.findPool('dve')).toBeNull();
    ws.close();
  });

  it('one run per tag into an existing pool; ranking by score keeps pool order on ties', async () => {
    const ws = tempWorkspace();
    runPool(ws, 'rp');
    const { first, second } = await idempotent(ws, 'trec-run', [fx('run-good.txt')], { pool: 'rp' });
    expect(first.counts).toEqual({ runs: 2, runScores: 7 });
    expect(first.warnings).toEqual([]);
    expect(second.counts).toEqual({ runScores: 7, runsUnchanged: 2 }); // the same runs again: unchanged, not "replaced"
    expect(ws.poolQueries('rp')).toEqual([
      { queryId: 'q1', candidates: ['c2', 'c1', 'c3'] },
      { queryId: 'q2', candidates: ['c4', 'c5'] },
    ]);
    const runs = ws.listRuns('rp');
    expect(runs.map((r) => [r.name, r.pairs])).toEqual([
      ['bm25', 5],
      ['dense', 2],
    ]);
    const q1 = ws.poolQueries('rp')[0]!;
    const bm25 = ws.runScores(runs[0]!.id).get('q1');
    expect(rankIndices(q1.candidates, bm25).map((i) => q1.candidates[i])).toEqual(['c2', 'c1', 'c3']);
    ws.close();
  });

  it('a re-imported run says whether it changed: unchanged, or the exact count of scores added, changed or dropped (it said "replaced" for the same file)', async () => {
    const ws = tempWorkspace();
    runPool(ws, 'rp');
    await importFiles(ws, 'trec-run', [fx('run-good.txt')], { pool: 'rp' });
    const same = await importFiles(ws, 'trec-run', [fx('run-good.txt')], { pool: 'rp' });
    expect(same.counts).toEqual({ runScores: 7, runsUnchanged: 2 });
    // dense: q1 → c1 another score, q1 → c3 added (q1 → c2 again as it was); bm25 as it was.
    const lines = readFileSync(fx('run-good.txt'), 'utf8').replace('q1 Q0 c1 1 0.9 dense', 'q1 Q0 c1 1 0.8 dense').replace('q1 Q0 c2 2 0.5 dense', 'q1 Q0 c2 2 0.5 dense\nq1 Q0 c3 3 0.1 dense');
    const changed = await importFiles(ws, 'trec-run', [write('run-changed.txt', lines)], { pool: 'rp' });
    expect(changed.counts).toEqual({ runScores: 8, runScoresChanged: 2, runsUnchanged: 1 });
    // dense given without q1 → c2: one score dropped.
    const fewer = await importFiles(ws, 'trec-run', [write('run-fewer.txt', 'q1 Q0 c1 1 0.8 dense\nq1 Q0 c3 2 0.1 dense\n')], { pool: 'rp' });
    expect(fewer.counts).toEqual({ runScores: 2, runScoresChanged: 1 });
    expect([...ws.runScores(ws.listRuns('rp').find((r) => r.name === 'dense')!.id).get('q1')!]).toEqual([['c1', 0.8], ['c3', 0.1]]);
    ws.close();
  });

  it('skips entries for pairs outside an existing pool and replaces a re-imported run', async () => {
    const ws = tempWorkspace();
    await importFiles(ws, 'labels-csv', [fx('labels-good.csv')], { pool: 'lp' });
    const r = await importFiles(ws, 'trec-run', [fx('run-good.txt')], { pool: 'lp' });
    expect(r.skipped).toEqual({ pairNotInPool: 2 });
    expect(r.counts).toEqual({ runs: 2, runScores: 5 });
    expect(r.warnings[0]).toMatch(/2 run entries name pairs not in pool "lp" and were skipped \(e\.g\. q1 → c3 \(line 3\)\)/);
    const f = write('run2.txt', 'q1 Q0 c1 1 1.5 bm25\n');
    const r2 = await importFiles(ws, 'trec-run', [f], { pool: 'lp' });
    expect(r2.counts).toEqual({ runScores: 1, runScoresChanged: 3 }); // bm25: q1 → c1 given 1.5 (was 7), q1 → c2 and q2 → c4 dropped
    expect(ws.listRuns('lp').map((x) => x.pairs)).toEqual([1, 2]);
    ws.close();
  });

  it('warns when score ties in the file disagree with the pool order', async () => {
    const ws = tempWorkspace();
    await importFiles(ws, 'labels-csv', [fx('labels-good.csv')], { pool: 'lp' });
    const f = write('tie.txt', 'q1 Q0 c2 1 5 t\nq1 Q0 c1 2 5 t\n');
    const r = await importFiles(ws, 'trec-run', [f], { pool: 'lp' });
    expect(r.warnings).toEqual([expect.stringMatching(/1 entries tie in score .* pool order/)]);
    ws.close();
  });
});

describe('semeval (hand-made file)', () => {
  it('groups repeated OrgQuestions, reads CDATA and entities, keeps comments as answers', async () => {
    const ws = tempWorkspace();
    const { first, second } = await idempotent(ws, 'semeval', [fx('semeval-small.xml')], { annotator: 'organisers' });
    expect(first.counts).toMatchObject({ originalQuestions: 2, relatedQuestions: 3, poolQueries: 2, poolCandidates: 3, labels: 3, runScores: 3 });
    // One count of the comments, named as the data names them (it said them twice: comments read, and answers added).
    expect(first.counts).toMatchObject({ commentsInserted: 1 });
    expect(second.counts).toMatchObject({ commentsUnchanged: 1 });
    for (const r of [first, second]) expect(Object.keys(r.counts).filter((k) => /^answers|^comments$/.test(k))).toEqual([]);
    expect(second.counts.commentsInserted ?? 0).toBe(0);
    expect(ws.answersOf('T1_R3')).toEqual([
      { id: 'T1_R3_C1', position: 0, source: 'semeval', body: 'About a week.', author: 'U2', created: '2013-01-02 11:00:00' },
    ]);
    expect(ws.stats().answers).toBe(1);
    expect(ws.poolQueries('semeval-small')).toEqual([
      { queryId: 'T1', candidates: ['T1_R3', 'T1_R1'] },
      { queryId: 'T2', candidates: ['T2_R7'] },
    ]);
    expect(ws.getQuestion('T1')!.body).toBe('How long does a visa renewal take & what does it cost?');
    expect(ws.getQuestion('T1_R3')).toMatchObject({ title: 'Renewing a <visit> visa', body: 'How many days to renew a visit visa?' });
    expect(ws.currentLabels('semeval-small', 'organisers').map((l) => l.value)).toEqual(['Relevant', 'Irrelevant', 'PerfectMatch']);
    const run = ws.listRuns('semeval-small')[0]!;
    expect(ws.runScores(run.id).get('T1')).toEqual(new Map([['T1_R3', 1 / 3], ['T1_R1', 1]]));
    ws.close();
  });
});

describe('answers and comments (unlabeled text)', () => {
  const post = (attrs: string): string => `  <row ${attrs} />\n`;
  const posts = (...rows: string[]): string => `<?xml version="1.0" encoding="utf-8"?>\n<posts>\n${rows.join('')}</posts>\n`;

  it('stackexchange: answers read before their question wait for it; answers to a missing question are skipped and counted', async () => {
    const ws = tempWorkspace();
    const f = write(
      'Posts.xml',
      posts(
        post('Id="5" PostTypeId="2" ParentId="7" CreationDate="2020-01-02" Body="&lt;p&gt;Early answer&lt;/p&gt;" OwnerUserId="3"'),
        post('Id="6" PostTypeId="2" ParentId="99" Body="&lt;p&gt;Orphan&lt;/p&gt;"'),
        post('Id="7" PostTypeId="1" Title="Q" Body="&lt;p&gt;question&lt;/p&gt;"'),
        post('Id="8" PostTypeId="2" ParentId="7" Body="&lt;p&gt;Second &lt;b&gt;answer&lt;/b&gt;&lt;/p&gt;" OwnerDisplayName="anon"'),
        post('Id="9" PostTypeId="2" ParentId="7" Body="&lt;p&gt;&lt;img src=&quot;x.png&quot;&gt;&lt;/p&gt;"'),
        post('Id="10" PostTypeId="5" Body="wiki"'),
      ),
    );
    const { first, second } = await idempotent(ws, 'stackexchange', [f]);
    expect(first.counts).toEqual({ questionsInserted: 1, answersInserted: 2 });
    expect(first.skipped).toEqual({ answerToMissingQuestion: 1, emptyAnswer: 1, notAQuestion: 1 });
    expect(first.warnings).toEqual([expect.stringMatching(/: no PostLinks\.xml in the folder \(nor among the files given\): no duplicate links were imported/), expect.stringMatching(/Posts\.xml, line 4: answer 6 to 99/)]);
    expect(second.counts).toEqual({ questionsUnchanged: 1, answersUnchanged: 2 });
    // The early answer was stored once its question was read, after the later one.
    expect(ws.answersOf('7')).toEqual([
      { id: '8', position: 0, source: 'stackexchange', body: 'Second answer', author: 'anon', created: null },
      { id: '5', position: 1, source: 'stackexchange', body: 'Early answer', author: '3', created: '2020-01-02' },
    ]);
    expect(ws.db.prepare(`SELECT count(*) AS n FROM temp.sqlite_schema WHERE name = 'qp_pending_answers'`).get()).toEqual({ n: 0 });
    ws.close();
  });

  it('stackexchange: an answer whose question is in another Posts file of the same import is kept', async () => {
    const ws = tempWorkspace();
    const a = write('answers-Posts.xml', posts(post('Id="2" PostTypeId="2" ParentId="1" Body="ans"')));
    const q = write('questions-Posts.xml', posts(post('Id="1" PostTypeId="1" Title="T" Body="b"')));
    const r = await importFiles(ws, 'stackexchange', [a, q]);
    expect(r.counts).toEqual({ questionsInserted: 1, answersInserted: 1 });
    expect(r.skipped).toEqual({});
    // Alone, the answers file has no question for it (the workspace's are not "the dump").
    const alone = await importFiles(ws, 'stackexchange', [a]);
    expect(alone.skipped).toEqual({ answerToMissingQuestion: 1 });
    expect(ws.answersOf('1')).toHaveLength(1);
    ws.close();
  });

  it('an edited answer is updated in place; one moved to another question goes to its end', async () => {
    const ws = tempWorkspace();
    const v1 = write('Posts.xml', posts(post('Id="1" PostTypeId="1" Title="A" Body="a"'), post('Id="2" PostTypeId="1" Title="B" Body="b"'), post('Id="3" PostTypeId="2" ParentId="1" Body="x"'), post('Id="4" PostTypeId="2" ParentId="1" Body="y"'), post('Id="5" PostTypeId="2" ParentId="2" Body="z"')));
    await importFiles(ws, 'stackexchange', [v1]);
    const v2 = write('Posts.xml', posts(post('Id="1" PostTypeId="1" Title="A" Body="a"'), post('Id="2" PostTypeId="1" Title="B" Body="b"'), post('Id="3" PostTypeId="2" ParentId="2" Body="x"'), post('Id="4" PostTypeId="2" ParentId="1" Body="y, edited"'), post('Id="5" PostTypeId="2" ParentId="2" Body="z"')));
    const r = await importFiles(ws, 'stackexchange', [v2]);
    expect(r.counts).toMatchObject({ answersUpdated: 2, answersUnchanged: 1 });
    expect(ws.answersOf('1').map((a) => [a.id, a.position, a.body])).toEqual([['4', 1, 'y, edited']]);
    expect(ws.answersOf('2').map((a) => [a.id, a.position])).toEqual([['5', 0], ['3', 1]]);
    ws.close();
  });

  it('answers moved between questions of the same import, and answers after them, get the positions the table gives', async () => {
    // Questions new in the import keep their next answer position in memory (AnswerPositions):
    // an answer moved in or out (a second Posts file of the same import) must not leave it stale.
    const ws = tempWorkspace();
    const p1 = write('one-Posts.xml', posts(post('Id="1" PostTypeId="1" Title="A" Body="a"'), post('Id="2" PostTypeId="1" Title="B" Body="b"'), post('Id="10" PostTypeId="2" ParentId="1" Body="x"'), post('Id="11" PostTypeId="2" ParentId="1" Body="y"'), post('Id="12" PostTypeId="2" ParentId="2" Body="z"')));
    const p2 = write('two-Posts.xml', posts(post('Id="11" PostTypeId="2" ParentId="2" Body="y"'), post('Id="13" PostTypeId="2" ParentId="1" Body="after the move out"'), post('Id="14" PostTypeId="2" ParentId="2" Body="after the move in"'), post('Id="10" PostTypeId="2" ParentId="1" Body="x, edited"'), post('Id="15" PostTypeId="2" ParentId="1" Body="last"')));
    const r = await importFiles(ws, 'stackexchange', [p1, p2]);
    expect(r.counts).toEqual({ questionsInserted: 2, answersInserted: 6, answersUpdated: 2 });
    // 11 left question 1 (its highest position, 1): the next answer of 1 takes 1 again; 11 went to the end of 2.
    expect(ws.answersOf('1').map((a) => [a.id, a.position])).toEqual([['10', 0], ['13', 1], ['15', 2]]);
    expect(ws.answersOf('2').map((a) => [a.id, a.position])).toEqual([['12', 0], ['11', 1], ['14', 2]]);
    ws.close();
  });

  it('semeval: a comment repeated in a file is read once (a warning when its text differs); empty ones are skipped', async () => {
    const ws = tempWorkspace();
    const thread = (org: string, text: string) =>
      `<OrgQuestion ORGQ_ID="${org}"><OrgQSubject>s</OrgQSubject><OrgQBody>b</OrgQBody><Thread THREAD_SEQUENCE="R9">` +
      `<RelQuestion RELQ_ID="R9" RELQ_RANKING_ORDER="1" RELQ_RELEVANCE2ORGQ="Relevant"><RelQSubject>rs</RelQSubject><RelQBody>rb</RelQBody></RelQuestion>` +
      `<RelComment RELC_ID="R9_C1"><RelCText>${text}</RelCText></RelComment><RelComment RELC_ID="R9_C2"><RelCText> </RelCText></RelComment></Thread></OrgQuestion>\n`;
    const f = write('rep.xml', `<xml>\n${thread('O1', 'first  text')}${thread('O2', 'other text')}</xml>\n`);
    const r = await importFiles(ws, 'semeval', [f]);
    expect(r.counts).toMatchObject({ commentsInserted: 1 });
    expect(r.skipped).toEqual({ emptyComment: 1 });
    expect(r.warnings).toEqual([expect.stringMatching(/line 3: comment R9_C1 repeats with a different text than on line 2; the first was kept/)]);
    expect(ws.answersOf('R9').map((a) => a.body)).toEqual(['first text']);
    ws.close();
  });
});

describe('stackexchange (hand-made dump)', () => {
  it('imports questions as text, duplicate links, and counts what it skips', async () => {
    const ws = tempWorkspace();
    const { first } = await idempotent(ws, 'stackexchange', [fx('se/PostLinks.xml'), fx('se/Posts.xml')], { source: 'demo' });
    expect(first.files.map((f) => path.basename(f))).toEqual(['Posts.xml', 'PostLinks.xml']);
    expect(first.counts).toEqual({ questionsInserted: 3, answersInserted: 1, duplicatePairs: 1 });
    expect(first.skipped).toEqual({ notDuplicateLink: 1, linkToMissingQuestion: 2 });
    expect(ws.answersOf('10')).toEqual([{ id: '11', position: 0, source: 'demo', body: 'Use sort.', author: '8', created: '2020-01-01T00:00:01.000' }]);
    expect(ws.getQuestion('10')).toEqual({
      id: '10',
      source: 'demo',
      title: 'How do I sort & filter?',
      body: 'I have a biglist: sort -n file | uniq > out Café & more! done',
      tags: ['shell', 'sorting'],
      author: '7',
      created: '2020-01-01T00:00:00.000',
      category: null,
    });
    expect(ws.getQuestion('12')).toMatchObject({ tags: ['shell', 'sorting'], author: 'anon' });
    expect(ws.getQuestion('13')).toMatchObject({ body: '', tags: [], author: null });
    expect(ws.duplicatePairs()).toEqual([['10', '12']]);
    ws.close();
  });
});

describe('progress and cancellation', () => {
  it('reports progress up to the total bytes', async () => {
    const ws = tempWorkspace();
    const seen: Array<{ bytesDone: number; bytesTotal: number; records: number }> = [];
    const files = [fx('askubuntu-corpus.txt'), fx('questions-quoted.csv')];
    await importFiles(ws, 'askubuntu-corpus', [files[0]!], { onProgress: (p) => seen.push(p), progressIntervalMs: 0 });
    const last = seen[seen.length - 1]!;
    expect(last).toEqual({ bytesDone: last.bytesTotal, bytesTotal: readFileSync(files[0]!).length, records: 3 });
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.bytesDone).toBeGreaterThanOrEqual(seen[i - 1]!.bytesDone);
    ws.close();
  });

  it('an abort rolls back everything done so far', async () => {
    const ws = tempWorkspace();
    await importFiles(ws, 'askubuntu-corpus', [fx('askubuntu-corpus.txt')]);
    const before = snapshot(ws);
    const lines = Array.from({ length: 20000 }, (_, i) => `${1000 + i}\ttitle ${i}\tbody ${i}`).join('\n');
    const f = write('big.txt', lines);
    const ac = new AbortController();
    const err = await importFiles(ws, 'askubuntu-corpus', [f], {
      signal: ac.signal,
      progressIntervalMs: 0,
      onProgress: (p) => {
        if (p.records >= 5000) ac.abort();
      },
    }).catch((e: unknown) => e);
    expect((err as Error).name).toBe('CancelledError');
    expect(snapshot(ws)).toEqual(before);
    const pre = new AbortController();
    pre.abort();
    await expect(importFiles(ws, 'askubuntu-corpus', [f], { signal: pre.signal })).rejects.toThrow(/cancelled/);
    expect(snapshot(ws)).toEqual(before);
    expect(ws.db.inTransaction).toBe(false);
    ws.close();
  });

  it('needs a pool for label and run formats', async () => {
    const ws = Workspace.create(':memory:');
    for (const format of ['labels-csv', 'labels-jsonl', 'qrels', 'trec-run', 'semeval-relevancy']) {
      const e = await importFiles(ws, format, [fx('qrels-good.txt')]).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(QPairsError);
      expect((e as Error).message).toMatch(new RegExp(`${format} imports need a target pool`));
    }
    ws.close();
  });
});
