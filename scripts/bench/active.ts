/**
 * `npm run bench:active [-- --reps 20 --seed 1 --json FILE]`: how many labels each labeling order needs
 * to reach the decision "which of the five rankers is best" at 95% (alpha 0.05), replaying the gold
 * labels of a fully labeled pool as a simulated annotator, 20 seeded repetitions per order:
 *
 * - `random`: whole queries at random (src/main/active/simulate.ts);
 * - `random-candidates`: single (query, candidate) pairs at random (simulate-candidates.ts);
 * - `decide-rankers`: whole queries drawn with unequal probabilities, Des Raj's estimator (query-order.ts);
 * - `decide-rankers-mtc`: single pairs chosen for how much their label can move the ΔAP bounds of the
 *   leading rankers, in queries opened in a seeded random order (candidate-order.ts).
 *
 * The decision, the same for every order: the paired t-test over queries (Holm over best vs each other
 * ranker, as `eval --compare … --baseline BEST`) — (a) over the sampled queries, certain whatever the
 * missing labels say (partly judged queries enter with their ΔAP bounds), or (b) the pool's full-label
 * test made certain by the bounds (decided, or undecided for good). Printed per order: labels to the
 * decision (mean, sd, min–max), how often it agrees with the full-label paired test, and whether (a) or
 * (b) stopped it; decide-rankers-mtc's saving against random. Goal (issue 25): ≥ 30% fewer than random
 * on both pools. `--json FILE` writes {"datasets": [{"name", "orders": {ORDER: {"meanLabels", "sd",
 * "agreesWithFull", …}}}]}. `--pools-cache FILE` keeps the rankers' rankings (skips training next time);
 * `--orders a,b`, `--open-threshold X`, `--switch-after N --switch-below T` for experiments.
 *
 * Pools: SemEval-2016 Task 3 subtask B, read from the repository's datasets/semeval2016-task3 (the
 * .xml.gz files) — the 117 distinct training queries (train part1 + part2, near-duplicates grouped) and
 * the 50 dev queries, 10 candidates each, gold = PerfectMatch|Relevant.
 * Rankers: the forum's search engine order, tf-idf (word 1–3-grams), skip-gram (SIF-averaged vectors)
 * and the denoising auto-encoder `dae` (both trained on all the texts, no labels), and the supervised
 * `fused` ranker scored out of fold: on the training pool, grouped 5-fold cross-fitting (each query
 * scored by a model trained on the other folds' clusters); on dev, trained on train part 2 (clean).
 * So no ranker's score of a query comes from a model that saw its labels.
 * AskUbuntu dev has only the Lucene BM25 run and no question text to train a second ranker on, so there
 * is nothing to compare there; it is reported as not run.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ActiveQuery } from '../../src/main/active/pool-model';
import { queryBounds } from '../../src/main/active/ap-bounds';
import { CandidateLedger, DEFAULT_OPEN_THRESHOLD } from '../../src/main/active/candidate-order';
import { certifiedStanding } from '../../src/main/active/certified-test';
import { fullMaps, simulateAnnotator } from '../../src/main/active/simulate';
import { fullConclusion, simulateCandidates, type DecisionResult } from '../../src/main/active/simulate-candidates';
import { createModel, SkipGramRanker, type QText, type Ranker } from '../../src/main/models';
import { groupedFolds } from '../../src/main/overlap';
import { devSet, isRelevant, loadSemEvalData, trainingData, type SemEvalData, type SemOrg } from './semeval-data';
import { checkCounts, checkOptions, exitOnUsageError } from './bench-options';

exitOnUsageError('bench:active', () => {
  checkOptions(['reps', 'seed', 'relevance', 'epsilon', 'alpha', 'open-threshold', 'switch-after', 'switch-below', 'orders', 'json', 'pools-cache'], []);
  checkCounts(['reps']);
});

function arg(name: string, def: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? def : Number(process.argv[i + 1]);
}
const REPS = arg('reps', 20);
const SEED = arg('seed', 1);
const relAt = process.argv.indexOf('--relevance');
const RELEVANCE = (relAt < 0 ? 'buckets' : process.argv[relAt + 1]) as 'buckets' | 'logit';
const EPSILON = arg('epsilon', 0.1);
const ALPHA = arg('alpha', 0.05);
const OPEN_THRESHOLD = arg('open-threshold', DEFAULT_OPEN_THRESHOLD);
const SWITCH_AFTER = arg('switch-after', Infinity);
const SWITCH_BELOW = arg('switch-below', 1);
const ALL_ORDERS = ['random', 'random-candidates', 'decide-rankers', 'decide-rankers-mtc'] as const;
const ordersAt = process.argv.indexOf('--orders');
const ORDERS = (ordersAt < 0 ? [...ALL_ORDERS] : process.argv[ordersAt + 1]!.split(',')) as Array<(typeof ALL_ORDERS)[number]>;
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

interface OrderFigures {
  meanLabels: number;
  sd: number;
  min: number;
  max: number;
  /** Share of repetitions whose conclusion is the full-label paired test's. */
  agreesWithFull: number;
  /** Repetitions stopped by the sample's test (the rest: the pool's test made certain). */
  bySample: number;
  seconds: number;
}

interface DatasetFigures {
  name: string;
  labels: number;
  fullConclusion: string;
  orders: Record<string, OrderFigures>;
  savingVsRandom?: number;
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
  const cacheAt = process.argv.indexOf('--pools-cache');
  const CACHE = cacheAt < 0 ? null : process.argv[cacheAt + 1]!;
  if (CACHE && existsSync(CACHE)) return simulate(JSON.parse(readFileSync(CACHE, 'utf8')) as Pool[], t0);
  const d = loadSemEvalData(path.resolve(import.meta.dirname, '../../datasets/semeval2016-task3'));
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
  if (CACHE) writeFileSync(CACHE, JSON.stringify(pools));
  simulate(pools, t0);
}

function simulate(pools: Pool[], t0: number): void {
  const orders = ORDERS;
  const datasets: DatasetFigures[] = [];
  for (const pool of pools) {
    const maps = fullMaps(pool.queries, pool.gold);
    const labels = pool.queries.reduce((s, q) => s + q.size, 0);
    const full = fullConclusion(pool.queries, pool.gold, ALPHA);
    console.log(`\n${pool.name}: ${labels} labels in all; full-label MAP ${pool.rankers.map((r, i) => `${r} ${(maps[i]! * 100).toFixed(2)}`).join(', ')}`);
    const fullTest = certifiedStanding(pool.queries.map((q, i) => queryBounds(q, pool.gold[i]!)), pool.rankers.length, ALPHA);
    console.log(
      `  full-label paired test (t over ${pool.queries.length} queries, Holm over best vs each other): ${full.decided ? `decided, ${pool.rankers[full.best!]} is best` : `not decided (${pool.rankers[fullTest.best]} leads)`}; Holm p vs ${pool.rankers[fullTest.best]}: ${pool.rankers
        .map((r, i) => (i === fullTest.best ? null : `${r} ${fullTest.pHi[i]!.toPrecision(2)}`))
        .filter(Boolean)
        .join(', ')}`,
    );
    const zero = CandidateLedger.zeroLabel(pool.queries);
    const figures: DatasetFigures = { name: pool.name, labels, fullConclusion: full.decided ? `${pool.rankers[full.best!]} is best` : 'undecided', orders: {} };
    for (const order of orders) {
      const t1 = performance.now();
      const results: DecisionResult[] = [];
      for (let rep = 0; rep < REPS; rep++) {
        const seed = SEED + rep;
        if (order === 'random-candidates' || order === 'decide-rankers-mtc')
          results.push(simulateCandidates(pool.queries, pool.gold, order, { seed, alpha: ALPHA, zeroLabel: zero, full, openThreshold: OPEN_THRESHOLD, switchAfter: SWITCH_AFTER, switchBelow: SWITCH_BELOW }));
        else results.push(simulateAnnotator(pool.queries, pool.gold, order, { seed, alpha: ALPHA, zeroBounds: zero.bounds, full, relevance: RELEVANCE, epsilon: EPSILON }).decision);
      }
      const xs = results.map((r) => r.labels);
      const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
      const sd = xs.length > 1 ? Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1)) : 0;
      figures.orders[order] = {
        meanLabels: mean,
        sd,
        min: Math.min(...xs),
        max: Math.max(...xs),
        agreesWithFull: results.filter((r) => r.agreesWithFull).length / results.length,
        bySample: results.filter((r) => r.by === 'sample').length,
        seconds: (performance.now() - t1) / 1000,
      };
    }
    console.log(`  | order              | labels to decide: mean | sd    | min–max   | agrees with full test | stopped by sample test / pool test |`);
    console.log(`  |--------------------|------------------------|-------|-----------|-----------------------|------------------------------------|`);
    for (const [order, f] of Object.entries(figures.orders))
      console.log(
        `  | ${order.padEnd(18)} | ${f.meanLabels.toFixed(1).padStart(22)} | ${f.sd.toFixed(1).padStart(5)} | ${`${f.min}–${f.max}`.padStart(9)} | ${`${Math.round(f.agreesWithFull * REPS)} of ${REPS}`.padStart(21)} | ${`${f.bySample} / ${REPS - f.bySample}`.padStart(34)} |`,
      );
    const rnd = figures.orders['random'];
    const mtc = figures.orders['decide-rankers-mtc'];
    if (rnd && mtc) {
      const saving = 1 - mtc.meanLabels / rnd.meanLabels;
      figures.savingVsRandom = saving;
      console.log(`  decide-rankers-mtc vs random (whole queries): ${(saving * 100).toFixed(1)}% fewer labels; goal ≥ 30%: ${saving >= 0.3 ? 'MET' : 'NOT MET'}`);
    }
    datasets.push(figures);
  }
  console.log('\nAskUbuntu dev: not run (only the Lucene BM25 run is available and there is no question text to train a second ranker on).');
  console.log(`\n${REPS} repetitions per order, seed ${SEED}, alpha ${ALPHA}, open threshold ${OPEN_THRESHOLD}, relevance model ${RELEVANCE}, uniform share ${EPSILON}; ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  if (JSON_FILE) writeFileSync(JSON_FILE, JSON.stringify({ datasets }, null, 2) + '\n');
}

await main();
