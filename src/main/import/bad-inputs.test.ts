/**
 * Malformed inputs: every failure must be a QPairsError naming file, line (when there is one)
 * and reason, and must leave the workspace exactly as it was (stats, every table's rows, the
 * imports audit). The workspace is seeded first, and the bad files start with good records, so a
 * missing rollback would show.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QPairsError } from '../errors';
import type { Workspace } from '../workspace/workspace';
import { importFiles } from './index';
import type { ImportOptions } from './types';
import { cleanupTemp, runPool, snapshot, tempDir, tempWorkspace } from './test-helpers';

const FIX = path.resolve(__dirname, '../../../tests/fixtures/import');
const fx = (name: string): string => path.join(FIX, name);

let ws: Workspace;
let dir: string;

beforeAll(async () => {
  ws = tempWorkspace();
  dir = tempDir();
  await importFiles(ws, 'semeval', [fx('semeval-small.xml')]);
  await importFiles(ws, 'questions-csv', [fx('questions-quoted.csv')]);
  await importFiles(ws, 'labels-csv', [fx('labels-good.csv')], { pool: 'lp' });
  runPool(ws, 'rp');
  await importFiles(ws, 'trec-run', [fx('run-good.txt')], { pool: 'rp' });
  await importFiles(ws, 'stackexchange', [fx('se')]);
});

afterAll(() => {
  ws.close();
  cleanupTemp();
});

function write(name: string, data: string | Buffer): string {
  const f = path.join(dir, name);
  writeFileSync(f, data);
  return f;
}

interface Expect {
  /** The file the message must name (default: the last file). */
  file?: string;
  line: number | null;
  reason: RegExp;
}

async function failsCleanly(format: string, files: string[], opts: ImportOptions, want: Expect): Promise<QPairsError> {
  const before = snapshot(ws);
  const e = await importFiles(ws, format, files, opts).then(
    () => null,
    (x: unknown) => x,
  );
  expect(e, `${format} should fail`).toBeInstanceOf(QPairsError);
  const err = e as QPairsError;
  const file = want.file ?? files[files.length - 1]!;
  if (want.line === null) expect(err.message.startsWith(`${file}: `), err.message).toBe(true);
  else {
    expect(err.message.startsWith(`${file}, line ${want.line}: `), err.message).toBe(true);
    expect(err.details.line).toBe(want.line);
  }
  expect(err.details.file).toBe(file);
  expect(err.message).toMatch(want.reason);
  expect(snapshot(ws)).toEqual(before);
  expect(ws.db.inTransaction).toBe(false);
  return err;
}

describe('malformed files fail with file, line and reason, and change nothing', () => {
  it('truncated XML (semeval), after good records that update existing questions', async () => {
    // --update (issue 23): the good records replace labeled questions' texts before the file breaks off.
    await failsCleanly('semeval', [fx('semeval-truncated.xml')], { pool: 'semeval-small', update: true }, { line: 22, reason: /malformed XML: unclosed tag: RelQBody/ });
  });

  it('a SemEval subtask A file (bare threads) says it is one, naming the line; a stray thread after OrgQuestions does not', async () => {
    const a = write('subtaskA.xml', '<?xml version="1.0"?>\n<root>\n<Thread THREAD_SEQUENCE="Q1_R1">\n<RelQuestion RELQ_ID="Q1_R1"><RelQSubject>s</RelQSubject><RelQBody>b</RelQBody></RelQuestion>\n</Thread>\n</root>\n');
    await failsCleanly('semeval', [a], { pool: 'sa' }, { line: 3, reason: /Thread outside an OrgQuestion: this looks like a subtask A file .*the semeval format reads subtask B\/C files/ });
    const stray = write('stray.xml', '<xml>\n<OrgQuestion ORGQ_ID="QS1"><OrgQSubject>s</OrgQSubject><OrgQBody>b</OrgQBody></OrgQuestion>\n<Thread THREAD_SEQUENCE="x"></Thread>\n</xml>\n');
    const e = await failsCleanly('semeval', [stray], { pool: 'st' }, { line: 3, reason: /Thread outside an OrgQuestion$/ });
    expect(e.message).not.toContain('subtask A');
  });

  it('truncated XML (stackexchange Posts.xml cut inside a row)', async () => {
    const full = readFileSync(fx('se/Posts.xml'), 'utf8');
    const f = write('Posts.xml', full.slice(0, full.indexOf('<row Id="13"') + 30));
    await failsCleanly('stackexchange', [f], {}, { line: 6, reason: /malformed XML/ });
  });

  it('CSV missing a required column names the column', async () => {
    const e = await failsCleanly('questions-csv', [fx('questions-missing-body.csv')], {}, { line: 1, reason: /missing required column "body"/ });
    expect(e.message).toContain('(the header has: id, title, tags; expected id, title, body)');
    await failsCleanly('labels-csv', [write('l.csv', 'query_id,label\nq1,1\n')], { pool: 'lp' }, { line: 1, reason: /missing required column "candidate_id"/ });
    expect(e.message).not.toContain('separated by');
  });

  it('an id given as a JSON number too large to read exactly (or a fraction) is refused, naming the line; safe integers are ids', async () => {
    // 12345678901234567891 and …892 both read as 12345678901234567000: stored as that, the two were one question.
    await failsCleanly('questions-jsonl', [write('big.jsonl', '{"id":42,"title":"a","body":"b"}\n{"id":12345678901234567891,"title":"a","body":"b"}\n')], {}, {
      line: 2,
      reason: /id is a number too large to read exactly: it reads as 12345678901234567000 .*write it as a string \("id": "…"\)$/,
    });
    await failsCleanly('questions-jsonl', [write('frac.jsonl', '{"id":1.5,"title":"a","body":"b"}\n')], {}, { line: 1, reason: /id 1\.5 is not a whole number: write the id as a string/ });
    await failsCleanly('labels-jsonl', [write('bigl.jsonl', '{"query_id":"q","candidate_id":9007199254740993,"label":"1"}\n')], { pool: 'big' }, {
      line: 1,
      reason: /candidate_id is a number too large to read exactly: it reads as 9007199254740992 /,
    });
    const r = await importFiles(ws, 'questions-jsonl', [write('safe.jsonl', '{"id":9007199254740991,"title":"a","body":"b"}\n')]);
    expect(r.counts).toEqual({ questionsInserted: 1 });
    expect(ws.getQuestion('9007199254740991')).not.toBeNull();
  });

  it('a TSV or semicolon file given as CSV says how its columns are separated', async () => {
    await failsCleanly('questions-csv', [write('quora.csv', 'id\ttitle\tbody\n1\ta\tb\n')], {}, {
      line: 1,
      reason: /missing required column "id" .*: its columns are separated by tabs, and this format reads commas — save the file as CSV with commas$/,
    });
    await failsCleanly('labels-csv', [write('semi.csv', 'query_id;candidate_id;label\r\nq1;c1;1\r\n')], { pool: 'lp' }, { line: 1, reason: /its columns are separated by semicolons, and this format reads commas/ });
  });

  it('an XML file given a line format asks whether the format is right; a long header is cut short', async () => {
    // A SemEval file given as questions-jsonl or labels-csv: the XML hint stood only in the XML formats' own errors.
    const xml = '<?xml version="1.0" encoding="utf-8"?>\n<xml>\n<OrgQuestion ORGQ_ID="Q1">\n</OrgQuestion>\n</xml>\n';
    await failsCleanly('questions-jsonl', [write('semeval.xml', xml)], {}, {
      line: 1,
      reason: /^.*invalid JSON \(.*\): the file begins with “<” as XML does: is this the right format for this file\? \(XML files are semeval and stackexchange\)$/,
    });
    await failsCleanly('labels-csv', [write('semeval2.xml', xml)], { pool: 'lp' }, {
      line: 1,
      reason: /missing required column "query_id" .*: the file begins with “<” as XML does: is this the right format for this file\?/,
    });
    // An AskUbuntu dev.txt line as a CSV header: 61 ids and scores, cut short.
    const long = `421122\t${Array.from({ length: 60 }, (_, i) => 100000 + i).join(' ')}\n`;
    const e = await failsCleanly('questions-csv', [write('dev.txt', long)], {}, { line: 1, reason: /missing required column "id" \(the header has: 421122\t100000 100001 .*…; expected id, title, body\): its columns are separated by tabs/ });
    expect(e.message.length).toBeLessThan(500);
  });

  it('a header naming a column twice is an error when that column is read (the first was taken silently)', async () => {
    await failsCleanly('labels-csv', [write('dupcol.csv', 'query_id,Query_ID,candidate_id,label\nq1,q9,c1,1\n')], { pool: 'lp' }, { line: 1, reason: /the header names column "query_id" twice \(columns 1 and 2\): rename or remove one/ });
    await failsCleanly('questions-csv', [write('dupq.csv', 'id,title,body,title\nx1,A,B,C\n')], {}, { line: 1, reason: /column "title" twice \(columns 2 and 4\)/ });
    // A repeated column no importer reads is left alone.
    const r = await importFiles(ws, 'questions-csv', [write('dupx.csv', 'id,title,body,x,x\ndx1,A,B,1,2\n')]);
    expect(r.counts.questionsInserted).toBe(1);
  });

  it('duplicate ids within one questions file name both lines', async () => {
    await failsCleanly('questions-jsonl', [fx('questions-dup-ids.jsonl')], {}, { line: 5, reason: /duplicate question id "2" \(also on line 2\)/ });
    await failsCleanly('questions-csv', [write('d.csv', 'id,title,body\nx,1,2\ny,3,4\nx,5,6\n')], {}, { line: 4, reason: /duplicate question id "x" \(also on line 2\)/ });
    await failsCleanly('askubuntu-corpus', [write('d.txt', '1\ta\tb\n2\tc\td\n2\te\tf\n')], {}, { line: 3, reason: /duplicate question id "2" \(also on line 2\)/ });
    await failsCleanly('stackexchange', [fx('se-dup-Posts.xml')], {}, { line: 5, reason: /duplicate question id "20" \(also on line 3\)/ });
  });

  it('an id two files of one import give with different texts names both places (the last file won silently); the same text is fine', async () => {
    const a = write('two-a.jsonl', '{"id":"tw1","title":"first","body":"x"}\n{"id":"tw2","title":"same","body":"y"}\n');
    const b = write('two-b.jsonl', '{"id":"tw2","title":"same","body":"y"}\n{"id":"tw1","title":"second","body":"x"}\n');
    await failsCleanly('questions-jsonl', [a, b], { source: 'two' }, {
      line: 2,
      reason: new RegExp(`question tw1 has another title, body or field than ${a.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, line 1 gave it in this import`),
    });
    await failsCleanly('questions-csv', [write('two-a.csv', 'id,title,body\ntw1,first,x\n'), write('two-b.csv', 'id,title,body\ntw1,first,changed\n')], { source: 'two' }, { line: 2, reason: /question tw1 has another title, body or field than .*two-a\.csv, line 2 gave it/ });
    await failsCleanly('askubuntu-corpus', [write('two-a.txt', 'tw1\tfirst\tx\n'), write('two-b.txt', 'tw0\tz\tz\ntw1\tother\tx\n')], {}, { line: 2, reason: /question tw1 has another title, body or field than .*two-a\.txt, line 1 gave it/ });
    // The same question in both files (a file given twice, overlapping splits) is read once, as before.
    const r = await importFiles(ws, 'questions-jsonl', [a, write('two-c.jsonl', '{"id":"tw1","title":"first","body":"x"}\n'), a], { source: 'two' });
    expect(r.counts).toEqual({ questionsInserted: 2, questionsUnchanged: 3 });
  });

  it('invalid UTF-8 bytes name the line (line formats, CSV, XML, gzip)', async () => {
    const bad = Buffer.from([0x80, 0xfe]);
    const jsonl = write('u.jsonl', Buffer.concat([Buffer.from('{"id":"u1","title":"ok","body":"ok"}\n{"id":"u2","title":"ok"}\n{"id":"u3","title":"'), bad, Buffer.from('"}\n')]));
    await failsCleanly('questions-jsonl', [jsonl], {}, { line: 3, reason: /invalid UTF-8 \(byte 0x80 at byte 21 of the line\)/ });
    const csv = write('u.csv', Buffer.concat([Buffer.from('id,title,body\n1,"multi\nline",x\n2,'), bad, Buffer.from(',y\n')]));
    await failsCleanly('questions-csv', [csv], {}, { line: 4, reason: /invalid UTF-8/ });
    const xml = write('PostsBad.xml', Buffer.concat([Buffer.from('<posts>\n<row Id="1" PostTypeId="1" Title="a" Body="b"/>\n\n<row Id="2" PostTypeId="1" Title="'), bad, Buffer.from('" Body=""/>\n</posts>\n')]));
    await failsCleanly('stackexchange', [xml], {}, { line: 4, reason: /invalid UTF-8/ });
    const gz = write('u.txt.gz', gzipSync(Buffer.concat([Buffer.from('1\ta\tb\n2\tc\t'), bad, Buffer.from('\n')])));
    await failsCleanly('askubuntu-corpus', [gz], {}, { line: 2, reason: /invalid UTF-8/ });
  });

  it('tags that are not strings name the line (an object was stored as the tag "[object-Object]")', async () => {
    const f = write('tags.jsonl', '{"id":"t1","title":"a","body":"b","tags":["ok",7]}\n{"id":"t2","title":"a","body":"b","tags":["ok",{"name":"x"}]}\n');
    await failsCleanly('questions-jsonl', [f], {}, { line: 2, reason: /"tags" must hold strings, not \{"name":"x"\}/ });
    await failsCleanly('questions-jsonl', [write('tags2.jsonl', '{"id":"t3","title":"a","body":"b","tags":[null]}\n')], {}, { line: 1, reason: /"tags" must hold strings, not null/ });
  });

  it('a .gz that is not gzip data says so (it failed on "line 1" with "incorrect header check"); an empty .gz is an empty file', async () => {
    const f = write('plain.jsonl.gz', '{"id":"g1","title":"t","body":"b"}\n');
    await failsCleanly('questions-jsonl', [f], {}, { line: null, reason: /: is named \.gz but is not gzip data \(it lacks the gzip header; it may have been decompressed already: rename it without \.gz\)$/ });
    await failsCleanly('questions-jsonl', [write('empty.jsonl.gz', '')], {}, { line: null, reason: /: empty file$/ });
  });

  it('a folder or a pipe given as a file says what it is and what to do (it said only "not a file")', async () => {
    await failsCleanly('questions-jsonl', [dir], {}, { file: dir, line: null, reason: /: is a folder, not a file \(give the files in it; only the stackexchange format takes a folder\)$/ });
    const fifo = path.join(dir, 'pipe');
    spawnSync('mkfifo', [fifo]);
    if (existsSync(fifo)) {
      await failsCleanly('questions-jsonl', [fifo], {}, { file: fifo, line: null, reason: /: is a pipe or device, not a file: save the data to a file and import that/ });
    }
  });

  it('an empty file says so', async () => {
    await failsCleanly('questions-jsonl', [fx('empty.jsonl')], {}, { line: null, reason: /: empty file$/ });
    await failsCleanly('questions-csv', [fx('blank.csv')], {}, { line: null, reason: /: empty file: nothing but blank lines and white space$/ });
    await failsCleanly('semeval', [fx('empty.jsonl')], {}, { line: null, reason: /: empty file$/ });
    await failsCleanly('labels-csv', [fx('empty.jsonl')], { pool: 'new-pool' }, { line: null, reason: /: empty file$/ });
  });

  it('a bad label value names the line and the accepted values', async () => {
    await failsCleanly('labels-csv', [fx('labels-bad-value.csv')], { pool: 'new-pool' }, { line: 4, reason: /invalid label "maybe" for the binary scheme of pool "new-pool" \(expected 1, 0, or \?\)/ });
    await failsCleanly('qrels', [fx('qrels-bad.txt')], { pool: 'new-pool' }, { line: 2, reason: /relevance "relevant" is not an integer/ });
    await failsCleanly('qrels', [fx('qrels-good.txt')], { pool: 'lp' }, { line: 1, reason: /invalid label "2" for the binary scheme/ });
    await failsCleanly('semeval-relevancy', [fx('relevancy-bad.txt')], { pool: 'new-pool' }, { line: 2, reason: /relevance "maybe" is not true or false/ });
    await failsCleanly('semeval', [fx('semeval-bad-relevance.xml')], { update: true }, { line: 13, reason: /RELQ_RELEVANCE2ORGQ="SortOf" is not PerfectMatch, Relevant or Irrelevant/ });
    const j = write('bad.jsonl', '{"query_id":"q1","candidate_id":"c1","label":1}\n{"query_id":"q1","candidate_id":"c2","label":true}\n');
    await failsCleanly('labels-jsonl', [j], { pool: 'lp' }, { line: 2, reason: /label must be a string or a number/ });
  });

  it('a graded export re-imported into a new pool without a scheme names the schemes that have the label and says to give one', async () => {
    // A file whose first label made the new pool binary (a SemEval export's first label would make it semeval3), then PerfectMatch.
    const mixed = write('mixed-export.jsonl', '{"query_id":"q1","candidate_id":"c1","label":"0"}\n{"query_id":"q1","candidate_id":"c2","label":"PerfectMatch"}\n');
    await failsCleanly('labels-jsonl', [mixed], { pool: 'new-pool' }, {
      line: 2,
      reason: /invalid label "PerfectMatch" for the binary scheme of pool "new-pool" \(expected 1, 0, or \?\); pool "new-pool" is new and got the default binary scheme: give the scheme of the labels \(--scheme semeval3; an export's datasheet names its pool's\)$/,
    });
    // A Likert export's -2: two schemes have it.
    const c = write('likert-export.csv', 'query_id,candidate_id,label\nq1,c1,-2\n');
    await failsCleanly('labels-csv', [c], { pool: 'new-pool' }, { line: 2, reason: /give the scheme of the labels \(--scheme likert5 or graded;/ });
    // A scheme given, or a pool that exists: the plain refusal (the scheme is not the import's guess).
    const j = write('semeval-export.jsonl', '{"query_id":"q1","candidate_id":"c1","label":"Irrelevant"}\n{"query_id":"q1","candidate_id":"c2","label":"PerfectMatch"}\n');
    const given = await failsCleanly('labels-jsonl', [j], { pool: 'new-pool', scheme: 'likert5' }, { line: 1, reason: /invalid label "Irrelevant" for the likert5 scheme of pool "new-pool" \(expected -2, -1, 0, 1, 2, or \?\)$/ });
    expect(given.message).not.toMatch(/is new/);
  });

  it('contradictory labels for one pair name both lines', async () => {
    const f = write('c.csv', 'query_id,candidate_id,label\nq1,c1,1\nq1,c2,0\nq1,c1,0\n');
    await failsCleanly('labels-csv', [f], { pool: 'lp' }, { line: 4, reason: /contradicts line 2/ });
  });

  it('contradictory labels for one pair in two files of one import name both files (last-wins made each re-import append events)', async () => {
    const a = write('a.qrels', 'q1 0 c1 1\nq1 0 c2 0\n');
    const b = write('b.qrels', 'q1 0 c2 0\nq1 0 c1 0\n');
    await failsCleanly('qrels', [a, b], { pool: 'two-files' }, { line: 2, reason: new RegExp(`label "0" for q1 → c1 by gold contradicts ${a.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, line 1 \\("1"\\)`) });
    const x = write('x.csv', 'query_id,candidate_id,annotator,label\nq1,c1,ann,1\n');
    const y = write('y.csv', 'query_id,candidate_id,annotator,label\nq1,c1,ann,0\n');
    await failsCleanly('labels-csv', [x, y], { pool: 'lp' }, { line: 2, reason: /contradicts .*x\.csv, line 2/ });
    // The same value in both files is one label, counted as repeated.
    const r = await importFiles(ws, 'qrels', [a, write('a2.qrels', 'q1 0 c1 1\n')], { pool: 'two-files' });
    expect(r.counts.labels).toBe(2);
    expect(r.skipped.repeatedLabel).toBe(1);
  });

  it('a reserved annotator name (@aggregate) in a labels file names file and line', async () => {
    const f = write('agg.csv', 'query_id,candidate_id,annotator,label\nq1,c1,ann,1\nq1,c2,@aggregate,0\n');
    await failsCleanly('labels-csv', [f], { pool: 'lp' }, { line: 3, reason: /annotator names starting with "@" are reserved \("@aggregate"\)/ });
    const j = write('agg.jsonl', '{"query_id":"q1","candidate_id":"c1","annotator":"@x","label":1}\n');
    await failsCleanly('labels-jsonl', [j], { pool: 'lp' }, { line: 1, reason: /are reserved \("@x"\)/ });
  });

  it('labels naming a query the workspace lacks (a typo): a warning with the count, an error with --strict (they were taken silently)', async () => {
    const f = write('typo.csv', 'query_id,candidate_id,label\n101,102,1\n101x,102,0\n');
    await failsCleanly('labels-csv', [f], { pool: 'typo-pool', strict: true }, { line: 3, reason: /query "101x" is unknown: neither a query of pool "typo-pool" nor a question in the workspace \(--strict\)/ });
    const j = write('typo.jsonl', '{"query_id":"101x","candidate_id":"102","label":1}\n');
    await failsCleanly('labels-jsonl', [j], { pool: 'typo-pool', strict: true }, { line: 1, reason: /query "101x" is unknown/ });
    const r = await importFiles(ws, 'labels-csv', [f], { pool: 'typo-pool' });
    expect(r.counts.labels).toBe(2);
    expect(r.warnings).toEqual([`${f}: 1 of 2 query ids are unknown — neither queries of pool "typo-pool" nor questions in the workspace (e.g. "101x" on line 3); their labels were imported (--strict makes this an error)`]);
    // A gold export's text columns bring the question with them: not unknown.
    const g = write('gold.csv', 'query_id,candidate_id,label,query_title,query_body,candidate_title,candidate_body\nnewq,102,1,New,question,,\n');
    const rg = await importFiles(ws, 'labels-csv', [g], { pool: 'gold-pool' });
    expect(rg.warnings).toEqual([]);
  });

  it('labels for a pair outside an existing pool name the line', async () => {
    const f = write('out.csv', 'query_id,candidate_id,label\nq1,c1,1\nq1,zzz,1\n');
    await failsCleanly('labels-csv', [f], { pool: 'lp' }, { line: 3, reason: /pair q1 → zzz is not in pool "lp"/ });
    await failsCleanly('semeval-relevancy', [write('r.txt', 'T1\tT1_R1\t1\t1\ttrue\nT1\tT9\t2\t0.5\tfalse\n')], { pool: 'semeval-small' }, { line: 2, reason: /pair T1 → T9 is not in pool/ });
  });

  it('a run giving a document twice for a query in separate blocks of lines, or in two files, is an error (the later score silently won)', async () => {
    const split = write('split.run', 'q1 Q0 c1 1 3 bm\nq2 Q0 c4 1 1 bm\nq1 Q0 c1 1 5 bm\n');
    await failsCleanly('trec-run', [split], { pool: 'rp' }, { line: 3, reason: /document c1 appears twice for query q1 in run bm with another score \(the lines of query q1 from line 1 gave it already\)/ });
    const a = write('a.run', 'q1 Q0 c1 1 3 bm\n');
    const b = write('b.run', 'q1 Q0 c1 1 5 bm\n');
    await failsCleanly('trec-run', [a, b], { pool: 'rp' }, { line: 1, reason: new RegExp(`document c1 appears twice for query q1 in run bm with another score \\(the lines of query q1 from ${a.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, line 1 gave it already\\)`) });
    // Non-contiguous lines of a query with other documents are still fine (a warning).
    const ok = await importFiles(ws, 'trec-run', [write('ok.run', 'q1 Q0 c1 1 3 bm2\nq2 Q0 c4 1 1 bm2\nq1 Q0 c2 2 2 bm2\n')], { pool: 'rp' });
    expect(ok.counts.runScores).toBe(3);
    expect(ok.warnings).toEqual([expect.stringMatching(/the lines of query q1 are not contiguous/)]);
    // The same file twice: its entries again, with the same scores, change nothing.
    const twice = await importFiles(ws, 'trec-run', [a, a], { pool: 'rp' });
    expect(twice.counts.runScores).toBe(1);
    expect(twice.skipped.repeatedRunScore).toBe(1);
  });

  it("a run tagged with a model's run name is refused, not written over the model's scores (they were replaced, and the run still showed as the model's)", async () => {
    ws.replaceRun('rp', 'model-a', 'model', {}, [['q1', 'c1', 0.5]]);
    ws.replaceRun('rp', 'live-a', 'live', {}, [['q1', 'c1', 0.25]]);
    const m = write('m.run', 'q1 Q0 c1 1 3 model-a\n');
    await failsCleanly('trec-run', [m], { pool: 'rp' }, { line: 1, reason: /pool "rp" already has a run "model-a": the scores of model "model-a" .*, which an import does not replace\. Give the imported run another name \(a TREC run's tag, its 6th column\), or delete the model first \(qpairs models delete W model-a\)/ });
    await failsCleanly('trec-run', [write('l.run', 'q1 Q0 c1 1 3 live-a\n')], { pool: 'rp' }, { line: 1, reason: /already has a run "live-a": the live retraining's out-of-fold scores/ });
    const run = ws.listRuns('rp').find((r) => r.name === 'model-a')!;
    expect(run.kind).toBe('model');
    expect(ws.runScores(run.id).get('q1')!.get('c1')).toBe(0.5);
    // An imported run of that name is still replaced by a new import of it, as before.
    const again = await importFiles(ws, 'trec-run', [write('bm3.run', 'q1 Q0 c1 1 3 bm3\n')], { pool: 'rp' });
    expect(again.counts.runScores).toBe(1);
    expect((await importFiles(ws, 'trec-run', [write('bm3b.run', 'q1 Q0 c1 1 4 bm3\n')], { pool: 'rp' })).counts.runScoresChanged).toBe(1);
  });

  it('malformed run lines', async () => {
    await failsCleanly('trec-run', [fx('run-malformed.txt')], { pool: 'rp' }, { line: 3, reason: /score "high" is not a number/ });
    await failsCleanly('trec-run', [write('r1.txt', 'q1 Q0 c1 1 2 t\nq1 Q0 c2 2 1\n')], { pool: 'rp' }, { line: 2, reason: /expected 6 fields \(qid Q0 docno rank score tag\), found 5/ });
    await failsCleanly('trec-run', [write('r2.txt', 'q1 Q0 c1 1 2 t\nq1 Q0 c2 two 1 t\n')], { pool: 'rp' }, { line: 2, reason: /rank "two" is not an integer/ });
    await failsCleanly('trec-run', [write('r3.txt', 'q1 Q0 c1 1 2 t\nq1 Q0 c1 2 1 t\n')], { pool: 'rp' }, { line: 2, reason: /document c1 appears twice for query q1 in run t \(also on line 1\)/ });
    await failsCleanly('trec-run', [write('r4.txt', 'q1 Q0 c1 1 NaN t\n')], { pool: 'rp' }, { line: 1, reason: /score "NaN" is not a number \(NaN\); QPairs ranks by finite scores only/ });
    // Infinite scores are numbers to whoever wrote them ("-inf" for a filtered candidate): named as such, with what to do.
    await failsCleanly('trec-run', [write('r5.txt', 'q1 Q0 c1 1 2 t\nq1 Q0 c2 2 -inf t\n')], { pool: 'rp' }, {
      line: 2,
      reason: /: score "-inf" is infinite; QPairs ranks by finite scores only: leave the line out \(a candidate without a score ranks after the scored ones, in pool order\) or give it a finite score$/,
    });
    await failsCleanly('trec-run', [write('r6.txt', 'q1 Q0 c1 1 Infinity t\n')], { pool: 'rp' }, { line: 1, reason: /: score "Infinity" is infinite;/ });
    await failsCleanly('trec-run', [write('r7.txt', 'q1 Q0 c1 1 1e400 t\n')], { pool: 'rp' }, { line: 1, reason: /: score "1e400" is beyond the range of a double \(it reads as Infinity\);/ });
  });

  it('askubuntu files with wrong field counts', async () => {
    const e = await failsCleanly('askubuntu-pool', [fx('askubuntu-pool-bad-counts.txt')], {}, { line: 2, reason: /3 candidates but 2 scores/ });
    expect(e.details.reason).toBe('3 candidates but 2 scores');
    await failsCleanly('askubuntu-corpus', [fx('askubuntu-corpus-bad.txt')], {}, { line: 2, reason: /expected 3 tab-separated fields \(id, title, body\), found 4/ });
    await failsCleanly('askubuntu-pairs', [write('p.txt', '1\t2\t3\n4\t5\t6\t7\n')], {}, { line: 2, reason: /expected 3 tab-separated fields/ });
    await failsCleanly('askubuntu-pool', [write('dev.txt', '1\t2\t2 3\t1 x\n')], {}, { line: 1, reason: /score "x" is not a number$/ });
    await failsCleanly('askubuntu-pool', [write('dev2.txt', '1\t2\t2 3\t1 -Infinity\n')], {}, { line: 1, reason: /: score "-Infinity" is infinite;/ });
  });

  it('other syntax errors: JSON, CSV quotes, field counts, XML structure', async () => {
    await failsCleanly('questions-jsonl', [write('j.jsonl', '{"id":1,"title":"a"}\n{"id":2,"title":\n')], {}, { line: 2, reason: /invalid JSON/ });
    // JSON.parse's "(line 1 column 38)" counts within the line: said as the line's column, not a "line 1" against the file's line 3.
    const j = await failsCleanly('questions-jsonl', [write('c.jsonl', '{"id":"q1","title":"a","body":"b"}\n\n{"id":"q3","title":"Cut","body":"cut"\n')], {}, { line: 3, reason: /invalid JSON/ });
    expect(j.details.reason).toMatch(/^invalid JSON \(Expected ',' or '\}' after property value at column 38\)$/);
    await failsCleanly('questions-jsonl', [write('k.jsonl', '{"id":1,"title":"a"}\n[1,2]\n')], {}, { line: 2, reason: /expected a JSON object/ });
    await failsCleanly('questions-jsonl', [write('m.jsonl', '{"title":"a"}\n')], {}, { line: 1, reason: /missing id/ });
    await failsCleanly('questions-csv', [fx('questions-unterminated.csv')], {}, { line: 2, reason: /unterminated quoted field/ });
    await failsCleanly('questions-csv', [write('w.csv', 'id,title,body\n1,a,b\n2,a\n')], {}, { line: 3, reason: /expected 3 fields as in the header, found 2/ });
    await failsCleanly('semeval', [write('s.xml', '<root>\n<OrgQuestion>\n</OrgQuestion>\n</root>\n')], {}, { line: 2, reason: /OrgQuestion without ORGQ_ID/ });
    await failsCleanly('semeval', [write('n.xml', '<root>\n<Other/>\n</root>\n')], {}, { line: null, reason: /no OrgQuestion elements/ });
    await failsCleanly('stackexchange', [write('Users.xml', '<users>\n<row Id="1"/>\n</users>\n')], {}, { line: 1, reason: /root element <users> is neither <posts> nor <postlinks>/ });
    await failsCleanly('semeval', [write('t.xml', '<root>\n<a></b>\n</root>\n')], {}, { line: 2, reason: /malformed XML/ });
    const org = '<OrgQuestion ORGQ_ID="B1">\n<OrgQSubject>s</OrgQSubject>\n<Thread>\n<RelQuestion RELQ_ID="B1_R1" RELQ_RELEVANCE2ORGQ="Relevant"><RelQSubject>x</RelQSubject></RelQuestion>\n';
    await failsCleanly('semeval', [write('c1.xml', `<root>\n${org}<RelComment RELC_USERID="U1">\n<RelCText>hi</RelCText></RelComment>\n</Thread>\n</OrgQuestion>\n</root>\n`)], {}, { line: 6, reason: /RelComment without RELC_ID/ });
    await failsCleanly('semeval', [write('c2.xml', `<root>\n<OrgQuestion ORGQ_ID="B1">\n<Thread>\n<RelComment RELC_ID="C1">\n</RelComment></Thread></OrgQuestion>\n</root>\n`)], {}, { line: 4, reason: /RelComment outside a Thread with a RelQuestion/ });
    await failsCleanly('semeval', [write('c3.xml', `<root>\n${org}<RelCText>loose</RelCText>\n</Thread>\n</OrgQuestion>\n</root>\n`)], {}, { line: 6, reason: /<RelCText> out of place/ });
    await failsCleanly('stackexchange', [write('Posts.xml', '<posts>\n<row Id="1" PostTypeId="1" Title="t" Body="b"/>\n<row Id="2" PostTypeId="2" Body="a"/>\n</posts>\n')], {}, { line: 3, reason: /answer 2 without ParentId/ });
  });

  it('a bad second file rolls back the first one too', async () => {
    const good = write('good.jsonl', '{"id":"new1","title":"t","body":"b"}\n');
    await failsCleanly('questions-jsonl', [good, fx('questions-dup-ids.jsonl')], {}, { line: 5, reason: /duplicate question id/ });
    expect(ws.getQuestion('new1')).toBeNull();
  });
});
