/** trec-run: rankers' scores into a pool. */
import type { PoolInfo } from '../../shared/types';
import { NotFoundError } from '../errors';
import { openRun, pairPosition, putRunScore, requirePoolName } from './pools';
import { fileError, readFields } from './reader';
import { poolCreateName, type ImportContext, type Importer } from './types';

interface RunEntry {
  tag: string;
  doc: string;
  rank: number;
  score: number;
  line: number;
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A decimal number as written in run files (no hex, no empty string, finite), or null. */
export function parseScore(s: string): number | null {
  if (!NUMBER.test(s)) return null;
  const v = Number(s);
  return Number.isFinite(v) ? v : null;
}

/**
 * Why a score field is refused (parseScore gave null). Infinite and NaN scores — a system's "-inf"
 * for a candidate it filtered out, a "nan" from a division by zero, 1e400 — are numbers to the
 * writer, so "is not a number" misled: they are named for what they are, with what to do instead.
 */
export function scoreRefusal(s: string): string {
  const what = JSON.stringify(s);
  const instead = 'QPairs ranks by finite scores only: leave the line out (a candidate without a score ranks after the scored ones, in pool order) or give it a finite score';
  if (/^[+-]?(inf|infinity)$/i.test(s)) return `score ${what} is infinite; ${instead}`;
  if (/^[+-]?nan$/i.test(s)) return `score ${what} is not a number (NaN); ${instead}`;
  if (NUMBER.test(s)) return `score ${what} is beyond the range of a double (it reads as ${Number(s)}); ${instead}`;
  return `score ${what} is not a number`;
}

/**
 * TREC run `qid Q0 docno rank score tag` (whitespace-separated; the Q0 column is ignored): one
 * run per tag in opts.pool, replacing a run of that name (runs are upserted as a whole).
 *
 * - The pool must exist: a run is scored over a pool's pairs. An unknown name (a typo, most likely)
 *   is an error listing the workspace's pools, before anything is read or written; a pool is made
 *   by `pool create` or by importing its labels (labels-csv/-jsonl, qrels), as the README says.
 * - Entries for pairs not in the pool are skipped (`skipped.pairNotInPool`, with a warning): a run
 *   usually retrieves more than a pool holds, and metrics are computed over the pool anyway.
 * - Score ties: ranking breaks ties by pool order; ties whose file order differs from the pool
 *   order are counted in a warning.
 *
 * Lines of one query are buffered until the query changes (memory: one query's entries).
 * A query's lines should be contiguous; a docno repeated within a query and tag is an error.
 */
/** The run's pool; an unknown name is an error naming the pools there are (nothing is created). */
function existingPool(ctx: ImportContext, name: string): PoolInfo {
  const pool = ctx.ws.findPool(name);
  if (pool) return pool;
  const names = ctx.ws.listPools().map((p) => p.name);
  throw new NotFoundError(
    `no pool named "${name}" (${names.length ? `pools: ${names.join(', ')}` : 'the workspace has no pools'}); ` +
      `a run goes into an existing pool — create it first (${poolCreateName(ctx)}, or import its labels: labels-csv, labels-jsonl, qrels)`,
  );
}

export const trecRun: Importer = {
  name: 'trec-run',
  description: 'TREC run: qid Q0 docno rank score tag (one run per tag, into an existing --pool)',
  async importFile(ctx, file) {
    const name = requirePoolName(ctx);
    const pool = existingPool(ctx, name);
    const runIds = new Map<string, number>();
    const flushed = new Set<string>();
    let block: RunEntry[] = [];
    let blockQuery: string | null = null;
    let missing = 0;
    let tiesOff = 0;
    let example = '';

    const flush = (): void => {
      if (blockQuery === null || block.length === 0) return;
      const q = blockQuery;
      if (flushed.has(q)) ctx.warn(`${file}: the lines of query ${q} are not contiguous (line ${block[0]!.line})`);
      flushed.add(q);
      // A docno twice in one query of one run is an error naming both lines.
      const seen = new Map<string, number>();
      for (const e of block) {
        const k = `${e.tag}\u0000${e.doc}`;
        const prev = seen.get(k);
        if (prev !== undefined) throw fileError(file, e.line, `document ${e.doc} appears twice for query ${q} in run ${e.tag} (also on line ${prev})`);
        seen.set(k, e.line);
      }
      const byTag = new Map<string, Array<{ e: RunEntry; pos: number }>>();
      // Where each (run, query) of the import was first read (ctx.runQueriesRead, one entry per run and
      // query): a query whose lines come back later in the file, or in another file of the import, is
      // checked against the scores this import already stored for it, so that a document given twice
      // is an error there too (the later score silently replaced the earlier and runScores counted both).
      // A block of lines is told from the query's first by a token of its own (the same file given
      // twice repeats files and lines).
      const read = ctx.runQueriesRead;
      const thisBlock = {};
      for (const e of block) {
        const pos = pairPosition(ctx, pool, q, e.doc);
        if (pos === null) {
          missing++;
          if (!example) example = `${q} → ${e.doc} (line ${e.line})`;
          ctx.skip('pairNotInPool');
          continue;
        }
        let runId = runIds.get(e.tag);
        if (runId === undefined) runIds.set(e.tag, (runId = openRun(ctx, pool, e.tag, { format: ctx.format, file }, { file, line: e.line })));
        const key = `${runId}\u0000${q}`;
        const earlier = read.get(key);
        if (!earlier) read.set(key, { file, line: block[0]!.line, block: thisBlock });
        else if (earlier.block !== thisBlock) {
          // This query's lines came before (an earlier block of this file, or another file): the run then holds its scores.
          const had = ctx.ws.stmt(`SELECT score FROM run_scores WHERE run_id = ? AND query_id = ? AND candidate_id = ?`).get(runId, q, e.doc) as { score: number } | undefined;
          if (had && had.score === e.score) {
            ctx.skip('repeatedRunScore'); // the same entry again (e.g. a file given twice): nothing to change
            continue;
          }
          if (had) {
            const where = earlier.file === file ? `line ${earlier.line}` : `${earlier.file}, line ${earlier.line}`;
            throw fileError(file, e.line, `document ${e.doc} appears twice for query ${q} in run ${e.tag} with another score (the lines of query ${q} from ${where} gave it already)`);
          }
        }
        putRunScore(ctx, runId, q, e.doc, e.score);
        let l = byTag.get(e.tag);
        if (!l) byTag.set(e.tag, (l = []));
        l.push({ e, pos });
      }
      for (const l of byTag.values()) {
        const lastPosOfScore = new Map<number, number>();
        for (const { e, pos } of l) {
          const p = lastPosOfScore.get(e.score);
          if (p !== undefined && p > pos) tiesOff++;
          lastPosOfScore.set(e.score, pos);
        }
      }
      block = [];
    };

    for await (const { fields, line } of readFields(ctx, file)) {
      if (fields.length !== 6) throw fileError(file, line, `expected 6 fields (qid Q0 docno rank score tag), found ${fields.length}`);
      const [q, , doc, rankS, scoreS, tag] = fields as [string, string, string, string, string, string];
      if (!/^[+-]?\d+$/.test(rankS)) throw fileError(file, line, `rank ${JSON.stringify(rankS)} is not an integer`);
      const score = parseScore(scoreS);
      if (score === null) throw fileError(file, line, scoreRefusal(scoreS));
      if (q !== blockQuery) {
        flush();
        blockQuery = q;
      }
      block.push({ tag, doc, rank: Number(rankS), score, line });
      ctx.tick();
    }
    flush();
    if (missing > 0) ctx.warn(`${file}: ${missing} run entries name pairs not in pool "${name}" and were skipped (e.g. ${example})`);
    if (tiesOff > 0) {
      ctx.warn(`${file}: ${tiesOff} entries tie in score with an earlier entry that comes later in pool "${name}"; rankings break ties by pool order`);
    }
  },
};
