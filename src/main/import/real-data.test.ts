import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { labelGrade } from '../../shared/labels';
import { rankIndices } from '../metrics/ranking';
import type { Workspace } from '../workspace/workspace';
import { dataset } from '../../../tests/datasets';
import { importFiles, type ImportReport } from './index';
import { cleanupTemp, snapshot, tempWorkspace } from './test-helpers';

afterEach(cleanupTemp);

const SEM = 'semeval2016-task3';
const DEV_XML = dataset(`${SEM}/SemEval2016-Task3-CQA-QL-dev.xml`);
const TRAIN1_XML = dataset(`${SEM}/SemEval2016-Task3-CQA-QL-train-part1.v2.0.xml`);
const TRAIN2_XML = dataset(`${SEM}/SemEval2016-Task3-CQA-QL-train-part2.xml`);
const DEV_RELEVANCY = dataset(`${SEM}/SemEval2016-Task3-CQA-QL-dev.xml.subtaskB.relevancy`);
const AU_DEV = dataset('askubuntu/dev.txt');
const SE_DIR = path.dirname(dataset('stackexchange-cstheory-meta/Posts.xml'));

/** Mean average precision of a run over a pool's queries (AP = 0 without a relevant candidate, or skipped). */
function mapOf(ws: Workspace, pool: string, run: string, annotator: string, skipNoRelevant: boolean): { map: number; mrr: number; p1: number; p5: number; n: number } {
  const runId = ws.listRuns(pool).find((r) => r.name === run)!.id;
  const scores = ws.runScores(runId);
  const rel = new Map<string, Set<string>>();
  for (const l of ws.currentLabels(pool, annotator)) {
    if ((labelGrade(l.value) ?? 0) >= 1) {
      if (!rel.has(l.queryId)) rel.set(l.queryId, new Set());
      rel.get(l.queryId)!.add(l.candidateId);
    }
  }
  let sumAp = 0, sumRr = 0, sumP1 = 0, sumP5 = 0, n = 0;
  for (const q of ws.poolQueries(pool)) {
    const r = rel.get(q.queryId) ?? new Set<string>();
    if (r.size === 0 && skipNoRelevant) continue;
    n++;
    const ranked = rankIndices(q.candidates, scores.get(q.queryId)).map((i) => q.candidates[i]!);
    let hits = 0, ap = 0, rr = 0;
    ranked.forEach((c, i) => {
      if (r.has(c)) {
        hits++;
        ap += hits / (i + 1);
        if (!rr) rr = 1 / (i + 1);
      }
    });
    sumAp += r.size ? ap / r.size : 0;
    sumRr += rr;
    sumP1 += r.has(ranked[0]!) ? 1 : 0;
    sumP5 += ranked.slice(0, 5).filter((c) => r.has(c)).length / 5;
  }
  return { map: sumAp / n, mrr: sumRr / n, p1: sumP1 / n, p5: sumP5 / n, n };
}

async function twice(ws: Workspace, run: () => Promise<ImportReport>): Promise<[ImportReport, ImportReport]> {
  const a = await run();
  const before = snapshot(ws);
  const b = await run();
  const after = snapshot(ws);
  expect(after.stats).toEqual(before.stats);
  expect(after.dataChecksum).toBe(before.dataChecksum); // row for row, but the imports audit
  expect(after.imports).toBe(before.imports + 1);
  return [a, b];
}

describe('semeval (SemEval-2016 Task 3 XML)', () => {
  it('imports dev: 50 original questions, 500 related, gold labels and the search-engine run', async () => {
    const ws = tempWorkspace();
    const [r, again] = await twice(ws, () => importFiles(ws, 'semeval', [DEV_XML]));
    expect(r.counts).toMatchObject({
      originalQuestions: 50,
      relatedQuestions: 500,
      questionsInserted: 550,
      poolsCreated: 1,
      poolQueries: 50,
      poolCandidates: 500,
      labels: 500,
      runs: 1,
      runScores: 500,
    });
    expect(r.counts).toMatchObject({ commentsInserted: 5000 }); // 10 RelComments per thread
    expect(r.counts).not.toHaveProperty('answersInserted');
    expect(r.changedDocs).toHaveLength(550);
    expect(r.warnings).toEqual([]);
    expect(again.counts).toMatchObject({ questionsUnchanged: 550, labelsUnchanged: 500, runScores: 500, runsUnchanged: 1, commentsUnchanged: 5000 });
    expect(again.counts.questionsInserted ?? 0).toBe(0);
    expect(again.counts.commentsInserted ?? 0).toBe(0);
    expect(ws.stats().answers).toBe(5000);
    const comments = ws.answersOf('Q268_R4');
    expect(comments).toHaveLength(10);
    expect(comments[0]).toMatchObject({ id: 'Q268_R4_C1', position: 0, source: 'semeval', author: 'U594', created: '2013-05-03 07:23:20' });
    expect(comments.map((c) => c.position)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(again.counts.labels ?? 0).toBe(0);
    expect(again.changedDocs).toEqual([]);

    const pool = ws.pool('SemEval2016-Task3-CQA-QL-dev');
    expect(pool).toMatchObject({ scheme: 'semeval3', queries: 50, pairs: 500, retriever: 'search-engine' });
    const values = ws.currentLabels(pool.name, 'gold').map((l) => l.value);
    expect(values.filter((v) => v === 'PerfectMatch')).toHaveLength(59);
    expect(values.filter((v) => v === 'Relevant')).toHaveLength(155);
    expect(values.filter((v) => v === 'Irrelevant')).toHaveLength(286);

    const q268 = ws.getQuestion('Q268')!;
    expect(q268).toMatchObject({ source: 'semeval', title: 'Good Bank', body: 'Which is a good bank as per your experience in Doha' });
    expect(ws.getQuestion('Q268_R4')).toMatchObject({ title: 'Best Bank', author: 'U4882', created: '2013-05-02 19:43:00', category: 'Advice and Help' });

    // Ranking by the run's score gives RELQ_RANKING_ORDER (candidate ids end in _R<rank>).
    const run = ws.listRuns(pool.name).find((x) => x.name === 'search-engine')!;
    const scores = ws.runScores(run.id);
    for (const q of ws.poolQueries(pool.name)) {
      const ranked = rankIndices(q.candidates, scores.get(q.queryId)).map((i) => q.candidates[i]!);
      const byRank = [...q.candidates].sort((a, b) => Number(a.split('_R')[1]) - Number(b.split('_R')[1]));
      expect(ranked).toEqual(byRank);
    }
    // The search engine's order scores the official IR baseline, dev MAP 0.7135 (AP = 0 without relevant).
    expect(mapOf(ws, pool.name, 'search-engine', 'gold', false).map).toBeCloseTo(0.7135, 4);
    ws.close();
  });

  it('groups the repeated OrgQuestion elements of the training files by ORGQ_ID', async () => {
    const ws = tempWorkspace();
    const r1 = await importFiles(ws, 'semeval', [TRAIN1_XML]);
    expect(r1.counts).toMatchObject({ originalQuestions: 103, relatedQuestions: 613, poolQueries: 103, poolCandidates: 613, labels: 613, runScores: 613 });
    expect(r1.counts).toMatchObject({ commentsInserted: 6130 });
    expect(ws.pool('SemEval2016-Task3-CQA-QL-train-part1.v2.0')).toMatchObject({ queries: 103, pairs: 613 });
    const r2 = await importFiles(ws, 'semeval', [TRAIN2_XML], { pool: 'semeval-train-part2' });
    expect(r2.counts).toMatchObject({ originalQuestions: 67, relatedQuestions: 670, poolQueries: 67, poolCandidates: 670, labels: 670 });
    expect(r2.counts).toMatchObject({ commentsInserted: 6700 });
    expect(ws.pool('semeval-train-part2')).toMatchObject({ queries: 67, pairs: 670 });
    expect(ws.stats()).toMatchObject({ pools: 2, runs: 2, labels: 613 + 670, annotators: 1, answers: 6130 + 6700 });
    // Re-importing adds nothing.
    const again = await importFiles(ws, 'semeval', [TRAIN1_XML]);
    expect(again.counts).toMatchObject({ commentsUnchanged: 6130 });
    expect(ws.stats().answers).toBe(6130 + 6700);
    ws.close();
  });

  it('semeval-relevancy agrees with the XML gold and builds a binary pool on its own', async () => {
    const ws = tempWorkspace();
    await importFiles(ws, 'semeval', [DEV_XML]);
    const before = snapshot(ws);
    const r = await importFiles(ws, 'semeval-relevancy', [DEV_RELEVANCY], { pool: 'SemEval2016-Task3-CQA-QL-dev' });
    // Every relevancy label agrees with the finer XML label (true iff PerfectMatch or Relevant).
    expect(r.counts).toEqual({ labelsUnchanged: 500 });
    expect(snapshot(ws)).toMatchObject({ stats: before.stats, dataChecksum: before.dataChecksum, imports: before.imports + 1 });

    const [r2, again] = await twice(ws, () => importFiles(ws, 'semeval-relevancy', [DEV_RELEVANCY], { pool: 'dev-relevancy' }));
    expect(r2.counts).toMatchObject({ poolsCreated: 1, poolQueries: 50, poolCandidates: 500, labels: 500 });
    expect(again.counts).toEqual({ labelsUnchanged: 500 });
    const vals = ws.currentLabels('dev-relevancy').map((l) => l.value);
    expect(vals.filter((v) => v === '1')).toHaveLength(59 + 155);
    expect(ws.pool('dev-relevancy')).toMatchObject({ scheme: 'binary', queries: 50, pairs: 500 });
    ws.close();
  });
});

describe('askubuntu-pool (dev.txt)', () => {
  it('imports 200 queries × 20 candidates with gold labels and the Lucene BM25 run', async () => {
    const ws = tempWorkspace();
    const [r, again] = await twice(ws, () => importFiles(ws, 'askubuntu-pool', [AU_DEV]));
    expect(r.counts).toMatchObject({ poolsCreated: 1, poolQueries: 200, poolCandidates: 4000, labels: 4000, runs: 1, runScores: 4000, queriesWithoutSimilar: 11 });
    expect(r.skipped).toEqual({});
    expect(again.counts).toMatchObject({ labelsUnchanged: 4000, runScores: 4000 });
    expect(again.counts.poolCandidates ?? 0).toBe(0);
    const pool = ws.pool('dev');
    expect(pool).toMatchObject({ scheme: 'binary', queries: 200, pairs: 4000, retriever: 'bm25-lucene' });
    const labels = ws.currentLabels('dev', 'gold');
    expect(labels).toHaveLength(4000);
    expect(new Set(labels.filter((l) => l.value === '1').map((l) => l.queryId)).size).toBe(189);
    // The paper's BM25 dev row (ties in pool = file order): MAP 52.03, MRR 65.99, P@1 51.85, P@5 42.12.
    const m = mapOf(ws, 'dev', 'bm25-lucene', 'gold', true);
    expect(m.n).toBe(189);
    expect(m.map * 100).toBeCloseTo(52.03, 2);
    expect(m.mrr * 100).toBeCloseTo(65.99, 2);
    expect(m.p1 * 100).toBeCloseTo(51.85, 2);
    expect(m.p5 * 100).toBeCloseTo(42.12, 2);
    expect(ws.questionCount()).toBe(0); // ids only: the texts are not in the workspace
    ws.close();
  });
});

describe('stackexchange (cstheory meta dump)', () => {
  it('imports 589 questions and 13 duplicate pairs from the folder', async () => {
    const ws = tempWorkspace();
    const [r, again] = await twice(ws, () => importFiles(ws, 'stackexchange', [SE_DIR]));
    expect(r.files.map((f) => path.basename(f))).toEqual(['Posts.xml.gz', 'PostLinks.xml.gz']);
    expect(r.counts).toMatchObject({ questionsInserted: 589, duplicatePairs: 13 });
    // 1,322 answers: 1,280 with text, 42 image-only (empty as text); none to a missing question.
    expect(r.counts.answersInserted).toBe(1280);
    expect(r.skipped.emptyAnswer).toBe(42);
    expect(r.skipped.answerToMissingQuestion ?? 0).toBe(0);
    expect(r.skipped.notAQuestion).toBe(4); // 2 tag wiki excerpts + 2 tag wikis
    expect(r.skipped.linkToMissingQuestion ?? 0).toBe(0);
    expect(again.counts).toMatchObject({ questionsUnchanged: 589, duplicatePairsKnown: 13, answersUnchanged: 1280 });
    expect(again.counts.answersInserted ?? 0).toBe(0);
    expect(ws.stats()).toMatchObject({ questions: 589, answers: 1280, duplicatePairs: 13, sources: { stackexchange: 589 } });
    const a1 = ws.answersOf('1');
    expect(a1).toHaveLength(28); // rows with ParentId="1", in file (= Id) order
    expect(a1.slice(0, 5).map((a) => a.id)).toEqual(['9', '10', '15', '16', '30']);
    expect(a1[0]).toMatchObject({ position: 0, author: '109', created: '2010-08-16T21:58:47.010' });
    expect(a1[0]!.body).toMatch(/^TheoryOverflow seems the right name\./);
    expect(a1.every((a) => !/[<>]|&[a-z]+;/.test(a.body))).toBe(true);
    const q1 = ws.getQuestion('1')!;
    expect(q1.tags).toEqual(['discussion', '7-essential', 'names']);
    expect(q1.created).toBe('2010-08-16T20:20:28.943');
    expect(q1.body).toMatch(/^Possible Duplicate: Write an Elevator Pitch \/ Tagline Note: We are closing this domain naming thread\. It is asking the entirely wrong question\./);
    expect(q1.body).not.toMatch(/[<>]|&[a-z]+;/);
    expect(ws.duplicatePairs()).toContainEqual(['1', '463']);
    ws.close();
  });

  it('counts duplicate links to posts missing from the dump', async () => {
    const ws = tempWorkspace();
    // Only the links file: checked against the (empty) workspace, all 13 are skipped.
    const r = await importFiles(ws, 'stackexchange', [path.join(SE_DIR, 'PostLinks.xml.gz')]);
    expect(r.skipped.linkToMissingQuestion).toBe(13);
    expect(r.counts.duplicatePairs ?? 0).toBe(0);
    expect(r.warnings).toHaveLength(1);
    ws.close();
  });
});
