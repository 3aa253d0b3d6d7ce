import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGGREGATE } from '../../shared/gold';
import { labelGrade, type LabelScheme } from '../../shared/labels';
import { evaluatePool } from '../engine/evaluate';
import { runImport } from '../engine/work';
import { addAnnotator, assignPool, sourceLabels } from '../gold';
import { scratchWorkspaces } from '../workspace/scratch-workspaces';
import { Workspace } from '../workspace/workspace';
import { dataset, datasetText } from '../../../tests/datasets';
import { buildExport, csvField, formatScore, prepareExportWrite, writeExport } from '.';

const scratch = scratchWorkspaces('qpairs-export-');
const { fresh } = scratch;

const DEV = dataset('askubuntu/dev.txt');

/** Every pair's grade from a source (undefined = unjudged), in pool order. */
function grades(ws: Workspace, pool: string, source: string): Array<[string, string, number | null]> {
  const src = sourceLabels(ws, pool, source);
  return ws.poolQueries(pool).flatMap((q) => q.candidates.map((c): [string, string, number | null] => [q.queryId, c, labelGrade(src.values.get(q.queryId)?.get(c))]));
}

/** eval under both conventions, both tie rules, fully labeled queries only and with partial ones. */
function metrics(ws: Workspace, pool: string, annotator?: string): unknown {
  const out: Record<string, unknown> = {};
  for (const convention of ['skip', 'zero'] as const) {
    for (const ties of ['pool-order', 'trec-eval'] as const) {
      for (const partial of [false, true]) {
        const ev = evaluatePool(ws, { pool, annotator, convention, ties, threshold: 1, partial });
        out[`${convention}/${ties}/${partial ? 'partial' : 'full'}`] = { runs: ev.runs, labeledQueries: ev.labeledQueries, partiallyLabeled: ev.partiallyLabeledQueries };
      }
    }
  }
  return out;
}

async function devWorkspace(): Promise<Workspace> {
  const ws = fresh('dev');
  await runImport(ws, 'askubuntu-pool', [DEV]);
  // A second run with distinct scores, and ties unlike the pool order, to test run round trips.
  const lucene = ws.listRuns('dev')[0]!;
  const rev = ws.ensureRun('dev', 'reversed', 'test');
  ws.transaction(() => {
    for (const [q, m] of ws.runScores(lucene.id)) for (const [c, s] of m) ws.setRunScore(rev, q, c, -Math.round(s));
  });
  return ws;
}

describe('askubuntu export', () => {
  it('gives back dev.txt byte for byte (run bm25-lucene), and re-imports to the same labels and metrics', async () => {
    const ws = await devWorkspace();
    const out = path.join(scratch.dir, 'dev-export.txt');
    const b = writeExport(ws, 'dev', 'askubuntu', out, { run: 'bm25-lucene' });
    expect(b.source).toBe('gold');
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(DEV, 'utf8'));
    expect(readFileSync(out, 'utf8').split('\n').filter(Boolean)).toHaveLength(200);
    // Scores print as the shortest decimal that reads back as the stored double, which is exactly
    // the text of every Lucene score in the file.
    for (const line of readFileSync(DEV, 'utf8').split('\n').filter(Boolean)) {
      for (const t of line.split('\t')[3]!.split(' ')) expect(formatScore(Number(t))).toBe(t);
    }
    const sheet = readFileSync(`${out}.datasheet.md`, 'utf8');
    expect(sheet).toMatch(/## Source corpus/);
    expect(sheet).toMatch(/BM25 top 20 \(Lei et al\. 2016\)/);
    expect(sheet).toMatch(/## Agreement\n\nNot applicable/);
    expect(sheet).toContain('No aggregation: the exported labels are the imported gold labels (annotator **gold**), as given.');

    const back = fresh('back');
    await runImport(back, 'askubuntu-pool', [out], { pool: 'dev' });
    expect(grades(back, 'dev', 'gold')).toEqual(grades(ws, 'dev', 'gold'));
    const m = metrics(back, 'dev') as Record<string, { runs: Record<string, { MAP: number }> }>;
    const orig = metrics(ws, 'dev') as Record<string, { runs: Record<string, unknown> }>;
    for (const k of Object.keys(orig)) expect(m[k]!.runs['bm25-lucene']).toEqual(orig[k]!.runs['bm25-lucene']);
    expect((100 * m['skip/pool-order/partial']!.runs['bm25-lucene']!.MAP).toFixed(2)).toBe('52.03');
    // The convention is the pool's, not the files': the datasheet names it and how to set it after a re-import.
    expect(readFileSync(`${out}.datasheet.md`, 'utf8')).toMatch(/Evaluation convention of this pool: \*\*skip\*\*.*qpairs pool set W --pool dev --convention skip/);

    // Another run: candidates come out in that run's order.
    const r = buildExport(ws, 'dev', 'askubuntu', 'x.txt', { run: 'reversed' });
    const first = r.files[0]!.content.split('\n')[0]!.split('\t');
    expect(first[3]!.split(' ').map(Number)).toEqual([...first[3]!.split(' ').map(Number)].sort((a, b) => b - a));
  });
});

describe('round trips: export, import into a fresh workspace, same labels and metrics', () => {
  it('qrels + trec-run, jsonl, csv and semeval-relevancy on the AskUbuntu pool', async () => {
    const ws = await devWorkspace();
    const runFile = path.join(scratch.dir, 'dev.run');
    const runs = writeExport(ws, 'dev', 'trec-run', runFile);
    expect(runs.files.map((f) => path.basename(f.name))).toEqual(['dev.bm25-lucene.run', 'dev.reversed.run']);
    expect(runs.files[0]!.content.split('\n')[0]).toBe('421122 Q0 502523 1 136.66412 bm25-lucene');
    const runPaths = runs.files.map((f) => f.name);
    const want = { labels: grades(ws, 'dev', 'gold'), metrics: metrics(ws, 'dev') };

    const cases: Array<{ format: 'qrels' | 'jsonl' | 'csv' | 'semeval-relevancy'; importAs: string; scheme?: LabelScheme }> = [
      { format: 'qrels', importAs: 'qrels' },
      { format: 'jsonl', importAs: 'labels-jsonl', scheme: 'binary' },
      { format: 'csv', importAs: 'labels-csv', scheme: 'binary' },
      { format: 'semeval-relevancy', importAs: 'semeval-relevancy' },
    ];
    for (const c of cases) {
      const out = path.join(scratch.dir, `dev.${c.format}`);
      writeExport(ws, 'dev', c.format, out, { run: c.format === 'semeval-relevancy' ? 'bm25-lucene' : undefined });
      expect(existsSync(`${out}.datasheet.md`), c.format).toBe(true);
      const back = fresh(`back-${c.format}`);
      await runImport(back, c.importAs as never, [out], { pool: 'dev', scheme: c.scheme });
      await runImport(back, 'trec-run', runPaths, { pool: 'dev' });
      expect(back.poolQueries('dev'), c.format).toEqual(ws.poolQueries('dev'));
      expect({ labels: grades(back, 'dev', 'gold'), metrics: metrics(back, 'dev') }, c.format).toEqual(want);
    }
    // No temporary files are left behind.
    expect(readdirSync(scratch.dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('jsonl and csv of an aggregate with unresolved pairs, on a Likert pool', async () => {
    const ws = fresh('lk');
    ws.createPool({ name: 'lk', scheme: 'likert5', guidelines: 'Is it the same question?\nUse +2 for duplicates.' });
    ws.addPoolQuery('lk', 'q1', ['a', 'b', 'c', 'd']);
    ws.addPoolQuery('lk', 'q2', ['e', 'f', 'g']);
    const r = ws.ensureRun('lk', 'bm25', 'retriever');
    const sc: Record<string, number> = { a: 1.5, b: 3, c: 3, d: 0.25, e: 2, f: 1e-7, g: 7 };
    for (const [c, s] of Object.entries(sc)) ws.setRunScore(r, c < 'e' ? 'q1' : 'q2', c, s);
    assignPool(ws, 'lk', ['x', 'y'], null);
    addAnnotator(ws, 'judy', 'judge');
    const put = (q: string, c: string, a: string, v: string): void => void ws.addLabel({ pool: 'lk', queryId: q, candidateId: c, annotator: a, value: v, origin: 't' });
    put('q1', 'a', 'x', '2');
    put('q1', 'a', 'y', '2');
    put('q1', 'b', 'x', '-1');
    put('q1', 'b', 'y', '1'); // disagreement, unresolved
    put('q1', 'c', 'x', '0');
    put('q1', 'c', 'y', '1');
    put('q1', 'c', 'judy', '1'); // settled
    put('q2', 'e', 'x', '?'); // unsure only
    put('q2', 'f', 'x', '-2');
    put('q2', 'g', 'y', '2');
    // The re-import holds the aggregate as gold: the same figures, and the same reasons under that name.
    const asGold = (x: unknown): unknown => JSON.parse(JSON.stringify(x).replaceAll('by @aggregate', 'by gold'));
    const want = { labels: grades(ws, 'lk', AGGREGATE), metrics: asGold(metrics(ws, 'lk')) };
    expect((metrics(ws, 'lk') as Record<string, { runs: object }>)['skip/pool-order/partial']!.runs).toHaveProperty('bm25');
    writeExport(ws, 'lk', 'trec-run', path.join(scratch.dir, 'lk.run'));
    for (const [format, importAs] of [
      ['jsonl', 'labels-jsonl'],
      ['csv', 'labels-csv'],
    ] as const) {
      const out = path.join(scratch.dir, `lk.${format}`);
      const b = writeExport(ws, 'lk', format, out);
      expect(b.source).toBe(AGGREGATE);
      expect(b.warnings.join()).toMatch(/3 pairs have no decisive label from @aggregate and are written/);
      // The datasheet's re-import names this pool and its scheme (without --scheme the Likert labels are refused).
      expect(b.datasheet.content).toContain(`Re-import: \`qpairs import W --format ${importAs} --pool lk --scheme likert5 lk.${format}\``);
      // judy ruled in this pool: the datasheet says her role does not travel, and how to give it back.
      expect(b.datasheet.content).toContain('`qpairs annotators role W NAME judge` for judy gives back the same aggregation and agreement');
      const back = fresh(`lk-${format}`);
      await runImport(back, importAs, [out], { pool: 'lk', scheme: 'likert5' });
      await runImport(back, 'trec-run', [path.join(scratch.dir, 'lk.run')], { pool: 'lk' });
      expect(back.poolQueries('lk')).toEqual(ws.poolQueries('lk'));
      expect({ labels: grades(back, 'lk', 'gold'), metrics: metrics(back, 'lk') }, format).toEqual(want);
      // The votes do not come back (only gold labels): the datasheet says so, and how to carry them.
      expect(sourceLabels(back, 'lk', 'x').values.size).toBe(0);
      expect(b.datasheet.content).toContain('What the re-import drops: the votes and judge columns are not read back');
      expect(b.datasheet.content).toContain("export each person's labels too (`--annotator NAME`, one file each: x, y, judy)");
      // One annotator's export carries no votes: nothing to say there.
      expect(buildExport(ws, 'lk', format, `x.${format}`, { annotator: 'x' }).datasheet.content).not.toContain('What the re-import drops');
    }
    const jl = readFileSync(path.join(scratch.dir, 'lk.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    // No question text in this workspace: the text fields are null (ids only).
    const noText = { query_title: null, query_body: null, candidate_title: null, candidate_body: null, query_source: null, candidate_source: null };
    expect(jl[1]).toEqual({ query_id: 'q1', candidate_id: 'b', annotator: 'gold', label: '?', grade: null, relevant: null, status: 'unresolved', votes: { x: '-1', y: '1' }, judge: null, ...noText });
    // Unsure is first-class: x's "?" alone leaves the pair unresolved (not unlabeled), listed in votes.
    expect(jl[4]).toMatchObject({ query_id: 'q2', candidate_id: 'e', label: '?', status: 'unresolved', votes: { x: '?' } });
    expect(jl[2]).toMatchObject({ label: '1', status: 'adjudicated', judge: { annotator: 'judy', label: '1' } });
    const csv = readFileSync(path.join(scratch.dir, 'lk.csv'), 'utf8').split('\n');
    expect(csv[0]).toBe('query_id,candidate_id,annotator,label,grade,relevant,status,votes,query_title,query_body,candidate_title,candidate_body,query_source,candidate_source');
    expect(csv[1]).toBe('q1,a,gold,2,2,1,agreed,x=2;y=2,,,,,,');
    expect(csvField('a,"b"')).toBe('"a,""b"""');
    // The datasheet: guidelines, agreement with CIs, the rule and its counts.
    const sheet = readFileSync(path.join(scratch.dir, 'lk.csv.datasheet.md'), 'utf8');
    expect(sheet).toMatch(/> Use \+2 for duplicates\./);
    expect(sheet).toMatch(/Fleiss' kappa \| [-0-9.]+( \([^|]+\))? \| (\[|n\/a)/);
    expect(sheet).toMatch(/\| x – y \| 3 \|/);
    expect(sheet).toMatch(/Rule \*\*adjudicated\*\*/);
    expect(sheet).toMatch(/\| settled by a judge \| 1 \|/);
    expect(sheet).toMatch(/\| unresolved \(not exported as labels\) \| 2 \|/);
    expect(sheet).toMatch(/\| with a "\?" \(unsure\) label or vote \| 1 \|/);
    expect(sheet).toMatch(/In this csv export: every pool pair is written; a pair without a decisive label is written with label "\?"/);
    expect(sheet).toMatch(/Under the rule \*\*adjudicated\*\*, "\?" counts thus: a pair with any "\?" is not agreed/);
    // A name nobody has is refused (it would write every pair as "?"); a known annotator without labels is a warning.
    expect(() => buildExport(ws, 'lk', 'jsonl', 'n.jsonl', { annotator: 'nobody' })).toThrow(/no annotator named "nobody" \(annotators with labels in the pool: x, y, judy, or @aggregate\)/);
    // judy, named there (before: only the assigned annotators were), exports her rulings.
    expect(buildExport(ws, 'lk', 'qrels', 'j.qrels', { annotator: 'judy' }).files[0]!.content).toBe('q1 0 c 1\n');
    addAnnotator(ws, 'newbie', 'annotator');
    expect(buildExport(ws, 'lk', 'jsonl', 'n.jsonl', { annotator: 'newbie' }).warnings.join()).toMatch(/newbie has no labels in pool "lk"/);
    // One person's labels instead of the aggregate.
    const xOnly = buildExport(ws, 'lk', 'qrels', 'x.qrels', { annotator: 'x' });
    expect(xOnly.files[0]!.content).toBe('q1 0 a 2\nq1 0 b -1\nq1 0 c 0\nq2 0 f -2\n');
  });

  it("one annotator's jsonl and csv of a partly labeled pool: unlabeled pairs come back as pairs without labels, not as \"?\"", async () => {
    const ws = fresh('part');
    ws.createPool({ name: 'p', scheme: 'binary' });
    ws.addPoolQuery('p', 'q1', ['a', 'b', 'c']);
    ws.addPoolQuery('p', 'q2', ['d', 'e']);
    const r = ws.ensureRun('p', 'bm25', 'retriever');
    for (const [q, c, s] of [['q1', 'a', 3], ['q1', 'b', 2], ['q1', 'c', 1], ['q2', 'd', 2], ['q2', 'e', 1]] as const) ws.setRunScore(r, q, c, s);
    const put = (q: string, c: string, v: string): void => void ws.addLabel({ pool: 'p', queryId: q, candidateId: c, annotator: 'alice', value: v, origin: 't' });
    put('q1', 'a', '0');
    put('q1', 'b', '1');
    put('q1', 'c', '?'); // unsure: a label, written "?" with status unsure
    put('q2', 'd', '1'); // q2's e stays unlabeled
    writeExport(ws, 'p', 'trec-run', path.join(scratch.dir, 'p.run'));
    const want = { labels: grades(ws, 'p', 'alice'), values: [...sourceLabels(ws, 'p', 'alice').values].map(([q, m]) => [q, [...m]]), metrics: metrics(ws, 'p', 'alice') };
    for (const [format, importAs] of [
      ['jsonl', 'labels-jsonl'],
      ['csv', 'labels-csv'],
    ] as const) {
      const out = path.join(scratch.dir, `p.${format}`);
      writeExport(ws, 'p', format, out, { annotator: 'alice' });
      const back = fresh(`p-${format}`);
      const report = await runImport(back, importAs, [out], { pool: 'p' });
      expect(report.skipped, format).toEqual({ unlabeled: 1 });
      expect(report.counts.labels, format).toBe(4);
      await runImport(back, 'trec-run', [path.join(scratch.dir, 'p.run')], { pool: 'p' });
      expect(back.poolQueries('p'), format).toEqual(ws.poolQueries('p'));
      const got = { labels: grades(back, 'p', 'alice'), values: [...sourceLabels(back, 'p', 'alice').values].map(([q, m]) => [q, [...m]]), metrics: metrics(back, 'p', 'alice') };
      expect(got, format).toEqual(want);
    }
  });

  it('semeval-relevancy of the SemEval dev pool gives the scorer file its pairs and flags; qrels keeps the grades', async () => {
    const ws = fresh('se');
    const xml = dataset('semeval2016-task3/SemEval2016-Task3-CQA-QL-dev.xml');
    await runImport(ws, 'semeval', [xml], { pool: 'dev' });
    const b = buildExport(ws, 'dev', 'semeval-relevancy', 'dev.relevancy', { run: 'search-engine' });
    const mine = b.files[0]!.content.split('\n').filter(Boolean).map((l) => l.split('\t'));
    const theirs = datasetText('semeval2016-task3/SemEval2016-Task3-CQA-QL-dev.xml.subtaskB.relevancy').split('\n').filter(Boolean).map((l) => l.split('\t'));
    expect(mine.map((f) => [f[0], f[1], f[4]])).toEqual(theirs.map((f) => [f[0], f[1], f[4]]));
    const q = buildExport(ws, 'dev', 'qrels', 'dev.qrels');
    expect(new Set(q.files[0]!.content.split('\n').filter(Boolean).map((l) => l.split(' ')[3]))).toEqual(new Set(['0', '1', '2']));
    const out = path.join(scratch.dir, 'se.qrels');
    writeExport(ws, 'dev', 'qrels', out);
    writeExport(ws, 'dev', 'trec-run', path.join(scratch.dir, 'se.run'));
    const back = fresh('se-back');
    await runImport(back, 'qrels', [out], { pool: 'dev' });
    await runImport(back, 'trec-run', [path.join(scratch.dir, 'se.run')], { pool: 'dev' });
    expect(grades(back, 'dev', 'gold')).toEqual(grades(ws, 'dev', 'gold'));
    expect(metrics(back, 'dev')).toEqual(metrics(ws, 'dev'));
    expect(((metrics(back, 'dev') as Record<string, { runs: Record<string, { MAP: number }> }>)['zero/pool-order/partial']!.runs['search-engine']!.MAP * 100).toFixed(2)).toBe('71.35');
  });

  it('askubuntu of the SemEval dev pool: the datasheet says what the re-import drops — grades, the run name, other runs, line breaks — and it does', async () => {
    const ws = fresh('se-au');
    await runImport(ws, 'semeval', [dataset('semeval2016-task3/SemEval2016-Task3-CQA-QL-dev.xml')], { pool: 'dev' });
    const other = ws.ensureRun('dev', 'other', 'test');
    ws.transaction(() => ws.setRunScore(other, ws.poolQueries('dev')[0]!.queryId, ws.poolQueries('dev')[0]!.candidates[0]!, 1));
    const out = path.join(scratch.dir, 'se-au.txt');
    const b = writeExport(ws, 'dev', 'askubuntu', out, { run: 'search-engine' });
    expect(b.datasheet.content).toContain(
      'What the re-import drops: the grades — the format is binary: the semeval3 labels of grade 1 or more come back as 1 (similar), the others as 0, in a binary pool; ' +
        "the run's name — the scores of search-engine come back as run bm25-lucene; the pool's other runs (other), which are not in the file: export them with --format trec-run; " +
        'line breaks and tabs in the text, which the corpus file writes as spaces. ' +
        "Import the corpus file first (`qpairs import W --format askubuntu-corpus se-au.corpus.txt`), or the pool's questions come back as ids only.",
    );
    const back = fresh('se-au-back');
    await runImport(back, 'askubuntu-corpus', [path.join(scratch.dir, 'se-au.corpus.txt')]);
    await runImport(back, 'askubuntu-pool', [out], { pool: 'dev' });
    // As said: binary labels at grade ≥ 1, one run named bm25-lucene, the texts there; the metrics (convention zero) the same.
    expect(grades(back, 'dev', 'gold')).toEqual(grades(ws, 'dev', 'gold').map(([q, c, g]) => [q, c, g === null ? null : g >= 1 ? 1 : 0]));
    expect(back.runKinds('dev').map((r) => r.name)).toEqual(['bm25-lucene']);
    expect(back.getQuestion(ws.poolQueries('dev')[0]!.queryId)?.title).toBe(ws.getQuestion(ws.poolQueries('dev')[0]!.queryId)?.title);
    const map = (w: Workspace, run: string): number => evaluatePool(w, { pool: 'dev', convention: 'zero', ties: 'pool-order', threshold: 1, partial: false }).runs[run]!.MAP!;
    expect(map(back, 'bm25-lucene')).toBeCloseTo(map(ws, 'search-engine'), 12);
    // A binary pool's export with its only run bm25-lucene drops nothing of labels and scores.
    const au = await devWorkspace();
    const plain = buildExport(au, 'dev', 'askubuntu', 'dev.txt', { run: 'bm25-lucene' });
    expect(plain.datasheet.content).toMatch(/What the re-import drops: the pool's other runs \(reversed\), which are not in the file/);
    expect(plain.datasheet.content).not.toContain('the grades —');
  });
});

describe('the datasheet of a pool too large for a full agreement report', () => {
  // A user hit: `qpairs export` of a 10,000-pair pool labeled by 40 annotators (2 per query) was refused
  // ("this agreement report is too large to compute … Use at most 635 bootstrap resamples"), and export
  // has no option to ask for fewer: the datasheet's CIs blocked the whole export.
  it('exports anyway, with as many resamples as the budget allows, and says so; not computed at all when even that is over', () => {
    const ws = fresh('budget');
    ws.createPool({ name: 'p', scheme: 'binary' });
    ws.addPoolQuery('p', 'q1', ['a', 'b', 'c']);
    ws.addPoolQuery('p', 'q2', ['d', 'e']);
    assignPool(ws, 'p', ['x', 'y', 'z'], null);
    const put = (q: string, c: string, a: string, v: string): void => void ws.addLabel({ pool: 'p', queryId: q, candidateId: c, annotator: a, value: v, origin: 't' });
    for (const [q, c, vx, vy, vz] of [['q1', 'a', '1', '1', '0'], ['q1', 'b', '0', '0', '0'], ['q1', 'c', '1', '0', '1'], ['q2', 'd', '0', '0', '1'], ['q2', 'e', '1', '1', '1']]) {
      put(q!, c!, 'x', vx!);
      put(q!, c!, 'y', vy!);
      put(q!, c!, 'z', vz!);
    }
    // 5 labeled pairs × (3 annotator pairs + 6 statistics) = 45 units per resample: 2,000 units allow 43 resamples.
    const b = buildExport(ws, 'p', 'qrels', 'p.qrels', { agreementWorkLimit: 2000 });
    expect(b.files[0]!.lines).toBe(2); // the two agreed pairs
    expect(b.datasheet.content).toMatch(/95% CIs: percentile bootstrap over queries, 43 resamples, seed 1\. The CIs use 43 bootstrap resamples rather than 1000: the most the agreement work budget allows for this pool \(5 labeled pairs, 3 annotators\)\./);
    expect(b.datasheet.content).toMatch(/\| x – y \| 5 \| 0\.800 \|/);
    // Positive / negative specific agreement per pair, as `qpairs agreement` gives them (x: 1 0 1 0 1, y: 1 0 0 0 1: 2·2/(2·2+1)).
    expect(b.datasheet.content).toMatch(/\| pair \| items \| agreement \| Cohen's kappa \| 95% CI \| linear \| quadratic \| PSA \| NSA \|/);
    expect(b.datasheet.content).toMatch(/\| x – y \| 5 \| 0\.800 \|[^\n]*\| 0\.800 \| 0\.800 \|\n/);
    // Every pool statistic with its CI (percent agreement and the ordinal/interval alphas were left blank).
    for (const name of ['percent agreement \\(pooled pairwise\\)', "Fleiss' kappa", "Krippendorff's alpha \\(nominal\\)", "Krippendorff's alpha \\(ordinal\\)", "Krippendorff's alpha \\(interval\\)", "Gwet's AC1"]) {
      expect(b.datasheet.content).toMatch(new RegExp(`\\| ${name} \\| -?[0-9.]+( \\([^|]+\\))? \\| \\[-?[0-9.]+, -?[0-9.]+\\] \\|`));
    }
    // Fleiss' kappa says which items it was computed on.
    expect(b.datasheet.content).toMatch(/\| Fleiss' kappa \| -?[0-9.]+ \(5 items with 3 labels each\) \|/);
    // Within the budget: the usual 1000, no note.
    const full = buildExport(ws, 'p', 'qrels', 'p.qrels');
    expect(full.datasheet.content).toMatch(/95% CIs: percentile bootstrap over queries, 1,000 resamples, seed 1\.\n/);
    expect(full.datasheet.content).not.toMatch(/rather than/);
    // Not even the point estimates fit: the export still goes through, and the datasheet says why there is no agreement.
    const none = buildExport(ws, 'p', 'qrels', 'p.qrels', { agreementWorkLimit: 40 });
    expect(none.files[0]!.lines).toBe(2);
    expect(none.datasheet.content).toMatch(/## Agreement\n\nNot computed: the pool is too large for an agreement report \(5 labeled pairs, 3 annotators\)/);
  });
});

describe('the datasheet says what an interval hides', () => {
  it('names the resamples dropped where a statistic was undefined, as qpairs agreement does', () => {
    const ws = fresh('dropped');
    ws.createPool({ name: 'p', scheme: 'binary' });
    ws.addPoolQuery('p', 'q1', ['a', 'b']);
    ws.addPoolQuery('p', 'q2', ['c', 'd', 'e']);
    assignPool(ws, 'p', ['x', 'y'], null);
    const put = (q: string, c: string, a: string, v: string): void => void ws.addLabel({ pool: 'p', queryId: q, candidateId: c, annotator: a, value: v, origin: 't' });
    // q1: both say 1 twice; a resample of q1 alone has one category, where kappa is undefined.
    for (const [q, c, vx, vy] of [['q1', 'a', '1', '1'], ['q1', 'b', '1', '1'], ['q2', 'c', '1', '0'], ['q2', 'd', '0', '0'], ['q2', 'e', '1', '1']]) {
      put(q!, c!, 'x', vx!);
      put(q!, c!, 'y', vy!);
    }
    const sheet = buildExport(ws, 'p', 'qrels', 'p.qrels').datasheet.content;
    expect(sheet).toMatch(/\| x – y \| 5 \| [0-9.]+ \| [0-9.]+ \| \[-?[0-9.]+, -?[0-9.]+\] \(percentile bootstrap, \d+ resamples \(\d+ of 1000 resamples had an undefined statistic and were dropped\)\) \|/);
  });
});

describe('writing', () => {
  it('is atomic: a failing export leaves nothing, and errors are readable', async () => {
    const ws = await devWorkspace();
    // The reason in words, not the bare errno code ("cannot write …/x.qrels: ENOENT").
    expect(() => writeExport(ws, 'dev', 'qrels', path.join(scratch.dir, 'no-such-dir', 'x.qrels'))).toThrow(
      /^cannot write .*x\.qrels: the folder .*no-such-dir does not exist; nothing was written$/,
    );
    expect(readdirSync(scratch.dir).filter((f) => !f.endsWith('.qpairs') && !f.includes('.qpairs-'))).toEqual([]);
    // hf-dataset makes its folder; when it cannot, it says which folder and why (a file in the way).
    writeFileSync(path.join(scratch.dir, 'afile'), 'x');
    expect(() => writeExport(ws, 'dev', 'hf-dataset', path.join(scratch.dir, 'afile', 'hf'))).toThrow(/^cannot create the folder .*afile[\\/]hf: a part of .*afile is a file, not a folder; nothing was written$/);
    expect(readFileSync(path.join(scratch.dir, 'afile'), 'utf8')).toBe('x');
    // A file format's folder missing, or a file in its path: refused by the first half, before anything is rendered.
    expect(() => prepareExportWrite(ws, 'jsonl', path.join(scratch.dir, 'no-such-dir', 'sub', 'x.jsonl'))).toThrow(/^cannot write .*x\.jsonl: the folder .*sub does not exist; nothing was written$/);
    expect(() => prepareExportWrite(ws, 'csv', path.join(scratch.dir, 'afile', 'x.csv'))).toThrow(/^cannot write .*x\.csv: a part of .*afile is a file, not a folder; nothing was written$/);
    rmSync(path.join(scratch.dir, 'afile'));
    expect(() => writeExport(ws, 'dev', 'askubuntu', path.join(scratch.dir, 'a.txt'), { run: 'nope' })).toThrow(/no run "nope"/);
    expect(() => buildExport(ws, 'nope', 'qrels', 'x')).toThrow(/no pool named "nope"/);
    const one = writeExport(ws, 'dev', 'trec-run', path.join(scratch.dir, 'only.run'), { run: 'reversed' });
    expect(one.files.map((f) => path.basename(f.name))).toEqual(['only.run']);
  });
});
