/**
 * Quality benchmark of the research rerankers on SemEval-2016 Task 3 subtask B (question–question
 * similarity, Qatar Living): train every model with its defaults on train-part1.v2.0 + train-part2,
 * report dev MAP (official convention: all 50 dev queries, AP = 0 when a query has no relevant
 * candidate) against the search engine's order (71.35).
 *
 *   node_modules/.bin/esbuild scripts/bench/semeval-models.ts --bundle --platform=node --format=esm \
 *     --packages=external --outfile=out/bench/semeval-models.mjs && node_modules/.bin/node out/bench/semeval-models.mjs
 *
 * Flags: --literal     train on all 170 training questions (see the contamination note below)
 *        --models a,b  subset of models        --ltr-neural  add cross-fitted bow-cnn scores to ltr
 *        --dev-select  pass dev to train() (best epoch by dev MRR; optimistic numbers)
 *        --data DIR    data directory (default ../shared/data/semeval2016-task3)
 *
 * Contamination: dev.xml's 50 original questions are train-part1's Q1–Q50 renumbered, with the
 * same related questions (436/500 identical labels). By default those 50 training questions are
 * dropped (120 training questions, 783 labeled pairs remain); --literal keeps them, and then
 * supervised models are scored on pairs they were trained on.
 *
 * Unlabeled text used for vocabularies/embeddings/idf: all question texts (train and dev, no
 * labels) and the training threads' comments.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SaxesParser } from 'saxes';
import {
  createModel,
  evaluateScores,
  SkipGramRanker,
  type DevSet,
  type QText,
  type Ranker,
  type TrainingData,
  type WordVectors,
} from '../../src/main/models';
import { backendName, initBackend } from '../../src/main/models/backend';

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

// ------------------------------------------------------------------------------------------
// Benchmark

const argv = process.argv.slice(2);
const opt = (name: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const has = (name: string) => argv.includes(`--${name}`);

interface Result {
  model: string;
  map: number;
  mrr: number;
  seconds: number;
  note?: string;
}

function runScores(m: Ranker, orgs: SemOrg[], Q: ReadonlyMap<string, QText>): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (const o of orgs) {
    const cands = o.rel.map((r) => Q.get(r.id)!);
    const s = m.score(Q.get(o.id)!, cands);
    out.set(o.id, new Map(cands.map((c, i) => [c.id, s[i]])));
  }
  return out;
}

function devResult(model: string, dev: DevSet, scores: (i: number) => number[], seconds: number, note?: string): Result {
  const r = evaluateScores(dev.queries.map((q, i) => ({ candidateIds: q.candidates.map((c) => c.id), scores: scores(i), relevant: q.relevant })));
  return { model, map: r.map * 100, mrr: r.mrr * 100, seconds, note };
}

/** Scores of a supervised model for every training query from a model that did not see it (k folds). */
async function crossFitted(kind: string, sp: SemEvalSplit, emb: WordVectors, k: number): Promise<Map<string, Map<string, number>>> {
  const Q = sp.data.questions;
  const out = new Map<string, Map<string, number>>();
  for (let f = 0; f < k; f++) {
    const keep = new Set(sp.trainOrgs.filter((_, i) => i % k !== f).map((o) => o.id));
    const relOf = new Set(sp.trainOrgs.filter((o) => keep.has(o.id)).flatMap((o) => [o.id, ...o.rel.map((r) => r.id)]));
    const data: TrainingData = {
      ...sp.data,
      positives: sp.data.positives.filter(([q]) => keep.has(q)),
      negatives: sp.data.negatives?.filter(([q]) => keep.has(q)),
      randomPool: sp.data.randomPool.filter((id) => relOf.has(id)),
    };
    const m = await createModel(kind);
    await m.train(data, { embeddings: emb, seed: 1 });
    for (const [q, s] of runScores(
      m,
      sp.trainOrgs.filter((_, i) => i % k === f),
      Q,
    ))
      out.set(q, s);
    m.dispose();
  }
  return out;
}

async function main() {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const dir = opt('data') ?? path.resolve(here, '../../../shared/data/semeval2016-task3');
  const literal = has('literal');
  const models = (opt('models') ?? 'skipgram,tfidf,bow-cnn,cnn,lstm,gru,rcnn,ltr').split(',');
  const sp = loadSemEval(dir, !literal);
  const Q = sp.data.questions;
  await initBackend();
  console.error(
    `SemEval-2016 3B: ${sp.trainOrgs.length} training questions (${sp.data.positives.length} positive, ${sp.data.negatives!.length} negative pairs)` +
      `${sp.dropped.length ? `, dropped ${sp.dropped.length} duplicated in dev` : ''}; ${sp.dev.queries.length} dev queries; backend ${backendName()}`,
  );
  const results: Result[] = [];
  results.push(devResult('search engine order (baseline)', sp.dev, (i) => sp.dev.queries[i].candidates.map((c) => sp.engine.get(sp.dev.queries[i].query.id)!.get(c.id)!), 0));
  const dev = has('dev-select') ? sp.dev : undefined;
  const trained = new Map<string, Ranker>();
  const t0 = performance.now();
  const sg = new SkipGramRanker();
  await sg.train(sp.data);
  const sgSeconds = (performance.now() - t0) / 1000;
  const emb = sg.vectors();
  trained.set('skipgram', sg);
  const score = (m: Ranker) => (i: number) => m.score(sp.dev.queries[i].query, sp.dev.queries[i].candidates);
  for (const kind of models) {
    if (kind === 'ltr') continue;
    let m: Ranker;
    let seconds = sgSeconds;
    let note: string | undefined;
    if (kind === 'skipgram') m = sg;
    else {
      const t = performance.now();
      m = await createModel(kind);
      const rep = await m.train(sp.data, { embeddings: emb, dev, seed: 1 });
      seconds = (performance.now() - t) / 1000;
      note = `${rep.epochs} epochs${dev ? `, kept epoch ${rep.bestEpoch}` : ''}`;
      trained.set(kind, m);
    }
    const r = devResult(kind, sp.dev, score(m), seconds, note);
    results.push(r);
    console.error(`${kind}: dev MAP ${r.map.toFixed(2)} (${seconds.toFixed(0)} s)`);
  }
  if (models.includes('ltr')) {
    const variants: Array<{ name: string; runs: Record<string, Map<string, Map<string, number>>> }> = [{ name: 'ltr (engine rank + lexical/embedding features)', runs: { engine: sp.engine } }];
    if (has('ltr-neural')) {
      const runs: Record<string, Map<string, Map<string, number>>> = { engine: sp.engine };
      const t = performance.now();
      for (const kind of ['bow-cnn']) {
        const m = trained.get(kind) ?? (await createModel(kind));
        if (!trained.has(kind)) await m.train(sp.data, { embeddings: emb, seed: 1 });
        const run = await crossFitted(kind, sp, emb, 5);
        for (const [q, s] of runScores(m, sp.devOrgs, Q)) run.set(q, s);
        runs[kind] = run;
      }
      console.error(`cross-fitted neural runs in ${((performance.now() - t) / 1000).toFixed(0)} s`);
      variants.push({ name: 'ltr + cross-fitted bow-cnn scores', runs });
    }
    for (const v of variants) {
      const t = performance.now();
      const m = await createModel('ltr');
      const rep = await m.train({ ...sp.data, runs: v.runs }, { embeddings: emb, dev, seed: 1 });
      const seconds = (performance.now() - t) / 1000;
      const r = devResult(
        v.name,
        sp.dev,
        (i) => {
          const d = sp.dev.queries[i];
          return m.score(d.query, d.candidates, { runs: Object.fromEntries(Object.entries(v.runs).map(([k, run]) => [k, run.get(d.query.id)!])) });
        },
        seconds,
        rep.notes?.[1],
      );
      results.push(r);
      console.error(`${v.name}: dev MAP ${r.map.toFixed(2)}`);
    }
  }
  const base = results[0].map;
  console.log(`\n## SemEval-2016 Task 3 subtask B, dev (50 queries, AP = 0 without relevant candidates)${literal ? ' — LITERAL protocol, dev questions also in training' : ''}\n`);
  console.log('| model | dev MAP | Δ vs engine | dev MRR | train s | notes |\n|---|---|---|---|---|---|');
  for (const r of results)
    console.log(`| ${r.model} | ${r.map.toFixed(2)} | ${r === results[0] ? '' : (r.map - base >= 0 ? '+' : '') + (r.map - base).toFixed(2)} | ${r.mrr.toFixed(2)} | ${r.seconds.toFixed(0)} | ${r.note ?? ''} |`);
  for (const m of trained.values()) m.dispose();
}

await main();
