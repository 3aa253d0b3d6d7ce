import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { runImport } from '../engine/work';
import { scratchWorkspaces } from '../workspace/scratch-workspaces';
import { buildExport, prepareExportWrite, writeExport } from './index';
import { useOneQueryPool } from './test-pool';
import { fmt, fmtCi } from '../cli/commands/common';
import { addAnnotator } from '../gold/store';

const pool = useOneQueryPool('qpairs-datasheet-counts-');
const scratch = scratchWorkspaces('qpairs-datasheet-files-');

describe("the datasheet's agreement counts take their noun's number", () => {
  it('a one-query pool: "in 1 query" (it said "in 1 queries")', () => {
    for (const [c, a, b] of [['c1', '1', '1'], ['c2', '0', '1'], ['c3', '0', '0']] as const) {
      pool.ws.addLabel({ pool: 'p', queryId: 'q', candidateId: c, annotator: 'alice', value: a, origin: 'test' });
      pool.ws.addLabel({ pool: 'p', queryId: 'q', candidateId: c, annotator: 'bob', value: b, origin: 'test' });
    }
    const sheet = buildExport(pool.ws, 'p', 'jsonl', 'p.jsonl', { bootstrap: 20 }).datasheet.content;
    expect(sheet).toContain('2 annotators (alice, bob), 3 labeled pairs in 1 query. ');
  });

  it('says how many "?" (unsure) labels the agreement statistics left out, as qpairs agreement and the Agreement screen do', () => {
    for (const [c, a, b] of [['c1', '1', '1'], ['c2', '0', '?'], ['c3', '?', '1']] as const) {
      pool.ws.addLabel({ pool: 'p', queryId: 'q', candidateId: c, annotator: 'alice', value: a, origin: 'test' });
      pool.ws.addLabel({ pool: 'p', queryId: 'q', candidateId: c, annotator: 'bob', value: b, origin: 'test' });
    }
    const sheet = buildExport(pool.ws, 'p', 'jsonl', 'p.jsonl', { bootstrap: 20 }).datasheet.content;
    expect(sheet).toContain('2 annotators (alice, bob), 3 labeled pairs in 1 query; 2 "?" (unsure) labels left out (a "?" counts as no label here). ');
    // The figures are those of the items both labeled decisively: c1 alone, agreed.
    expect(sheet).toMatch(/\| alice – bob \| 1 \| 1\.000 \|/);
    // Each annotator's current labels, "?" included, in the Annotators table as under Label distribution (alice said 1, 0 and ?:
    // the Annotators table said 2 where the per-annotator table's row read 1, 1, 1).
    expect(sheet).toMatch(/\| alice \| annotator \| annotator \| 3 \| 3 \|/);
    expect(sheet).toMatch(/\| bob \| annotator \| annotator \| 3 \| 3 \|/);
    expect(sheet).toContain('| alice | 1 | 1 | 1 |');
  });
});

describe("the datasheet's aggregation counts an outdated ruling", () => {
  it('a vote given after a ruling outdates it: the datasheet says so (the ruling left "settled by a judge" and nothing said where it went)', () => {
    addAnnotator(pool.ws, 'judy', 'judge');
    for (const [c, a, b] of [['c1', '1', '0'], ['c2', '1', '0'], ['c3', '0', '0']] as const) {
      pool.ws.addLabel({ pool: 'p', queryId: 'q', candidateId: c, annotator: 'alice', value: a, origin: 'test' });
      pool.ws.addLabel({ pool: 'p', queryId: 'q', candidateId: c, annotator: 'bob', value: b, origin: 'test' });
    }
    pool.ws.addLabel({ pool: 'p', queryId: 'q', candidateId: 'c1', annotator: 'judy', value: '1', origin: 'test' });
    pool.ws.addLabel({ pool: 'p', queryId: 'q', candidateId: 'c2', annotator: 'judy', value: '0', origin: 'test' });
    const before = buildExport(pool.ws, 'p', 'jsonl', 'p.jsonl', { bootstrap: 20 }).datasheet.content;
    expect(before).toContain('| settled by a judge | 2 |');
    expect(before).not.toContain('outdated');
    pool.ws.addLabel({ pool: 'p', queryId: 'q', candidateId: 'c1', annotator: 'bob', value: '?', origin: 'test' });
    const sheet = buildExport(pool.ws, 'p', 'jsonl', 'p.jsonl', { bootstrap: 20 }).datasheet.content;
    expect(sheet).toContain('| settled by a judge | 1 |');
    expect(sheet).toContain(
      '1 ruling is outdated: an annotator changed or added a vote after the judge ruled, so it does not count (not in "settled by a judge"); its pair waits in Review for a judge to rule again.',
    );
  });
});

describe("the datasheet's aggregation counts pairs resolved before all their annotators voted", () => {
  it('one vote of two reads "agreed" in the rows: the datasheet says how many labels rest on some of the votes (it said nothing)', () => {
    pool.ws.addLabel({ pool: 'p', queryId: 'q', candidateId: 'c1', annotator: 'alice', value: '1', origin: 'test' });
    pool.ws.addLabel({ pool: 'p', queryId: 'q', candidateId: 'c1', annotator: 'bob', value: '1', origin: 'test' });
    const done = buildExport(pool.ws, 'p', 'jsonl', 'p.jsonl', { bootstrap: 20 }).datasheet.content;
    expect(done).not.toContain('lack');
    pool.ws.addLabel({ pool: 'p', queryId: 'q', candidateId: 'c2', annotator: 'alice', value: '0', origin: 'test' });
    const sheet = buildExport(pool.ws, 'p', 'jsonl', 'p.jsonl', { bootstrap: 20 }).datasheet.content;
    expect(sheet).toContain('| agreed | 2 |');
    expect(sheet).toContain(
      '1 resolved pair lacks the votes of some of the annotators assigned to it (labeling not done): the rule takes the votes given so far, ' +
        'so "agreed" there means only that those votes agree — agreed 1; 1 pair has a single vote.',
    );
  });
});

describe("the datasheet's aggregation counts a ruling another judge overruled", () => {
  it("two judges ruled differently on a pair: the latest counts, and the datasheet says the pair holds another's (the row named one judge, with the other's reason among its notes, and no word)", () => {
    addAnnotator(pool.ws, 'judy', 'judge');
    addAnnotator(pool.ws, 'jack', 'judge');
    for (const [c, a, b] of [['c1', '1', '0'], ['c2', '1', '0']] as const) {
      pool.ws.addLabel({ pool: 'p', queryId: 'q', candidateId: c, annotator: 'alice', value: a, origin: 'test' });
      pool.ws.addLabel({ pool: 'p', queryId: 'q', candidateId: c, annotator: 'bob', value: b, origin: 'test' });
    }
    pool.ws.addLabel({ pool: 'p', queryId: 'q', candidateId: 'c1', annotator: 'judy', value: '1', origin: 'test' });
    pool.ws.addLabel({ pool: 'p', queryId: 'q', candidateId: 'c2', annotator: 'judy', value: '0', origin: 'test' });
    pool.ws.addLabel({ pool: 'p', queryId: 'q', candidateId: 'c2', annotator: 'jack', value: '0', origin: 'test' }); // the same ruling: nothing overruled
    const same = buildExport(pool.ws, 'p', 'jsonl', 'p.jsonl', { bootstrap: 20 }).datasheet.content;
    expect(same).not.toContain('overruled');
    pool.ws.addLabel({ pool: 'p', queryId: 'q', candidateId: 'c1', annotator: 'jack', value: '0', origin: 'test' });
    const built = buildExport(pool.ws, 'p', 'jsonl', 'p.jsonl', { bootstrap: 20 });
    expect(JSON.parse(built.files[0]!.content.split('\n')[0]!)).toMatchObject({ candidate_id: 'c1', label: '0', status: 'adjudicated', judge: { annotator: 'jack', label: '0' } });
    expect(built.datasheet.content).toContain('| settled by a judge | 2 |');
    expect(built.datasheet.content).toContain(
      "1 settled pair holds another judge's different ruling, given before the one that counts: the latest ruling settles a pair (the rows' judge), and the overruled judge's reason, if any, is among the pair's notes.",
    );
  });
});

describe("the datasheet's aggregation tells an outdated ruling on a pair still in dispute from one on a pair the votes now agree on", () => {
  it('a vote that ends the dispute: the ruling does not count and the pair is agreed — not "waits in Review", where it is not', () => {
    addAnnotator(pool.ws, 'judy', 'judge');
    pool.ws.addLabel({ pool: 'p', queryId: 'q', candidateId: 'c1', annotator: 'alice', value: '1', origin: 'test' });
    pool.ws.addLabel({ pool: 'p', queryId: 'q', candidateId: 'c1', annotator: 'bob', value: '0', origin: 'test' });
    pool.ws.addLabel({ pool: 'p', queryId: 'q', candidateId: 'c1', annotator: 'judy', value: '0', origin: 'test' });
    pool.ws.addLabel({ pool: 'p', queryId: 'q', candidateId: 'c1', annotator: 'bob', value: '1', origin: 'test' });
    const built = buildExport(pool.ws, 'p', 'jsonl', 'p.jsonl', { bootstrap: 20 });
    expect(JSON.parse(built.files[0]!.content.split('\n')[0]!)).toMatchObject({ candidate_id: 'c1', label: '1', status: 'agreed', judge: null });
    const sheet = built.datasheet.content;
    expect(sheet).not.toContain('waits in Review');
    expect(sheet).toContain(
      '1 ruling is on a pair no longer in dispute: an annotator changed a vote after the judge ruled and the votes now agree, so the agreed label counts, not the ruling (not in "settled by a judge").',
    );
  });
});

describe("the datasheet's commands name the exported pool", () => {
  it('the convention command names the pool as the re-import command does (it said --pool P whatever the pool)', () => {
    pool.ws.createPool({ name: 'dev set', scheme: 'binary', convention: 'skip' });
    pool.ws.addPoolQuery('dev set', 'q', ['c1', 'c2']);
    pool.ws.addLabel({ pool: 'dev set', queryId: 'q', candidateId: 'c1', annotator: 'gold', value: '1', origin: 'test' });
    const sheet = buildExport(pool.ws, 'dev set', 'qrels', 'd.qrels').datasheet.content;
    expect(sheet).toContain("Re-import: `qpairs import W --format qrels --pool 'dev set' --scheme binary d.qrels`");
    expect(sheet).toContain("after a re-import into a new pool, `qpairs pool set W --pool 'dev set' --convention skip` gives the same metrics");
    expect(sheet).not.toContain('--pool P ');
  });
});

describe('a statistic that is 0 up to rounding reads 0.000, as in the app', () => {
  it("chance agreement: Cohen's kappa (-5.6e-17 in floating point) is not written -0.000 in the datasheet nor by qpairs agreement", () => {
    pool.ws.createPool({ name: 's', scheme: 'semeval3' });
    pool.ws.addPoolQuery('s', 'q', ['c1', 'c2', 'c3']);
    // Observed agreement 1/3 = expected agreement 1/3: kappa is 0.
    for (const [c, a, b] of [['c1', 'PerfectMatch', 'Relevant'], ['c2', 'Irrelevant', 'Irrelevant'], ['c3', 'Relevant', 'Irrelevant']] as const) {
      pool.ws.addLabel({ pool: 's', queryId: 'q', candidateId: c, annotator: 'alice', value: a, origin: 'test' });
      pool.ws.addLabel({ pool: 's', queryId: 'q', candidateId: c, annotator: 'bob', value: b, origin: 'test' });
    }
    const b = buildExport(pool.ws, 's', 'jsonl', 's.jsonl', { bootstrap: 20 });
    const kappa = b.datasheetAgreement.agreement!.pairs[0]!.cohenKappa;
    expect(kappa.value).not.toBeNull();
    expect(Math.abs(kappa.value!)).toBeLessThan(1e-12);
    const sheet = b.datasheet.content;
    expect(sheet).toMatch(/\| alice – bob \| 3 \| 0\.333 \| 0\.000 \|/);
    expect(sheet).not.toContain('-0.000');
    expect(fmt(kappa)).toBe('0.000');
    expect(fmtCi({ value: [-1e-17, 0.5] })).toBe('[0.000, 0.500]');
  });
});

describe('a run given to a format that uses none', () => {
  it('is refused, naming the formats that use one (jsonl --run R was ignored while the CLI and the datasheet said "run R")', () => {
    pool.ws.replaceRun('p', 'rev', 'import', {}, [['q', 'c3', 3], ['q', 'c2', 2], ['q', 'c1', 1]]);
    pool.ws.addLabel({ pool: 'p', queryId: 'q', candidateId: 'c1', annotator: 'gold', value: '1', origin: 'test' });
    for (const format of ['jsonl', 'csv', 'qrels', 'hf-dataset'] as const) {
      const refusal = `the ${format} export uses no run: a run (--run) applies to askubuntu, semeval-relevancy, trec-run only`;
      expect(() => buildExport(pool.ws, 'p', format, 'out', { run: 'rev' })).toThrow(refusal);
      // Before anything is read or rendered (writeExport's first half), as a bad target is.
      expect(() => prepareExportWrite(pool.ws, format, path.join('/nonexistent-folder', 'out'), { run: 'rev' })).toThrow(refusal);
    }
    // The formats that use one take it, and the datasheet names it.
    for (const format of ['askubuntu', 'semeval-relevancy', 'trec-run'] as const) {
      const b = buildExport(pool.ws, 'p', format, 'out.txt', { run: 'rev' });
      expect(b.run).toBe('rev');
      expect(b.datasheet.content).toContain('Run: **rev**.');
    }
  });
});

describe('what a semeval-relevancy export drops', () => {
  it("a graded pool's grades: the datasheet says they come back as 1 and 0 (likert 2 came back 1, -1 came back 0, unsaid)", () => {
    pool.ws.createPool({ name: 'k', scheme: 'likert5' });
    pool.ws.addPoolQuery('k', 'q', ['c1', 'c2']);
    pool.ws.replaceRun('k', 'bm25', 'retriever', {}, [['q', 'c1', 2], ['q', 'c2', 1]]);
    pool.ws.addLabel({ pool: 'k', queryId: 'q', candidateId: 'c1', annotator: 'gold', value: '2', origin: 'test' });
    pool.ws.addLabel({ pool: 'k', queryId: 'q', candidateId: 'c2', annotator: 'gold', value: '-1', origin: 'test' });
    const b = buildExport(pool.ws, 'k', 'semeval-relevancy', 'k.relevancy');
    expect(b.files[0]!.content).toBe('q\tc1\t1\t2\ttrue\nq\tc2\t2\t1\tfalse\n');
    expect(b.datasheet.content).toContain('What the re-import drops: the grades — the format says only true or false: the likert5 labels of grade 1 or more come back as grade 1, the others as grade 0');
    // A binary pool loses nothing there.
    pool.ws.replaceRun('p', 'bm25', 'retriever', {}, [['q', 'c1', 1]]);
    pool.ws.addLabel({ pool: 'p', queryId: 'q', candidateId: 'c1', annotator: 'gold', value: '1', origin: 'test' });
    expect(buildExport(pool.ws, 'p', 'semeval-relevancy', 'p.relevancy').datasheet.content).not.toContain('the grades');
  });
});

describe('an askubuntu export whose queries list different numbers of candidates', () => {
  it('says that askubuntu-pool refuses it and what to re-import instead (the export wrote it unsaid; its re-import failed)', async () => {
    pool.ws.upsertQuestion({ id: 'q2', source: 's', title: 'q2', body: 'q2' });
    pool.ws.addPoolQuery('p', 'q2', ['c1', 'c2']);
    pool.ws.replaceRun('p', 'bm25', 'retriever', {}, [['q', 'c1', 3], ['q', 'c2', 2], ['q', 'c3', 1], ['q2', 'c1', 2], ['q2', 'c2', 1]]);
    for (const [q, c] of [['q', 'c1'], ['q2', 'c2']] as const) pool.ws.addLabel({ pool: 'p', queryId: q, candidateId: c, annotator: 'gold', value: '1', origin: 'test' });
    const out = path.join(scratch.dir, 'dev.txt');
    const b = writeExport(pool.ws, 'p', 'askubuntu', out, { text: false });
    const note = 'the queries list from 2 to 3 candidates: `qpairs import --format askubuntu-pool` refuses such a file';
    expect(b.warnings.some((w) => w.startsWith(note))).toBe(true);
    expect(b.datasheet.content).toContain(note);
    // What the note says holds: the file is refused.
    await expect(runImport(scratch.fresh('back'), 'askubuntu-pool', [out], { pool: 'p' })).rejects.toThrow(/every line of the file must list the same number of BM25 candidates/);
    // Equal lists: no note.
    pool.ws.addPoolQuery('p', 'q2', ['c3']);
    pool.ws.replaceRun('p', 'bm25', 'retriever', {}, [['q', 'c1', 3], ['q', 'c2', 2], ['q', 'c3', 1], ['q2', 'c1', 3], ['q2', 'c2', 2], ['q2', 'c3', 1]]);
    expect(buildExport(pool.ws, 'p', 'askubuntu', 'x.txt', { text: false }).warnings.join('\n')).not.toContain('askubuntu-pool');
  });
});

describe('counts of one in export notes and datasheets take the singular (they said "1 pairs", "1 candidates")', () => {
  it('one unlabeled pair, one unscored candidate, one score, one label', () => {
    pool.ws.addLabel({ pool: 'p', queryId: 'q', candidateId: 'c1', annotator: 'ann', value: '1', origin: 'test' });
    pool.ws.addLabel({ pool: 'p', queryId: 'q', candidateId: 'c2', annotator: 'ann', value: '0', origin: 'test' });
    pool.ws.replaceRun('p', 'one', 'retriever', {}, [['q', 'c1', 1]]);
    const jsonl = buildExport(pool.ws, 'p', 'jsonl', 'p.jsonl', { annotator: 'ann' });
    expect(jsonl.warnings).toContain('1 pair has no decisive label from ann and is written with label "?" (unjudged)');
    expect(jsonl.datasheet.content).toContain('| runs | one (retriever, 1 score) |');
    const qrels = buildExport(pool.ws, 'p', 'semeval-relevancy', 'p.relevancy', { annotator: 'ann' });
    expect(qrels.warnings).toContain('1 pair without a label from ann was left out');
    expect(qrels.datasheet.content).toContain("1 of the pool's 3 pairs has no decisive label and is left out");
    const au = buildExport(pool.ws, 'p', 'askubuntu', 'p.txt', { annotator: 'ann', text: false });
    expect(au.warnings).toContain('2 candidates without a score in run one were left out (the format needs a score per candidate)');
    pool.ws.replaceRun('p', 'one', 'retriever', {}, [['q', 'c1', 3], ['q', 'c2', 2]]);
    const au2 = buildExport(pool.ws, 'p', 'askubuntu', 'p.txt', { annotator: 'ann', text: false });
    expect(au2.warnings).toContain('1 candidate without a score in run one was left out (the format needs a score per candidate)');
    pool.ws.createPool({ name: 'solo', scheme: 'binary' });
    pool.ws.addPoolQuery('solo', 'q', ['c1']);
    pool.ws.addLabel({ pool: 'solo', queryId: 'q', candidateId: 'c1', annotator: 'ann', value: '1', origin: 'test' });
    expect(buildExport(pool.ws, 'solo', 'jsonl', 's.jsonl').datasheet.content).toContain('1 exported label over 1 query; ');
  });
});

describe("the datasheet's re-import command can be copied as it is", () => {
  it('the remark on the runs is outside the command (it was "… FILE (then the runs: --format trec-run)" between the backquotes)', () => {
    pool.ws.addLabel({ pool: 'p', queryId: 'q', candidateId: 'c1', annotator: 'gold', value: '1', origin: 'test' });
    const reimportLine = (format: 'jsonl' | 'csv' | 'qrels' | 'hf-dataset' | 'semeval-relevancy'): string =>
      buildExport(pool.ws, 'p', format, 'out').datasheet.content.split('\n').find((l) => l.includes('Re-import: '))!.replace(/^.*Re-import: /, '');
    expect(reimportLine('jsonl')).toBe('`qpairs import W --format labels-jsonl --pool p --scheme binary out`.');
    pool.ws.replaceRun('p', 'bm25', 'retriever', {}, [['q', 'c1', 1]]);
    expect(reimportLine('jsonl')).toBe('`qpairs import W --format labels-jsonl --pool p --scheme binary out`, then the runs: `qpairs import W --format trec-run --pool p RUNFILE…`.');
    expect(reimportLine('csv')).toBe('`qpairs import W --format labels-csv --pool p --scheme binary out`, then the runs: `qpairs import W --format trec-run --pool p RUNFILE…`.');
    expect(reimportLine('qrels')).toBe('`qpairs import W --format qrels --pool p --scheme binary out`, then the runs: `qpairs import W --format trec-run --pool p RUNFILE…`.');
    expect(reimportLine('hf-dataset')).toBe('`qpairs import W --format labels-jsonl --pool p --scheme binary out/data/pairs.jsonl`, then the runs: `qpairs import W --format trec-run --pool p RUNFILE…`.');
    expect(reimportLine('semeval-relevancy')).toBe(
      '`qpairs import W --format semeval-relevancy --pool p --scheme binary out`, the rank and score columns are not read back; the runs come with `qpairs import W --format trec-run --pool p RUNFILE…`.',
    );
    // Every command between backquotes parses as one: no parenthesis or remark inside.
    for (const f of ['jsonl', 'csv', 'qrels', 'hf-dataset', 'semeval-relevancy'] as const) {
      for (const cmd of reimportLine(f).match(/`[^`]*`/g)!) expect(cmd).toMatch(/^`qpairs import W --format [a-z-]+ --pool p( --scheme binary)? (out|RUNFILE…|out\/data\/pairs\.jsonl)`$/);
    }
  });

  it("hf-dataset's command names the folder written (it said OUT/data/pairs.jsonl), by its name only: no folder above it, as the files table", () => {
    pool.ws.addLabel({ pool: 'p', queryId: 'q', candidateId: 'c1', annotator: 'gold', value: '1', origin: 'test' });
    const command = (out: string): string => buildExport(pool.ws, 'p', 'hf-dataset', out).datasheet.content.match(/Re-import: `([^`]*)`/)![1]!;
    const deep = path.join(scratch.dir, 'server-side', 'gold v2');
    expect(command(deep)).toBe("qpairs import W --format labels-jsonl --pool p --scheme binary 'gold v2/data/pairs.jsonl'");
    expect(command(`${path.join(scratch.dir, 'hf')}${path.sep}`)).toBe('qpairs import W --format labels-jsonl --pool p --scheme binary hf/data/pairs.jsonl');
    const written = writeExport(pool.ws, 'p', 'hf-dataset', deep);
    expect(written.datasheet.content).toContain("Re-import: `qpairs import W --format labels-jsonl --pool p --scheme binary 'gold v2/data/pairs.jsonl'`");
    expect(written.datasheet.content).not.toContain(scratch.dir);
  });

  it('every format\'s command names the files written (it said FILE), shell-quoted, by their names only: trec-run one file per run', () => {
    pool.ws.addLabel({ pool: 'p', queryId: 'q', candidateId: 'c1', annotator: 'gold', value: '1', origin: 'test' });
    const command = (format: 'jsonl' | 'csv' | 'qrels' | 'semeval-relevancy' | 'trec-run' | 'askubuntu', out: string): string =>
      buildExport(pool.ws, 'p', format, out, { text: false }).datasheet.content.match(/Re-import: `([^`]*)`/)![1]!;
    const deep = path.join(scratch.dir, 'server-side');
    expect(command('jsonl', path.join(deep, "gold v2's.jsonl"))).toBe("qpairs import W --format labels-jsonl --pool p --scheme binary 'gold v2'\\''s.jsonl'");
    expect(command('csv', path.join(deep, 'g.csv'))).toBe('qpairs import W --format labels-csv --pool p --scheme binary g.csv');
    expect(command('qrels', path.join(deep, 'g.qrels'))).toBe('qpairs import W --format qrels --pool p --scheme binary g.qrels');
    expect(command('semeval-relevancy', path.join(deep, 'g.relevancy'))).toBe('qpairs import W --format semeval-relevancy --pool p --scheme binary g.relevancy');
    pool.ws.replaceRun('p', 'bm25', 'retriever', {}, [['q', 'c1', 1]]);
    expect(command('askubuntu', path.join(deep, 'g au.txt'))).toBe("qpairs import W --format askubuntu-pool --pool p 'g au.txt'");
    expect(command('trec-run', path.join(deep, 'g.run'))).toBe('qpairs import W --format trec-run --pool p g.run');
    pool.ws.replaceRun('p', 'other', 'retriever', {}, [['q', 'c1', 2]]);
    expect(command('trec-run', path.join(deep, 'g.run'))).toBe('qpairs import W --format trec-run --pool p g.bm25.run g.other.run');
  });
});

describe("the datasheet's tables", () => {
  it('name every column: the pool-construction and aggregation tables had empty header cells (a screen reader reads the header to name each cell)', () => {
    for (const [c, a, b] of [['c1', '1', '1'], ['c2', '0', '1']] as const) {
      pool.ws.addLabel({ pool: 'p', queryId: 'q', candidateId: c, annotator: 'alice', value: a, origin: 'test' });
      pool.ws.addLabel({ pool: 'p', queryId: 'q', candidateId: c, annotator: 'bob', value: b, origin: 'test' });
    }
    const sheet = buildExport(pool.ws, 'p', 'jsonl', 'p.jsonl', { bootstrap: 20 }).datasheet.content;
    const lines = sheet.split('\n');
    const headers = lines.filter((l, i) => l.startsWith('|') && /^\|(-+\|)+$/.test(lines[i + 1] ?? '') && !(lines[i - 1] ?? '').startsWith('|'));
    expect(headers.length).toBeGreaterThanOrEqual(2);
    for (const h of headers) expect(h.split('|').slice(1, -1).map((c) => c.trim()), h).not.toContain('');
  });
});
