/**
 * SemEval-2016 Task 3 subtask B (Qatar Living question–question similarity) as the benchmark
 * protocols see it (scripts/bench/semeval-models.ts):
 *
 *  - distinct training queries: train part1 v2.0 + part2 grouped into near-duplicate clusters
 *    (src/main/overlap, Jaccard ≥ 0.9 over word 3-shingles); each cluster is one query, the member
 *    with the most labeled candidates (ties: the later file, part2) — 117 queries, 1,170 candidates;
 *  - clean dev: train on part2 alone, evaluate the 50 dev queries (all of them are copies of
 *    part1's Q1–Q50);
 *  - literal (leaky) dev: train on every query of part1 + part2, evaluate dev.
 *
 * Unlabeled text for idf / embeddings: every question text of the three files (no labels) and every
 * comment — the workspace's text after importing them.
 */
import path from 'node:path';
import { SaxesParser } from 'saxes';
import { readPlainOrGz } from './datasets-dir';
import type { DevSet, QText, TrainingData } from '../../src/main/models';
import { nearDuplicateClusters } from '../../src/main/overlap';

export interface SemRel {
  id: string;
  subject: string;
  body: string;
  rank: number;
  relevance: string;
  category: string;
  user: string;
  /** RELC_USERID of the question's comments, distinct, in thread order (hnil's answerer edges). */
  commenters: string[];
}
export interface SemOrg {
  id: string;
  subject: string;
  body: string;
  rel: SemRel[];
}
export interface SemFile {
  orgs: SemOrg[];
  comments: string[];
}

export function parseSemEval(file: string): SemFile {
  const xml = readPlainOrGz(file);
  const parser = new SaxesParser({ xmlns: false });
  const orgs = new Map<string, SemOrg>();
  const comments: string[] = [];
  let org: SemOrg | null = null;
  let rel: SemRel | null = null;
  let field: string | null = null;
  let text = '';
  parser.on('opentag', (tag) => {
    const a = tag.attributes as Record<string, string>;
    switch (tag.name) {
      case 'OrgQuestion': {
        const id = a.ORGQ_ID;
        org = orgs.get(id) ?? { id, subject: '', body: '', rel: [] };
        orgs.set(id, org);
        break;
      }
      case 'RelQuestion':
        rel = {
          id: a.RELQ_ID,
          subject: '',
          body: '',
          rank: Number(a.RELQ_RANKING_ORDER),
          relevance: a.RELQ_RELEVANCE2ORGQ,
          category: a.RELQ_CATEGORY ?? '',
          user: a.RELQ_USERID ?? '',
          commenters: [],
        };
        break;
      case 'RelComment': {
        const r = rel as SemRel | null;
        const u = a.RELC_USERID?.trim();
        if (r && u && !r.commenters.includes(u)) r.commenters.push(u);
        break;
      }
      case 'OrgQSubject':
      case 'OrgQBody':
      case 'RelQSubject':
      case 'RelQBody':
      case 'RelCText':
        field = tag.name;
        text = '';
        break;
    }
  });
  const onText = (t: string) => {
    if (field) text += t;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', (tag) => {
    const o = org as SemOrg | null;
    const r = rel as SemRel | null;
    switch (tag.name) {
      case 'OrgQSubject':
        if (o) o.subject = text.trim();
        break;
      case 'OrgQBody':
        if (o) o.body = text.trim();
        break;
      case 'RelQSubject':
        if (r) r.subject = text.trim();
        break;
      case 'RelQBody':
        if (r) r.body = text.trim();
        break;
      case 'RelCText':
        comments.push(text.trim());
        break;
      case 'RelQuestion':
        if (o && r && !o.rel.some((x) => x.id === r.id)) o.rel.push(r);
        rel = null;
        break;
    }
    if (tag.name === field) field = null;
  });
  parser.write(xml).close();
  for (const o of orgs.values()) o.rel.sort((x, y) => x.rank - y.rank);
  return { orgs: [...orgs.values()], comments };
}

export const isRelevant = (r: SemRel): boolean => r.relevance === 'PerfectMatch' || r.relevance === 'Relevant';

export const SEMEVAL_FILES = {
  part1: 'SemEval2016-Task3-CQA-QL-train-part1.v2.0.xml',
  part2: 'SemEval2016-Task3-CQA-QL-train-part2.xml',
  dev: 'SemEval2016-Task3-CQA-QL-dev.xml',
};

export interface SemEvalData {
  part1: SemOrg[];
  part2: SemOrg[];
  dev: SemOrg[];
  /** One query per near-duplicate cluster of part1 + part2 (the member with most candidates). */
  distinct: SemOrg[];
  /** Distinct query id → cluster index (for grouped folds). */
  clusterOf: Map<string, number>;
  /** Every part1 + part2 query id → its near-duplicate cluster (folds over any training set). */
  trainClusterOf: Map<string, number>;
  /** Every question text of the three files (queries with their own ids, candidates with category/asker). */
  questions: Map<string, QText>;
  comments: string[];
  /** The search engine's order as a run: query id → candidate id → −rank. */
  engine: Map<string, Map<string, number>>;
  /** Candidate id → its commenters (hnil's network). */
  answerers: Map<string, string[]>;
}

export function loadSemEvalData(dir: string): SemEvalData {
  const p1 = parseSemEval(path.join(dir, SEMEVAL_FILES.part1));
  const p2 = parseSemEval(path.join(dir, SEMEVAL_FILES.part2));
  const dv = parseSemEval(path.join(dir, SEMEVAL_FILES.dev));
  const questions = new Map<string, QText>();
  const engine = new Map<string, Map<string, number>>();
  const answerers = new Map<string, string[]>();
  for (const o of [...p1.orgs, ...p2.orgs, ...dv.orgs]) {
    for (const r of o.rel) if (r.commenters.length) answerers.set(r.id, r.commenters);
    questions.set(o.id, { id: o.id, title: o.subject, body: o.body });
    engine.set(o.id, new Map(o.rel.map((r) => [r.id, -r.rank])));
    for (const r of o.rel) questions.set(r.id, { id: r.id, title: r.subject, body: r.body, category: r.category, user: r.user });
  }
  const train = [...p1.orgs, ...p2.orgs];
  const clusters = nearDuplicateClusters(train.map((o) => ({ id: o.id, title: o.subject, body: o.body })));
  const best = new Map<number, SemOrg>();
  for (const o of train) {
    const c = clusters.get(o.id)!;
    const b = best.get(c);
    if (!b || o.rel.length >= b.rel.length) best.set(c, o);
  }
  const distinct = [...best.values()];
  const clusterOf = new Map(distinct.map((o) => [o.id, clusters.get(o.id)!]));
  return { part1: p1.orgs, part2: p2.orgs, dev: dv.orgs, distinct, clusterOf, trainClusterOf: clusters, questions, comments: [...p1.comments, ...p2.comments, ...dv.comments], engine, answerers };
}

/** Training data of the given queries' labeled candidates; `questions`/`extraTexts` hold all unlabeled text. */
export function trainingData(d: SemEvalData, orgs: readonly SemOrg[]): TrainingData {
  const positives: Array<[string, string]> = [];
  const negatives: Array<[string, string]> = [];
  const pool = new Set<string>();
  for (const o of orgs) {
    pool.add(o.id);
    for (const r of o.rel) {
      pool.add(r.id);
      (isRelevant(r) ? positives : negatives).push([o.id, r.id]);
    }
  }
  return { questions: d.questions, positives, negatives, randomPool: [...pool], extraTexts: d.comments, answerers: d.answerers };
}

/** Evaluation lists of the given queries (engine run in each query's context). */
export function devSet(d: SemEvalData, orgs: readonly SemOrg[]): DevSet {
  return {
    queries: orgs.map((o) => ({
      query: d.questions.get(o.id)!,
      candidates: o.rel.map((r) => d.questions.get(r.id)!),
      relevant: new Set(o.rel.filter(isRelevant).map((r) => r.id)),
      context: { runs: { engine: d.engine.get(o.id)! } },
    })),
  };
}
