/**
 * `npm run bench:active [-- --reps 20 --seed 1 --json FILE]`: how many labels each labeling order needs
 * to settle "which ranker is best", replaying existing gold labels as a simulated annotator
 * (src/main/active/simulate.ts) under the orders pool, random, uncertainty and decide-rankers,
 * several seeded repetitions each; prints labels until (a) the rankers' MAP order matches the
 * full-label order (Kendall τ ≥ 0.9, for good) and (b) the best ranker is decided (Holm p < 0.05),
 * as mean with a 95% t-interval over repetitions, how often (b) picked the true best, and
 * decide-rankers' saving against random. Goal (issue 10): ≥ 30% fewer labels than random for both.
 *
 * Pools: SemEval-2016 Task 3 subtask B — the 117 distinct training queries (train part1 + part2,
 * near-duplicates grouped) and the 50 dev queries, 10 candidates each, gold = PerfectMatch|Relevant.
 * Rankers: the forum's search engine order, tf-idf (word 1–3-grams), skip-gram (SIF-averaged vectors)
 * and the denoising auto-encoder `dae` (both trained on all the texts, no labels), and the supervised
 * `fused` ranker scored out of fold: on the training pool, grouped 5-fold cross-fitting (each query
 * scored by a model trained on the other folds' clusters); on dev, trained on train part 2 (clean).
 * So no ranker's score of a query comes from a model that saw its labels.
 * AskUbuntu dev (../shared/data/askubuntu) has only the Lucene BM25 run and no question text to
 * train a second ranker on, so there is nothing to compare there; it is reported as not run.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { apsOf, type ActiveQuery } from '../../src/main/active/pool-model';
import { QUERY_ORDERS, type QueryOrder } from '../../src/main/active/query-order';
import { fullMaps, simulateAnnotator, type SimulationResult } from '../../src/main/active/simulate';
import { createModel, SkipGramRanker, type QText, type Ranker } from '../../src/main/models';
import { meanInterval } from '../../src/main/stats/t-interval';
import { findSharedData } from './real-text';
import { groupedFolds } from '../../src/main/overlap';
import { devSet, isRelevant, loadSemEvalData, trainingData, type SemEvalData, type SemOrg } from './semeval-data';

function arg(name: string, def: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? def : Number(process.argv[i + 1]);
}
const REPS = arg('reps', 20);
const SEED = arg('seed', 1);
const relAt = process.argv.indexOf('--relevance');
const RELEVANCE = (relAt < 0 ? 'buckets' : process.argv[relAt + 1]) as 'buckets' | 'logit';
const EPSILON = arg('epsilon', 0.1);
const jsonAt = process.argv.indexOf('--json');
const JSON_FILE = jsonAt < 0 ? null : process.argv[jsonAt + 1]!;

interface Pool {
  name: string;
  queries: ActiveQuery[];
  gold: boolean[][];
  rankers: string[];
}

function rankingOf(scores: readonly number[]): number[] {
  return scores.map((s, i) => ({ s, i })).sort((a, b) => b.s - a.s || a.i - b.i).map((x) => x.i);
}

function poolOf(name: string, orgs: readonly SemOrg[], rankers: { name: string; score: (q: QText, cands: QText[], org: SemOrg) => number[] }[]): Pool {
  const queries: ActiveQuery[] = [];
  const gold: boolean[][] = [];
  for (const o of orgs) {
    const q: QText = { id: o.id, title: o.subject, body: o.body };
    const cands: QText[] = o.rel.map((r) => ({ id: r.id, title: r.subject, body: r.body }));
    queries.push({ id: o.id, size: cands.length, rankings: rankers.map((r) => rankingOf(r.score(q, cands, o))) });
    gold.push(o.rel.map(isRelevant));
  }
  return { name, queries, gold, rankers: rankers.map((r) => r.name) };
}

interface Row {
  order: QueryOrder;
  toOrder: { mean: number; ci: [number, number] | null; never: number };
  toDecide: { mean: number; ci: [number, number] | null; never: number; correct: number };
}

function summarise(order: QueryOrder, results: SimulationResult[]): Row {
  const stat = (xs: (number | null)[]) => {
    const vals = xs.filter((x): x is number => x !== null);
    const ci = vals.length >= 2 ? meanInterval(vals).value : null;
    return { mean: vals.reduce((s, x) => s + x, 0) / Math.max(1, vals.length), ci, never: xs.length - vals.length };
  };
  return {
    order,
    toOrder: stat(results.map((r) => r.labelsToOrder)),
    toDecide: { ...stat(results.map((r) => r.labelsToDecide)), correct: results.filter((r) => r.decidedCorrectly).length },
  };
}

/** Out-of-fold fused scores: query id → candidate scores (in candidate order). */
async function fusedOutOfFold(d: SemEvalData): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>();
  const scoreWith = async (train: readonly SemOrg[], test: readonly SemOrg[]) => {
    const m = await createModel('fused');
    await m.train({ ...trainingData(d, train), runs: { engine: d.engine } }, { seed: 1 });
    for (const q of devSet(d, test).queries) out.set(q.query.id, m.score(q.query, q.candidates, q.context));
    m.dispose();
  };
  for (const fold of groupedFolds(d.clusterOf, 5, 1)) {
    const held = new Set(fold);
    await scoreWith(
      d.distinct.filter((o) => !held.has(o.id)),
      d.distinct.filter((o) => held.has(o.id)),
    );
  }
  await scoreWith(d.part2, d.dev);
  return out;
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const d = loadSemEvalData(path.join(findSharedData(), 'semeval2016-task3'));
  const texts: QText[] = [...d.questions.values()];
  const trainText = { questions: d.questions, positives: [], randomPool: [], extraTexts: d.comments };
  const tfidf3: Ranker = await createModel('tfidf');
  await tfidf3.train(trainText);
  const skipgram = new SkipGramRanker({});
  await skipgram.train(trainText);
  const dae: Ranker = await createModel('dae');
  await dae.train(trainText, { seed: 1 });
  const fused = await fusedOutOfFold(d);
  console.log(`rankers trained on ${texts.length.toLocaleString('en-US')} questions + ${d.comments.length.toLocaleString('en-US')} comments (fused out of fold) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const rankers = [
    { name: 'engine', score: (_q: QText, _c: QText[], o: SemOrg) => o.rel.map((r) => -r.rank) },
    { name: 'tfidf', score: (q: QText, c: QText[]) => tfidf3.score(q, c) },
    { name: 'skipgram', score: (q: QText, c: QText[]) => skipgram.score(q, c) },
    { name: 'dae', score: (q: QText, c: QText[]) => dae.score(q, c) },
    { name: 'fused (out of fold)', score: (q: QText) => fused.get(q.id)! },
  ];
  const pools = [poolOf('SemEval-2016 train (117 distinct queries)', d.distinct, rankers), poolOf('SemEval-2016 dev (50 queries)', d.dev, rankers)];
  const out: Record<string, unknown> = {};
  for (const pool of pools) {
    const maps = fullMaps(pool.queries, pool.gold);
    const labels = pool.queries.reduce((s, q) => s + q.size, 0);
    console.log(`\n${pool.name}: ${labels} labels in all; full-label MAP ${pool.rankers.map((r, i) => `${r} ${(maps[i]! * 100).toFixed(2)}`).join(', ')}`);
    const perQueryEqual = pool.queries.filter((q, i) => new Set(apsOf(q, pool.gold[i]!).map((x) => x.toFixed(12))).size === 1).length;
    console.log(`  ${perQueryEqual} of ${pool.queries.length} queries give every ranker the same AP (they cannot separate the rankers)`);
    const rows: Row[] = [];
    for (const order of QUERY_ORDERS) {
      const results: SimulationResult[] = [];
      const reps = order === 'pool' ? 1 : REPS;
      for (let rep = 0; rep < reps; rep++) results.push(simulateAnnotator(pool.queries, pool.gold, order, { seed: SEED + rep, relevance: RELEVANCE, epsilon: EPSILON }));
      rows.push(summarise(order, results));
    }
    const fmtStat = (s: { mean: number; ci: [number, number] | null; never: number }) =>
      `${s.mean.toFixed(0)}${s.ci ? ` [${s.ci[0].toFixed(0)}, ${s.ci[1].toFixed(0)}]` : ''}${s.never ? ` (${s.never} never)` : ''}`;
    console.log(`  | order          | labels until MAP order matches (τ ≥ 0.9) | labels until best decided (Holm p < 0.05) | decided right |`);
    console.log(`  |----------------|------------------------------------------|-------------------------------------------|---------------|`);
    for (const r of rows)
      console.log(
        `  | ${r.order.padEnd(14)} | ${fmtStat(r.toOrder).padStart(40)} | ${fmtStat(r.toDecide).padStart(41)} | ${`${r.toDecide.correct} of ${r.order === 'pool' ? 1 : REPS}`.padStart(13)} |`,
      );
    const rnd = rows.find((r) => r.order === 'random')!;
    const dec = rows.find((r) => r.order === 'decide-rankers')!;
    const saveOrder = 1 - dec.toOrder.mean / rnd.toOrder.mean;
    const saveDecide = 1 - dec.toDecide.mean / rnd.toDecide.mean;
    console.log(
      `  decide-rankers vs random: ${(saveOrder * 100).toFixed(1)}% fewer labels to (a), ${(saveDecide * 100).toFixed(1)}% fewer to (b); goal ≥ 30%: ${saveOrder >= 0.3 && saveDecide >= 0.3 ? 'MET' : 'NOT MET'}`,
    );
    out[pool.name] = { labels, fullMAP: Object.fromEntries(pool.rankers.map((r, i) => [r, maps[i]])), rows, saving: { order: saveOrder, decide: saveDecide } };
  }
  console.log('\nAskUbuntu dev: not run (only the Lucene BM25 run is available and there is no question text to train a second ranker on).');
  console.log(`\n${REPS} repetitions per random order, seed ${SEED}, relevance model ${RELEVANCE}, uniform share ${EPSILON}; ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  if (JSON_FILE) writeFileSync(JSON_FILE, JSON.stringify(out, null, 2) + '\n');
}

await main();
