/**
 * Training and evaluation data for the rerankers, read from the workspace.
 *
 * Positives: the workspace's user-marked duplicate pairs, plus the relevant pairs (grade ≥ 1) of
 * the training pools' labels. Negatives: the pools' labeled non-relevant pairs and the negative
 * pairs of pair files. Random negatives are drawn by the models from every question with text.
 * Labels of a pool come from its default label source (`gold` when present, else the aggregate
 * of its annotators; see gold/state.ts).
 *
 * Unlabeled text: every question's title and body (`questions`) plus the workspace's answers
 * and comments (`extraTexts`, migration 4), which feed idf, vocabularies, skip-gram and encoder
 * pre-training. Answers are taken in import order up to `maxTexts` texts and `maxChars`
 * characters in all (EXTRA_TEXT_LIMITS; skip-gram time grows with the text: ~0.2 M tokens/s, ~5
 * characters a token). The engine reads the labeled pairs (labeledTrainingPairs); the unlabeled
 * text is read by the train worker on its own connection (readUnlabeled, run-model.ts trainSaved).
 */
import { labelGrade } from '../../shared/labels';
import type { DevSet, QText, RunScores, TrainingData } from '../models/types';
import type { ExtraTextLimits, LabeledTrainingPairs, ReadCounts, ScoringSelection, UnlabeledSpec } from '../models/worker-protocol';
import { defaultLabelSourceOf, sourceLabels } from '../gold/state';
import { AGGREGATE } from '../../shared/gold';
import type { Workspace } from '../workspace/workspace';
import { StampedCache } from '../workspace/stamped-cache';

/**
 * A question as the models see it, with the metadata some use (mnet-fisher's M-NET term, fused's same
 * category / same asker): category = questions.category, else the first tag (Stack Exchange questions
 * have tags, no category); user = questions.author. Absent when the workspace has none.
 */
export function modelQuestion(r: { id: string; title: string; body: string; tags: string; author: string | null; category: string | null }): QText {
  const category = r.category || r.tags.split(' ')[0] || undefined;
  return { id: r.id, title: r.title, body: r.body, ...(category ? { category } : {}), ...(r.author ? { user: r.author } : {}) };
}

function qtext(ws: Workspace, id: string, cache: Map<string, QText>): QText {
  let q = cache.get(id);
  if (!q) {
    const r = ws.getQuestion(id);
    q = r ? modelQuestion({ ...r, tags: r.tags.join(' ') }) : { id, title: '', body: '' };
    cache.set(id, q);
  }
  return q;
}

/**
 * The last grades read per pool of each workspace, with the workspace's change stamp then: starting
 * a training reads a pool's grades several times (the request's checks, the same checks again when
 * the job runs, the training pairs, the dev set, each held-out fold), 50-90 ms each on the engine's
 * thread for a 6,000-pair pool. Any commit (a label, another connection's) makes them stale.
 */
const gradesRead = new WeakMap<Workspace, StampedCache<string, PoolGrades>>();

/** queryId → candidateId → grade (read-only: poolGrades hands the same maps out again). */
export type PoolGrades = ReadonlyMap<string, ReadonlyMap<string, number>>;

/** Grades of a pool's pairs from its default label source: queryId → candidateId → grade. */
export function poolGrades(ws: Workspace, pool: string): PoolGrades {
  let cache = gradesRead.get(ws);
  if (!cache) gradesRead.set(ws, (cache = new StampedCache(ws, 8)));
  return cache.get(pool, () => readPoolGrades(ws, pool));
}

function readPoolGrades(ws: Workspace, pool: string): PoolGrades {
  // The pool aggregated once: choosing the default source aggregates it already.
  const { source, state } = defaultLabelSourceOf(ws, pool);
  const src = sourceLabels(ws, pool, source, source === AGGREGATE ? state : undefined);
  const out = new Map<string, Map<string, number>>();
  for (const [q, m] of src.values) {
    const g = new Map<string, number>();
    for (const [c, v] of m) {
      const grade = labelGrade(v);
      if (grade !== null) g.set(c, grade);
    }
    if (g.size) out.set(q, g);
  }
  return out;
}

/** A pool's runs as run → query → candidate → score (the features `ltr` fuses). */
export function poolRuns(ws: Workspace, pool: string, exclude: ReadonlySet<string> = new Set()): Record<string, Map<string, Map<string, number>>> {
  const out: Record<string, Map<string, Map<string, number>>> = {};
  for (const r of ws.listRuns(pool)) if (!exclude.has(r.name)) out[r.name] = ws.runScores(r.id);
  return out;
}

/** The per-query slice of pool runs that `score()` takes as context. */
export function queryContext(runs: Record<string, Map<string, Map<string, number>>>, queryId: string): { runs: RunScores } {
  const ctx: RunScores = {};
  for (const [name, byQuery] of Object.entries(runs)) ctx[name] = byQuery.get(queryId) ?? new Map();
  return { runs: ctx };
}

export interface BuiltTrainingData {
  data: TrainingData;
  positives: number;
  negatives: number;
  /** Answers passed as extraTexts, and how many were left out by the limits. */
  extraTexts: number;
  extraTextsLeftOut: number;
}

/** Bounds on the answers passed to the models as unlabeled text. */
export type { ExtraTextLimits } from '../models/worker-protocol';

/** Default bounds: 100,000 answers, 20 M characters (≈ 4 M tokens; SemEval-2016's 17,830 comments are 3.5 M). */
export const EXTRA_TEXT_LIMITS: Required<ExtraTextLimits> = { maxTexts: 100_000, maxChars: 20_000_000 };

/**
 * The workspace's answers in import order, as long as both limits hold (an answer that would
 * pass maxChars is left out, and so are all after it, so the choice does not depend on lengths
 * further on).
 */
export function answerTexts(ws: Workspace, limits: ExtraTextLimits = {}): { texts: string[]; leftOut: number } {
  const maxTexts = limits.maxTexts ?? EXTRA_TEXT_LIMITS.maxTexts;
  const maxChars = limits.maxChars ?? EXTRA_TEXT_LIMITS.maxChars;
  const texts: string[] = [];
  let chars = 0;
  if (maxTexts > 0) {
    for (const body of ws.iterateAnswerBodies()) {
      if (chars + body.length > maxChars) break;
      texts.push(body);
      chars += body.length;
      if (texts.length >= maxTexts) break;
    }
  }
  return { texts, leftOut: ws.answerCount() - texts.length };
}

/** Question id → the distinct authors of its answers and comments, in thread order (hnil's answerer edges). */
export function questionAnswerers(ws: Workspace): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const rows = ws.db
    .prepare(`SELECT question_id AS q, author FROM answers WHERE author IS NOT NULL AND author != '' ORDER BY question_id, position`)
    .iterate() as IterableIterator<{ q: string; author: string }>;
  for (const r of rows) {
    let list = out.get(r.q);
    if (!list) out.set(r.q, (list = []));
    if (!list.includes(r.author)) list.push(r.author);
  }
  return out;
}

/**
 * The labeled part of the training data: positive and negative pairs, and the ids whose text the
 * models need besides every question's (pool ids without a question row get an empty text), in the
 * order buildTrainingData meets them. Cheap (labels and pair tables only): the engine reads it on
 * its thread; the rest (every question and answer) is read where the model trains (readUnlabeled).
 */
export function labeledTrainingPairs(ws: Workspace, trainPools: readonly string[], excludeQueries: ReadonlySet<string> = new Set()): LabeledTrainingPairs {
  const seen = new Set<string>();
  const positives: Array<[string, string]> = [];
  const negatives: Array<[string, string]> = [];
  const textIds: string[] = [];
  const add = (list: Array<[string, string]>, a: string, b: string): void => {
    const k = `${a}\u0000${b}`;
    if (seen.has(k) || a === b) return;
    seen.add(k);
    list.push([a, b]);
  };
  const addPair = (list: Array<[string, string]>, a: string, b: string): void => {
    if (!excludeQueries.has(a) && !excludeQueries.has(b)) add(list, a, b);
  };
  if (trainPools.length === 0) for (const [a, b] of ws.duplicatePairs()) addPair(positives, a, b);
  for (const pool of trainPools) {
    for (const [q, grades] of poolGrades(ws, pool)) {
      if (excludeQueries.has(q)) continue;
      for (const [c, g] of grades) add(g >= 1 ? positives : negatives, q, c);
      textIds.push(q, ...grades.keys());
    }
  }
  if (trainPools.length > 0) for (const [a, b] of ws.duplicatePairs()) addPair(positives, a, b);
  for (const [a, b] of ws.negativePairs()) addPair(negatives, a, b);
  for (const [a, b] of [...positives, ...negatives]) textIds.push(a, b);
  return { positives, negatives, textIds };
}

/**
 * The unlabeled part of the training data (every question's text, the random-negative pool, the
 * training pools' runs, the answers as extra text, the answerers), read in one snapshot. The bulk
 * of the training data (~2 s on 100,000 questions and 224,000 answers): the train worker reads it
 * on its own connection (train-worker.ts), so the engine's thread never holds labels up for it.
 */
export function readUnlabeled(ws: Workspace, spec: UnlabeledSpec): Omit<TrainingData, 'positives' | 'negatives'> & { extraTextsLeftOut: number } {
  return ws.snapshot(() => {
    const questions = new Map<string, QText>();
    const all = ws.db.prepare(`SELECT id, title, body, tags, author, category FROM questions ORDER BY doc`).iterate() as IterableIterator<
      Parameters<typeof modelQuestion>[0]
    >;
    const randomPool: string[] = [];
    for (const q of all) {
      questions.set(q.id, modelQuestion(q));
      if (q.title || q.body) randomPool.push(q.id);
    }
    for (const id of spec.textIds) qtext(ws, id, questions);
    const exclude = new Set(spec.excludeRuns);
    const runs: Record<string, Map<string, Map<string, number>>> = {};
    for (const pool of spec.trainPools) {
      for (const [name, byQuery] of Object.entries(poolRuns(ws, pool, exclude))) {
        const into = (runs[name] ??= new Map());
        for (const [q, m] of byQuery) into.set(q, m);
      }
    }
    const extra = answerTexts(ws, spec.extraTexts);
    const answerers = questionAnswerers(ws);
    return {
      questions,
      randomPool,
      runs,
      ...(extra.texts.length ? { extraTexts: extra.texts } : {}),
      ...(answerers.size ? { answerers } : {}),
      extraTextsLeftOut: extra.leftOut,
    };
  });
}

/** The training data from its two parts (labeledTrainingPairs, readUnlabeled). */
export function joinTrainingData(pairs: Pick<LabeledTrainingPairs, 'positives' | 'negatives'>, unlabeled: ReturnType<typeof readUnlabeled>): BuiltTrainingData {
  const { extraTextsLeftOut, ...rest } = unlabeled;
  const { questions, randomPool, runs, extraTexts, answerers } = rest;
  return {
    data: {
      questions,
      positives: pairs.positives,
      negatives: pairs.negatives,
      randomPool,
      runs,
      ...(extraTexts ? { extraTexts } : {}),
      ...(answerers ? { answerers } : {}),
    },
    positives: pairs.positives.length,
    negatives: pairs.negatives.length,
    extraTexts: extraTexts?.length ?? 0,
    extraTextsLeftOut,
  };
}

/** What a training read, as the stored model's training info counts it (from joinTrainingData's result). */
export function readCounts(b: BuiltTrainingData): ReadCounts {
  return { questions: b.data.questions.size, extraTexts: b.extraTexts, extraTextsLeftOut: b.extraTextsLeftOut };
}

export function buildTrainingData(
  ws: Workspace,
  trainPools: readonly string[],
  opts: {
    excludeRuns?: ReadonlySet<string>;
    extraTexts?: ExtraTextLimits;
    /**
     * Questions left out of the labeled data: a training pool's query in the set loses all its
     * pairs, and so does a duplicate or negative pair with either end in it (held-out folds, or
     * queries that overlap the dev pool). Their text stays unlabeled text.
     */
    excludeQueries?: ReadonlySet<string>;
  } = {},
): BuiltTrainingData {
  const pairs = labeledTrainingPairs(ws, trainPools, opts.excludeQueries);
  return joinTrainingData(pairs, readUnlabeled(ws, unlabeledSpec(trainPools, pairs, opts)));
}

/** What readUnlabeled reads for these pools and pairs (plain data: it crosses to the train worker). */
export function unlabeledSpec(trainPools: readonly string[], pairs: Pick<LabeledTrainingPairs, 'textIds'>, opts: { excludeRuns?: ReadonlySet<string>; extraTexts?: ExtraTextLimits } = {}): UnlabeledSpec {
  return { trainPools: [...trainPools], excludeRuns: [...(opts.excludeRuns ?? [])], textIds: pairs.textIds, ...(opts.extraTexts ? { extraTexts: opts.extraTexts } : {}) };
}

/** The training pairs as query → candidate → relevant (a pair both relevant and not counts as relevant, as ltr and fused read it). */
export { labeledLists } from '../models/ranksvm';

/** A query's relevant candidates for training and dev figures: those graded 1 or more (unlabeled ones are not). */
export function relevantAmong(candidates: readonly string[], grades: ReadonlyMap<string, number>): Set<string> {
  return new Set(candidates.filter((c) => (grades.get(c) ?? 0) >= 1));
}

/**
 * A labeled pool as a dev set: each labeled query, its candidates (pool order) and relevant ids.
 * Under the pool's convention: a `skip` pool (AskUbuntu's) leaves out the queries without a
 * relevant candidate, as `eval` does — the models' dev figures count them as 0, so a tfidf trained
 * with such a dev pool reported dev MAP 34.00 where `qpairs eval` gave it 68.00. (Which epoch is
 * best does not change: those queries add 0 to every epoch.)
 */
export function buildDevSet(ws: Workspace, pool: string, opts: { excludeRuns?: ReadonlySet<string> } = {}): DevSet {
  const grades = poolGrades(ws, pool);
  const runs = poolRuns(ws, pool, opts.excludeRuns);
  const cache = new Map<string, QText>();
  const skip = ws.poolConvention(pool) === 'skip';
  return {
    queries: ws
      .poolQueries(pool)
      .filter((q) => grades.has(q.queryId))
      .map((q) => {
        return { q, relevant: relevantAmong(q.candidates, grades.get(q.queryId)!) };
      })
      .filter(({ relevant }) => !skip || relevant.size > 0)
      .map(({ q, relevant }) => ({
        query: qtext(ws, q.queryId, cache),
        candidates: q.candidates.map((c) => qtext(ws, c, cache)),
        relevant,
        context: queryContext(runs, q.queryId),
      })),
  };
}

/** A labeled query of the training pools, with its text (for the overlap check and CV folds). */
export interface TrainingQuery {
  id: string;
  title: string;
  body: string;
  /** The first training pool that labels it. */
  pool: string;
  /** candidate id → grade, over every training pool that labels the query. */
  grades: Map<string, number>;
}

/** The labeled queries of the training pools, in pool then pool-query order, each once. */
export function trainingQueries(ws: Workspace, pools: readonly string[]): TrainingQuery[] {
  const out = new Map<string, TrainingQuery>();
  for (const pool of pools) {
    const grades = poolGrades(ws, pool);
    for (const q of ws.poolQueries(pool)) {
      const g = grades.get(q.queryId);
      if (!g) continue;
      const seen = out.get(q.queryId);
      if (seen) {
        for (const [c, v] of g) if (!seen.grades.has(c)) seen.grades.set(c, v);
        continue;
      }
      const r = ws.getQuestion(q.queryId);
      out.set(q.queryId, { id: q.queryId, title: r?.title ?? '', body: r?.body ?? '', pool, grades: new Map(g) });
    }
  }
  return [...out.values()];
}

/**
 * Some labeled queries of the training pools as a dev set (a held-out fold): each query with its
 * first pool's candidates (pool order), relevant ids (grade ≥ 1) and that pool's runs.
 */
export function trainingDevSet(ws: Workspace, queries: readonly TrainingQuery[], opts: { excludeRuns?: ReadonlySet<string> } = {}): DevSet {
  const cache = new Map<string, QText>();
  const byPool = new Map<string, { runs: Record<string, Map<string, Map<string, number>>>; candidates: Map<string, string[]> }>();
  const pool = (name: string) => {
    let p = byPool.get(name);
    if (!p) {
      p = { runs: poolRuns(ws, name, opts.excludeRuns), candidates: new Map(ws.poolQueries(name).map((q) => [q.queryId, q.candidates])) };
      byPool.set(name, p);
    }
    return p;
  };
  return {
    queries: queries.map((q) => {
      const p = pool(q.pool);
      const candidates = p.candidates.get(q.id) ?? [...q.grades.keys()];
      return {
        query: qtext(ws, q.id, cache),
        candidates: candidates.map((c) => qtext(ws, c, cache)),
        relevant: relevantAmong(candidates, q.grades),
        context: queryContext(p.runs, q.id),
      };
    }),
  };
}

/**
 * Every query of a pool with its candidates' texts and run context, for batch scoring; `only`: just
 * these queries, in this order (ids the pool lacks left out); `except`: the pool's others, in pool order.
 */
export function scoringItems(ws: Workspace, pool: string, opts: { excludeRuns?: ReadonlySet<string>; only?: readonly string[]; except?: readonly string[] } = {}) {
  const runs = poolRuns(ws, pool, opts.excludeRuns);
  const cache = new Map<string, QText>();
  let lists = ws.poolQueries(pool);
  if (opts.only) {
    const byId = new Map(lists.map((q) => [q.queryId, q]));
    lists = opts.only.flatMap((id) => byId.get(id) ?? []);
  }
  if (opts.except) {
    const except = new Set(opts.except);
    lists = lists.filter((q) => !except.has(q.queryId));
  }
  return lists.map((q) => ({
    queryId: q.queryId,
    query: qtext(ws, q.queryId, cache),
    candidates: q.candidates.map((c) => qtext(ws, c, cache)),
    ctx: queryContext(runs, q.queryId),
  }));
}

/** The selected queries' scoring items (scoringItems), read in one snapshot. */
export function readScoringSelection(ws: Workspace, sel: ScoringSelection): ReturnType<typeof scoringItems> {
  return ws.snapshot(() =>
    scoringItems(ws, sel.pool, { excludeRuns: new Set(sel.excludeRuns), ...(sel.only ? { only: sel.only } : {}), ...(sel.except ? { except: sel.except } : {}) }),
  );
}
