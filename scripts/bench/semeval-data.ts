/**
 * SemEval-2016 Task 3 subtask B loader for the model benchmarks (a quick saxes-based reader,
 * local to the benchmarks until the importer module offers one).
 *
 * OrgQuestion (OrgQSubject/OrgQBody) is repeated once per thread; each thread has one
 * RelQuestion (RelQSubject/RelQBody, RELQ_RANKING_ORDER = search-engine rank,
 * RELQ_RELEVANCE2ORGQ = PerfectMatch | Relevant | Irrelevant) and its RelComments.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SaxesParser } from 'saxes';
import type { DevSet, QText, TrainingData } from '../../src/main/models/types';

export interface SemRel {
  id: string;
  subject: string;
  body: string;
  rank: number;
  relevance: string;
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
  const xml = readFileSync(file, 'utf8');
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
        rel = { id: a.RELQ_ID, subject: '', body: '', rank: Number(a.RELQ_RANKING_ORDER), relevance: a.RELQ_RELEVANCE2ORGQ };
        break;
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

export const isRelevant = (r: SemRel) => r.relevance === 'PerfectMatch' || r.relevance === 'Relevant';

export interface SemEvalSplit {
  /** Training data (train part1 + part2); `questions` also holds the dev texts (unlabeled). */
  data: TrainingData;
  trainOrgs: SemOrg[];
  devOrgs: SemOrg[];
  dev: DevSet;
  /** The search engine's order as a run: −rank. */
  engine: Map<string, Map<string, number>>;
}

const norm = (o: { subject: string; body: string }) => `${o.subject}\n${o.body}`.toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * dev.xml's 50 original questions (Q268–Q317) are renumbered copies of train-part1's Q1–Q50,
 * with the same related questions (436 of 500 labels equal). With `decontaminate` (default) the
 * training original questions whose text equals a dev original question are dropped, so trained
 * models are not scored on their own training pairs.
 */
export function loadSemEval(dir: string, decontaminate = true): SemEvalSplit & { dropped: string[] } {
  const p1 = parseSemEval(path.join(dir, 'SemEval2016-Task3-CQA-QL-train-part1.v2.0.xml'));
  const p2 = parseSemEval(path.join(dir, 'SemEval2016-Task3-CQA-QL-train-part2.xml'));
  const dv = parseSemEval(path.join(dir, 'SemEval2016-Task3-CQA-QL-dev.xml'));
  const devKeys = new Set(dv.orgs.map(norm));
  const allTrain = [...p1.orgs, ...p2.orgs];
  const trainOrgs = decontaminate ? allTrain.filter((o) => !devKeys.has(norm(o))) : allTrain;
  const dropped = allTrain.filter((o) => !trainOrgs.includes(o)).map((o) => o.id);
  const questions = new Map<string, QText>();
  const q = (id: string, title: string, body: string) => {
    const t = { id, title, body };
    questions.set(id, t);
    return t;
  };
  const positives: Array<[string, string]> = [];
  const negatives: Array<[string, string]> = [];
  const randomPool: string[] = [];
  const engine = new Map<string, Map<string, number>>();
  for (const o of trainOrgs) {
    q(o.id, o.subject, o.body);
    randomPool.push(o.id);
    const m = new Map<string, number>();
    for (const r of o.rel) {
      q(r.id, r.subject, r.body);
      randomPool.push(r.id);
      (isRelevant(r) ? positives : negatives).push([o.id, r.id]);
      m.set(r.id, -r.rank);
    }
    engine.set(o.id, m);
  }
  const dev: DevSet = { queries: [] };
  for (const o of dv.orgs) {
    const query = q(o.id, o.subject, o.body);
    const candidates = o.rel.map((r) => q(r.id, r.subject, r.body));
    const m = new Map<string, number>(o.rel.map((r) => [r.id, -r.rank]));
    engine.set(o.id, m);
    dev.queries.push({ query, candidates, relevant: new Set(o.rel.filter(isRelevant).map((r) => r.id)) });
  }
  return {
    data: { questions, positives, negatives, randomPool: [...new Set(randomPool)], extraTexts: [...p1.comments, ...p2.comments] },
    trainOrgs,
    devOrgs: dv.orgs,
    dev,
    engine,
    dropped,
  };
}
