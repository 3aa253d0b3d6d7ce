/**
 * Question ids are scoped by source (another source's id is refused, naming both sources and the
 * import that brought the first, unless --update), and questionable input is a warning with
 * counts — an error with --strict — while malformed input is always an error. Every refusal
 * leaves the workspace exactly as it was.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { QPairsError } from '../errors';
import type { Workspace } from '../workspace/workspace';
import { memberPath } from './archive';
import { importFiles } from './index';
import { liveSevenZipWorkers, runSevenZip } from './sevenzip';
import type { ImportOptions } from './types';
import { cleanupTemp, runPool, snapshot, tempDir, tempWorkspace } from './test-helpers';

afterEach(cleanupTemp);

const FIX = path.resolve(__dirname, '../../../tests/fixtures/import');
const fx = (name: string): string => path.join(FIX, name);

function write(name: string, data: string): string {
  const f = path.join(tempDir(), name);
  writeFileSync(f, data);
  return f;
}

const posts = (...rows: string[]): string => `<?xml version="1.0" encoding="utf-8"?>\n<posts>\n${rows.map((r) => `  <row ${r} />\n`).join('')}</posts>\n`;

async function refused(ws: Workspace, format: string, files: string[], opts: ImportOptions): Promise<QPairsError> {
  const before = snapshot(ws);
  const e = await importFiles(ws, format, files, opts).then(
    () => null,
    (x: unknown) => x,
  );
  expect(e, `${format} should fail`).toBeInstanceOf(QPairsError);
  expect(snapshot(ws)).toEqual(before);
  return e as QPairsError;
}

describe('question ids are scoped by source', () => {
  it('another source reusing an id is refused, naming file, line, id, both sources and the import that brought it', async () => {
    const ws = tempWorkspace();
    const se = write('Posts.xml', posts('Id="1" PostTypeId="1" Title="Stack Exchange question" Body="se body"', 'Id="2" PostTypeId="1" Title="Two" Body="b"'));
    await importFiles(ws, 'stackexchange', [se]);
    const at = ws.listImports()[0]!.at;
    const au = write('text_tokenized.txt', '7\tnew one\tbody\n1\taskubuntu title\taskubuntu body\n');
    const e = await refused(ws, 'askubuntu-corpus', [au], {});
    expect(e.message).toBe(
      `${au}, line 2: question id "1" is already in the workspace from source "stackexchange" (imported ${at} by a stackexchange import of Posts.xml), ` +
        `and this question is from source "askubuntu": ids are scoped by source, so its text was not replaced. Import with --update to replace it on purpose.`,
    );
    expect(e.details).toMatchObject({ file: au, line: 2 });
    expect(ws.getQuestion('1')).toMatchObject({ source: 'stackexchange', title: 'Stack Exchange question' });
    expect(ws.getQuestion('7')).toBeNull(); // nothing partially imported

    // --update replaces on purpose, and says so.
    const r = await importFiles(ws, 'askubuntu-corpus', [au], { update: true });
    expect(r.counts).toEqual({ questionsInserted: 1, questionsReplaced: 1 });
    expect(ws.getQuestion('1')).toMatchObject({ source: 'askubuntu', title: 'askubuntu title' });
    ws.close();
  });

  it('a questions file whose source comes from its name suggests --source', async () => {
    const ws = tempWorkspace();
    await importFiles(ws, 'questions-jsonl', [write('forum.jsonl', '{"id":"a","title":"t","body":"b"}\n')]);
    const v2 = write('forum-v2.jsonl', '{"id":"a","title":"t2","body":"b"}\n');
    const e = await refused(ws, 'questions-jsonl', [v2], {});
    expect(e.message).toMatch(/^.*forum-v2\.jsonl, line 1: question id "a" is already in the workspace from source "forum" \(imported .* by a questions-jsonl import of forum\.jsonl\)/);
    expect(e.message).toContain('(this file\'s source "forum-v2" comes from its name: give --source forum if it is the same corpus)');
    // The same source (given) updates: a newer dump corrects its own posts.
    const r = await importFiles(ws, 'questions-jsonl', [v2], { source: 'forum' });
    expect(r.counts).toEqual({ questionsUpdated: 1 });
    expect(ws.getQuestion('a')!.title).toBe('t2');
    ws.close();
  });

  it('the same source with changed text of a labelled pool question is refused without --update (issue 23); with it, it updates, keeps the old text and says what it touches; an identical re-import changes nothing', async () => {
    const ws = tempWorkspace();
    await importFiles(ws, 'semeval', [fx('semeval-small.xml')]);
    const edited = write('semeval-small.xml', (await import('node:fs')).readFileSync(fx('semeval-small.xml'), 'utf8').replace('Renewing a', 'Renewing one'));
    const no = await refused(ws, 'semeval', [edited], { pool: 'semeval-small' });
    expect(no.message).toMatch(/semeval-small\.xml, line \d+: question "T1_R3" would get a new text, but it is in pool "semeval-small" with 1 label event: .* Import with --update to replace it on purpose/);
    const oldTitle = ws.getQuestion('T1_R3')!.title;
    const r = await importFiles(ws, 'semeval', [edited], { pool: 'semeval-small', update: true });
    expect(r.counts).toMatchObject({ questionsUpdated: 1, questionsUpdatedInPools: 1, questionsUnchanged: 4 });
    expect(r.warnings).toEqual([
      expect.stringMatching(/semeval-small\.xml, line \d+: question T1_R3 \(in pool "semeval-small" with 1 label event\) has a new text \(--update; the old one is kept in its history\); labels given on the old text now stand for the new one/),
    ]);
    expect(ws.questionTextHistory('T1_R3')).toEqual([expect.objectContaining({ title: oldTitle, touched: { pools: ['semeval-small'], labels: 1 } })]);
    const before = snapshot(ws);
    const again = await importFiles(ws, 'semeval', [edited], { pool: 'semeval-small' });
    expect(again.counts.questionsUpdated ?? 0).toBe(0);
    expect(again.warnings).toEqual([]);
    expect(snapshot(ws).dataChecksum).toBe(before.dataChecksum);
    ws.close();
  });

  it('answers are scoped by source too', async () => {
    const ws = tempWorkspace();
    await importFiles(ws, 'stackexchange', [write('Posts.xml', posts('Id="1" PostTypeId="1" Title="Q" Body="q"', 'Id="2" PostTypeId="2" ParentId="1" Body="a"'))]);
    const other = write('Posts.xml', posts('Id="1" PostTypeId="1" Title="Q" Body="q"', 'Id="2" PostTypeId="2" ParentId="1" Body="other answer"'));
    await importFiles(ws, 'stackexchange', [other], { source: 'stackexchange' });
    const e = await refused(ws, 'stackexchange', [write('Posts.xml', posts('Id="5" PostTypeId="1" Title="Q5" Body="q"', 'Id="2" PostTypeId="2" ParentId="5" Body="mine"'))], { source: 'site-b' });
    expect(e.message).toMatch(/Posts\.xml, line 4: answer id "2" is already in the workspace from source "stackexchange", and this answer is from source "site-b"/);
    ws.close();
  });
});

  it('a SemEval import takes --source for its questions and comments (it was ignored: always "semeval"), else semeval', async () => {
    const ws = tempWorkspace();
    const sources = (table: 'questions' | 'answers'): string[] =>
      (ws.stmt(`SELECT DISTINCT source FROM ${table} ORDER BY source`).all() as { source: string }[]).map((r) => r.source);
    await importFiles(ws, 'semeval', [fx('semeval-small.xml')], { source: 'qatar-living' });
    expect(sources('questions')).toEqual(['qatar-living']);
    expect(sources('answers')).toEqual(['qatar-living']);
    ws.close();

    const plain = tempWorkspace();
    await importFiles(plain, 'semeval', [fx('semeval-small.xml')]);
    expect((plain.stmt(`SELECT DISTINCT source FROM questions`).all() as { source: string }[]).map((r) => r.source)).toEqual(['semeval']);
    plain.close();
  });

describe('questionable input: a warning with counts, an error with --strict', () => {
  it('qrels naming unknown queries', async () => {
    const ws = tempWorkspace();
    runPool(ws, 'rp');
    await importFiles(ws, 'trec-run', [fx('run-good.txt')], { pool: 'rp' });
    const f = write('q.qrels', 'q1 0 c1 1\nq9 0 c1 0\nq1 0 c2 0\nq9 0 c2 1\nzz 0 c1 1\n');
    const r = await importFiles(ws, 'qrels', [f], { pool: 'rp', annotator: 'trec' });
    expect(r.warnings).toEqual([
      `${f}: 2 of 3 query ids are unknown — neither queries of pool "rp" nor questions in the workspace (e.g. "q9" on line 2); their labels were imported (--strict makes this an error)`,
      'trec was not a person of this workspace and is added as a new annotator',
    ]);
    const ws2 = tempWorkspace();
    runPool(ws2, 'rp', 'graded');
    await importFiles(ws2, 'trec-run', [fx('run-good.txt')], { pool: 'rp' });
    const e = await refused(ws2, 'qrels', [f], { pool: 'rp', strict: true });
    expect(e.message).toBe(`${f}, line 2: query "q9" is unknown: neither a query of pool "rp" nor a question in the workspace (--strict)`);
    expect(e.details.line).toBe(2);
    // Queries of the pool are known: no warning.
    const ok = await importFiles(ws2, 'qrels', [fx('qrels-good.txt')], { pool: 'rp', strict: true });
    expect(ok.warnings).toEqual([]);
    ws.close();
    ws2.close();
  });

  it('an AskUbuntu pool line with fewer candidates than the others is an error (always)', async () => {
    const ws = tempWorkspace();
    const cands = (n: number, from: number): string => Array.from({ length: n }, (_, i) => String(from + i)).join(' ');
    const scores = (n: number): string => Array.from({ length: n }, (_, i) => String(20 - i)).join(' ');
    const f = write('dev.txt', `1\t100\t${cands(20, 100)}\t${scores(20)}\n2\t200\t${cands(20, 200)}\t${scores(20)}\n3\t300\t${cands(19, 300)}\t${scores(19)}\n`);
    const e = await refused(ws, 'askubuntu-pool', [f], {});
    expect(e.message).toBe(`${f}, line 3: 19 candidates, but line 1 has 20: every line of the file must list the same number of BM25 candidates`);
    ws.close();
  });

  it('AskUbuntu similar ids outside the candidates: warned about, an error with --strict', async () => {
    const ws = tempWorkspace();
    const f = write('dev.txt', '1\t2 9\t2 3\t5 4\n');
    const r = await importFiles(ws, 'askubuntu-pool', [f]);
    expect(r.skipped).toEqual({ similarNotInCandidates: 1 });
    const ws2 = tempWorkspace();
    const e = await refused(ws2, 'askubuntu-pool', [f], { strict: true });
    expect(e.message).toBe(`${f}, line 1: similar question 9 of query 1 is not among its candidates (--strict)`);
    ws.close();
    ws2.close();
  });

  it('a Stack Exchange folder without PostLinks.xml', async () => {
    const ws = tempWorkspace();
    const folder = tempDir();
    writeFileSync(path.join(folder, 'Posts.xml'), posts('Id="1" PostTypeId="1" Title="Q" Body="q"'));
    const r = await importFiles(ws, 'stackexchange', [folder]);
    expect(r.counts).toEqual({ questionsInserted: 1 });
    expect(r.warnings).toEqual([`${folder}: no PostLinks.xml in the folder (nor among the files given): no duplicate links were imported (--strict makes this an error)`]);
    const ws2 = tempWorkspace();
    const e = await refused(ws2, 'stackexchange', [folder], { strict: true });
    expect(e.message).toBe(`${folder}: no PostLinks.xml in ${folder} (nor among the files given), so no duplicate links would be imported (--strict)`);
    expect(e.details.file).toBe(folder);
    // With PostLinks.xml, no warning.
    const full = await importFiles(ws2, 'stackexchange', [fx('se')], { strict: true });
    expect(full.warnings.filter((w) => /no PostLinks/.test(w))).toEqual([]);
    ws.close();
    ws2.close();
  });

  it('a Posts file given alone while its PostLinks file lies beside it: named as there but not given', async () => {
    const folder = tempDir();
    const postsFile = path.join(folder, 'Posts.xml.gz');
    writeFileSync(postsFile, gzipSync(posts('Id="1" PostTypeId="1" Title="Q" Body="q"', 'Id="2" PostTypeId="1" Title="Q2" Body="q"')));
    writeFileSync(path.join(folder, 'PostLinks.xml.gz'), gzipSync('<?xml version="1.0" encoding="utf-8"?>\n<postlinks>\n  <row Id="1" PostId="2" RelatedPostId="1" LinkTypeId="3" />\n</postlinks>\n'));
    const ws = tempWorkspace();
    const r = await importFiles(ws, 'stackexchange', [postsFile]);
    expect(r.warnings).toEqual([`${folder}: PostLinks.xml.gz is in the folder but was not given: give the folder to import both; no duplicate links were imported (--strict makes this an error)`]);
    const ws2 = tempWorkspace();
    const e = await refused(ws2, 'stackexchange', [postsFile], { strict: true });
    expect(e.message).toBe(`${folder}: PostLinks.xml.gz is in the folder but was not given: give the folder to import both; no duplicate links would be imported (--strict)`);
    expect(e.details.file).toBe(folder);
    // The folder brings both: no warning, and the link is imported.
    const both = await importFiles(ws2, 'stackexchange', [folder], { strict: true });
    expect(both.warnings).toEqual([]);
    expect(both.counts).toMatchObject({ duplicatePairs: 1 });
    ws.close();
    ws2.close();
  });

  it('an archive member named alone, and a per-file archive without its PostLinks archive: the left-out file is named', async () => {
    const folder = tempDir();
    writeFileSync(path.join(folder, 'Posts.xml'), posts('Id="1" PostTypeId="1" Title="Q" Body="q"'));
    writeFileSync(path.join(folder, 'PostLinks.xml'), '<?xml version="1.0" encoding="utf-8"?>\n<postlinks>\n</postlinks>\n');
    const pack = async (archive: string, names: string[]): Promise<string> => {
      const r = await runSevenZip(folder, ['a', '-bd', '-tzip', archive, ...names]);
      expect(r.code, r.stderr).toBe(0);
      return path.join(folder, archive);
    };
    const site = await pack('site.zip', ['Posts.xml', 'PostLinks.xml']);
    const ws = tempWorkspace();
    const member = await importFiles(ws, 'stackexchange', [memberPath(site, 'Posts.xml')]);
    expect(member.warnings).toEqual([`${site}: PostLinks.xml is in the archive but was not given: give the archive alone to import both; no duplicate links were imported (--strict makes this an error)`]);
    const postsOnly = await pack('so.com-Posts.zip', ['Posts.xml']);
    await pack('so.com-PostLinks.zip', ['PostLinks.xml']);
    const ws2 = tempWorkspace();
    const perFile = await importFiles(ws2, 'stackexchange', [postsOnly]);
    expect(perFile.warnings).toEqual([
      `${folder}: so.com-PostLinks.zip is in the folder but was not given: give so.com-Posts.zip and so.com-PostLinks.zip together to import both; no duplicate links were imported (--strict makes this an error)`,
    ]);
    ws.close();
    ws2.close();
    expect(liveSevenZipWorkers()).toBe(0);
  });
});

describe('ids of another corpus (ids are one namespace in a workspace)', () => {
  const aPool = (ids: string[][]): string => write('dev.txt', ids.map(([q, sim, ...c]) => `${q}\t${sim}\t${c.join(' ')}\t${c.map((_, i) => 10 - i).join(' ')}`).join('\n') + '\n');

  it('askubuntu-pool refuses an id another source holds, naming the line, the id and the source; nothing is written', async () => {
    const ws = tempWorkspace();
    await importFiles(ws, 'questions-jsonl', [write('site.jsonl', '{"id":"894","title":"2011 Community Moderator Election","body":"x"}\n')], { source: 'cstheory-meta' });
    const file = aPool([['100', '101', '101', '102'], ['200', '', '201', '894']]);
    const e = await refused(ws, 'askubuntu-pool', [file], { pool: 'au-dev' });
    expect(e.message).toMatch(/dev\.txt, line 2: question 894 of this workspace comes from source "cstheory-meta", not askubuntu: its text would stand for AskUbuntu question 894/);
    // The same ids under their own source are fine (--source names the corpus the ids are from).
    await importFiles(ws, 'askubuntu-pool', [aPool([['100', '101', '101', '102']])], { pool: 'au-dev' });
  });

  it('an import that gives text to ids an earlier pool listed without it warns, per pool', async () => {
    const ws = tempWorkspace();
    await importFiles(ws, 'askubuntu-pool', [aPool([['100', '101', '101', '894'], ['200', '', '201', '202']])], { pool: 'au-dev' });
    const r = await importFiles(ws, 'questions-jsonl', [write('site.jsonl', '{"id":"894","title":"t","body":"b"}\n{"id":"999","title":"u","body":"c"}\n')], { source: 'cstheory-meta' });
    expect(r.warnings).toEqual([expect.stringMatching(/^pool "au-dev" listed 1 of the questions this import added without text \(e\.g\. 894\); it now shows their text \(source cstheory-meta\)/)]);
    // Text for ids no pool lists: no warning.
    const quiet = await importFiles(ws, 'questions-jsonl', [write('more.jsonl', '{"id":"5000","title":"t","body":"b"}\n')], { source: 'cstheory-meta' });
    expect(quiet.warnings).toEqual([]);
  });
});
