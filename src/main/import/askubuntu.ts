/** AskUbuntu (Lei et al. 2016) pair and evaluation files. The corpus importer is in questions.ts. */
import { IdLines } from './questions';
import { addPairs, annotatorName, labelValue, openPool, openRun, origin, putLabel, putRunScore, requireScheme } from './pools';
import { baseName, fileError, readFields } from './reader';
import { parseScore, scoreRefusal } from './runs';
import type { PoolInfo } from '../../shared/types';
import { optionName, type ImportContext, type Importer } from './types';

function ids(field: string | undefined): string[] {
  const s = (field ?? '').trim();
  return s ? s.split(/\s+/) : [];
}

const SOURCE = 'askubuntu';

/**
 * `train_random.txt`: `query \t similar ids \t random ids`. Each similar id → a duplicate pair
 * (query marked duplicate of it; source askubuntu), each random id → a negative pair.
 */
export const askubuntuPairs: Importer = {
  name: 'askubuntu-pairs',
  description: 'AskUbuntu train_random.txt: query <tab> similar ids <tab> random ids',
  async importFile(ctx, file) {
    for await (const { fields, line } of readFields(ctx, file, '\t')) {
      if (fields.length < 2 || fields.length > 3) {
        throw fileError(file, line, `expected 3 tab-separated fields (query, similar ids, random ids), found ${fields.length}`);
      }
      const q = fields[0]!.trim();
      if (!q || /\s/.test(q)) throw fileError(file, line, `bad query id ${JSON.stringify(fields[0])}`);
      for (const s of ids(fields[1])) {
        if (s === q) {
          ctx.skip('selfPair');
          continue;
        }
        ctx.count(ctx.ws.addDuplicatePair(q, s, SOURCE) ? 'duplicatePairs' : 'duplicatePairsKnown');
      }
      for (const r of ids(fields[2])) {
        if (r === q) {
          ctx.skip('selfPair');
          continue;
        }
        ctx.count(ctx.ws.addNegativePair(q, r, SOURCE) ? 'negativePairs' : 'negativePairsKnown');
      }
      ctx.tick();
    }
  },
};

/**
 * The ids of an AskUbuntu file held in the workspace by a question of another source: ids are one
 * namespace, so that question's text would stand for the AskUbuntu question of the same number
 * (a Stack Exchange dump of another site numbers its posts from 1 too). An error naming the line;
 * each id is looked up once per file.
 */
class ForeignIds {
  private readonly seen = new Set<string>();
  private readonly source: string;
  constructor(
    private readonly ctx: ImportContext,
    private readonly file: string,
  ) {
    this.source = ctx.opts.source?.trim() || SOURCE;
  }

  check(id: string, line: number): void {
    if (this.seen.has(id)) return;
    this.seen.add(id);
    const held = this.ctx.ws.stmt(`SELECT source FROM questions WHERE id = ?`).pluck().get(id) as string | undefined;
    if (held === undefined || held === this.source) return;
    throw fileError(
      this.file,
      line,
      `question ${id} of this workspace comes from source "${held}", not ${this.source}: its text would stand for AskUbuntu question ${id}. ` +
        `Import AskUbuntu into a workspace of its own, or give ${optionName(this.ctx, 'source', held)} if these are that corpus's questions`,
    );
  }
}

/**
 * `dev.txt` / `test.txt`: `query \t similar ids \t candidate ids \t BM25 scores`. Into the pool
 * opts.pool ?? the file's base name (binary scheme, retriever bm25-lucene): queries and their
 * candidates in file order (candidates without text in the workspace are kept as ids); labels by
 * opts.annotator ?? gold (1 for similar ids, 0 for the other candidates); the scores as the run
 * `bm25-lucene` (equal scores rank in pool = file order, as Lucene returned them). An id the
 * workspace holds from another source than opts.source ?? askubuntu is an error (ForeignIds). A similar id
 * that is not among the candidates is counted (`skipped.similarNotInCandidates`) and warned about.
 */
export const askubuntuPool: Importer = {
  name: 'askubuntu-pool',
  description: 'AskUbuntu dev.txt/test.txt: query <tab> similar <tab> candidates <tab> BM25 scores (a pool with labels and a run)',
  async importFile(ctx, file) {
    const name = ctx.opts.pool?.trim() || baseName(file);
    const pool = openPool(ctx, { name, scheme: 'binary', retriever: 'bm25-lucene', sampling: 'BM25 top 20 (Lei et al. 2016)', convention: 'skip' });
    requireScheme(ctx, pool, ['binary']);
    const run = openRun(ctx, pool, 'bm25-lucene', { format: ctx.format, file });
    const annotator = annotatorName(ctx);
    const from = origin(ctx, file);
    const queries = new IdLines(file);
    const one = labelValue(file, 0, pool, '1');
    const zero = labelValue(file, 0, pool, '0');
    let notIn = 0;
    const foreign = new ForeignIds(ctx, file);
    /** Every line lists the same number of candidates (20 in the released files): the first line's. */
    let expected: { n: number; line: number } | null = null;
    for await (const { fields, line } of readFields(ctx, file, '\t')) {
      if (fields.length !== 4) throw fileError(file, line, `expected 4 tab-separated fields (query, similar ids, candidate ids, scores), found ${fields.length}`);
      const q = fields[0]!.trim();
      if (!q || /\s/.test(q)) throw fileError(file, line, `bad query id ${JSON.stringify(fields[0])}`);
      queries.add(q, line, 'query');
      const similar = ids(fields[1]);
      const cands = ids(fields[2]);
      const scoreTexts = ids(fields[3]);
      if (cands.length !== scoreTexts.length) throw fileError(file, line, `${cands.length} candidates but ${scoreTexts.length} scores`);
      const scores = scoreTexts.map((t) => {
        const v = parseScore(t);
        if (v === null || !Number.isFinite(v)) throw fileError(file, line, scoreRefusal(t));
        return v;
      });
      if (cands.length === 0) throw fileError(file, line, 'no candidates');
      expected ??= { n: cands.length, line };
      if (cands.length !== expected.n) {
        throw fileError(
          file,
          line,
          `${cands.length} candidates, but line ${expected.line} has ${expected.n}: every line of the file must list the same number of BM25 candidates`,
        );
      }
      const seen = new Set<string>();
      for (const c of cands) {
        if (c === q) throw fileError(file, line, `the query ${q} is among its own candidates`);
        if (seen.has(c)) throw fileError(file, line, `candidate ${c} is listed twice`);
        seen.add(c);
      }
      const sim = new Set(similar);
      for (const s of sim) {
        if (!seen.has(s)) {
          if (ctx.opts.strict) throw fileError(file, line, `similar question ${s} of query ${q} is not among its candidates (${optionName(ctx, 'strict')})`);
          notIn++;
          ctx.skip('similarNotInCandidates');
          if (notIn <= 5) ctx.warn(`${file}, line ${line}: similar question ${s} of query ${q} is not among its candidates; not labelled`);
        }
      }
      if (!similar.some((s) => seen.has(s))) ctx.count('queriesWithoutSimilar');
      for (const id of [q, ...cands]) foreign.check(id, line);
      addPairs(ctx, pool, q, cands);
      cands.forEach((c, i) => {
        putLabel(ctx, pool, q, c, annotator, sim.has(c) ? one : zero, from);
        putRunScore(ctx, run, q, c, scores[i]!);
      });
      ctx.tick();
    }
    if (notIn > 5) ctx.warn(`${file}: ${notIn} similar ids in all are not among their query's candidates`);
    warnTextless(ctx, pool);
  },
};

/**
 * The pool's question ids the workspace has no text for (AskUbuntu's pool files list ids only): said,
 * with the import that brings the texts — the report said "warnings: none", and the owner found the
 * pool's queries and candidates shown as bare ids only on the Annotate screen.
 */
function warnTextless(ctx: ImportContext, pool: PoolInfo): void {
  const c = ctx.ws.poolTextCoverage(pool.id);
  const r = { n: c.questions - c.withText, example: c.textlessExample, total: c.questions };
  if (r.n === 0) return;
  const n = r.n.toLocaleString('en-US');
  ctx.warn(
    `pool "${pool.name}": ${n} of its ${r.total.toLocaleString('en-US')} questions have no text in the workspace (e.g. ${r.example}): ` +
      `annotators see ids only — import their texts with askubuntu-corpus (AskUbuntu's text_tokenized file)`,
  );
}
