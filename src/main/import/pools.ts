/** Pool, label and run helpers shared by the importers (all counting into the report). */
import { QPairsError } from '../errors';
import { LABEL_SCHEMES, normaliseLabel, schemeValues, type LabelScheme } from '../../shared/labels';
import type { PoolInfo } from '../../shared/types';
import { pairKey, pairOfKey } from '../../shared/ids';
import type { NewPool } from '../workspace/workspace';
import { fileError } from './reader';
import { newPoolNote } from './new-pool-note';
import { optionName, type ImportContext } from './types';

export function requirePoolName(ctx: ImportContext): string {
  const p = ctx.opts.pool?.trim();
  if (!p) throw new QPairsError(`${ctx.format} imports need a target pool (${optionName(ctx, 'pool')})`);
  return p;
}

/**
 * The named pool, created (and remembered as created by this import, so it takes new pairs)
 * when it does not exist.
 */
export function openPool(ctx: ImportContext, p: NewPool): PoolInfo {
  const found = ctx.ws.findPool(p.name);
  if (found) return found;
  const typo = newPoolNote(p.name, ctx.ws.db.prepare(`SELECT name FROM pools`).pluck().all() as string[]);
  if (typo) ctx.warn(typo);
  const info = ctx.ws.createPool(p);
  ctx.createdPools.add(p.name);
  ctx.count('poolsCreated');
  return info;
}

/** Throws unless the pool uses one of the schemes. */
export function requireScheme(ctx: ImportContext, pool: PoolInfo, schemes: readonly LabelScheme[]): void {
  if (!schemes.includes(pool.scheme)) {
    throw new QPairsError(`pool "${pool.name}" uses the ${pool.scheme} label scheme; ${ctx.format} needs ${schemes.join(' or ')}`);
  }
}

/** Adds a query (when new) and candidates (those not yet in it, appended) to a pool; counts both. */
export function addPairs(ctx: ImportContext, pool: PoolInfo, queryId: string, candidates: readonly string[]): void {
  const known = ctx.ws.stmt(`SELECT 1 FROM pool_queries WHERE pool_id = ? AND query_id = ?`).get(pool.id, queryId);
  if (!known) ctx.count('poolQueries');
  const n = ctx.ws.addPoolQuery(pool.name, queryId, candidates);
  ctx.poolsWritten.add(pool.name);
  if (n > 0) ctx.count('poolCandidates', n);
}

/** Position of a pair in the pool, or null when the pair is not in it. */
export function pairPosition(ctx: ImportContext, pool: PoolInfo, queryId: string, candidateId: string): number | null {
  const r = ctx.ws
    .stmt(`SELECT position FROM pool_candidates WHERE pool_id = ? AND query_id = ? AND candidate_id = ?`)
    .get(pool.id, queryId, candidateId) as { position: number } | undefined;
  return r?.position ?? null;
}

/** Normalises a label value by the pool's scheme; invalid values are an error naming the line. */
/**
 * The label `raw` in the pool's scheme, or an error naming the line. `newPool`: the pool was made by
 * this import with the default scheme (no scheme option; `newPool` is then the import) — then the error also names the schemes that
 * have this label and says to give one, as a gold export of a graded pool re-imported without
 * `--scheme` would otherwise leave the reader to guess why "PerfectMatch" is refused.
 */
export function labelValue(file: string, line: number, pool: PoolInfo, raw: string, newPool: ImportContext | null = null): string {
  const v = normaliseLabel(pool.scheme, raw);
  if (v === null) {
    const ok = pool.scheme === 'graded' ? 'an integer' : schemeValues(pool.scheme).join(', ');
    let hint = '';
    if (newPool) {
      const fits = LABEL_SCHEMES.filter((s) => s !== pool.scheme && normaliseLabel(s, raw) !== null);
      hint = fits.length
        ? `; pool "${pool.name}" is new and got the default ${pool.scheme} scheme: give the scheme of the labels (${optionName(newPool, 'scheme', fits)}; an export's datasheet names its pool's)`
        : '';
    }
    throw fileError(file, line, `invalid label ${JSON.stringify(raw)} for the ${pool.scheme} scheme of pool "${pool.name}" (expected ${ok}, or ?)${hint}`);
  }
  return v;
}

/** Appends a label event unless the annotator's current label already has the value; counts labels / labelsUnchanged. */
export function putLabel(
  ctx: ImportContext,
  pool: PoolInfo,
  queryId: string,
  candidateId: string,
  annotator: string,
  value: string,
  origin: string,
): void {
  const seq = ctx.ws.addLabel({ pool: pool.name, queryId, candidateId, annotator, value, origin }, pool.id);
  ctx.poolsWritten.add(pool.name);
  ctx.count(seq === null ? 'labelsUnchanged' : 'labels');
}

/**
 * Catches the files of one import giving one annotator's label for the same pair twice: the same
 * value again is skipped (`skipped.repeatedLabel`); a different value is an error naming both
 * lines (last-wins would make a re-import append events), also when they are in different files
 * of the import (`import … a.qrels b.qrels`: b's value silently won, and each re-import appended
 * two events). Memory: one entry per label of the import.
 */
export class LabelLines {
  constructor(private readonly file: string) {}
  /** Returns false when the label repeats an earlier line with the same value. */
  add(ctx: ImportContext, queryId: string, candidateId: string, annotator: string, value: string, line: number): boolean {
    const seen = ctx.labelsRead;
    const key = `${annotator}\u0000${queryId}\u0000${candidateId}`;
    const prev = seen.get(key);
    if (!prev) {
      seen.set(key, { file: this.file, line, value });
      return true;
    }
    if (prev.value === value) {
      ctx.skip('repeatedLabel');
      return false;
    }
    const where = prev.file === this.file ? `line ${prev.line}` : `${prev.file}, line ${prev.line}`;
    throw fileError(this.file, line, `label ${JSON.stringify(value)} for ${queryId} → ${candidateId} by ${annotator} contradicts ${where} (${JSON.stringify(prev.value)})`);
  }
}

export function origin(ctx: ImportContext, file: string): string {
  return `import:${ctx.format}:${file.split(/[\\/]/).pop()}`;
}

export function annotatorName(ctx: ImportContext, fromFile?: string | null): string {
  const a = fromFile?.trim() || ctx.opts.annotator?.trim() || 'gold';
  return a;
}

/**
 * Sets a run's score for a pair, counting runScores. For a run the workspace had, a score as it was
 * is not written again (an unchanged run is not written at all: its readers' caches, the undo
 * journal and the stored pages stay as they were); one added or given another value is, and counted.
 */
export function putRunScore(ctx: ImportContext, runId: number, queryId: string, candidateId: string, score: number): void {
  ctx.count('runScores');
  const before = ctx.runsTouched.get(runId);
  if (!before) {
    ctx.ws.setRunScore(runId, queryId, candidateId, score);
    return;
  }
  const key = pairKey(queryId, candidateId);
  const old = before.old.get(key);
  if (old === undefined) before.added++;
  else {
    before.old.delete(key);
    if (old === score) return;
    before.changed++;
  }
  ctx.ws.setRunScore(runId, queryId, candidateId, score);
}

/**
 * The run `name` of the pool, created when absent. Runs are upserted as a whole: the run ends up
 * exactly as the file(s) give it. For a run the workspace had, its old scores are read when the import
 * first touches it; putRunScore writes only the scores that differ, endRuns deletes those not given
 * again and says what changed (`runScoresChanged`: scores added, given another value or dropped) or
 * that the run is as it was (`runsUnchanged`, nothing written for it).
 */
export function openRun(ctx: ImportContext, pool: PoolInfo, name: string, config: Record<string, unknown>, where?: { file: string; line: number | null }): number {
  ctx.poolsWritten.add(pool.name);
  const existed = ctx.ws.stmt(`SELECT id, kind FROM runs WHERE pool_id = ? AND name = ?`).get(pool.id, name) as { id: number; kind: string } | undefined;
  // A trained model's run (or a live retraining's) is that model's scores: replacing them with a
  // file's would leave a run still shown and evaluated as the model's, with another ranker's figures.
  if (existed && (existed.kind === 'model' || existed.kind === 'live')) {
    const whose = existed.kind === 'model' ? `the scores of model "${name}" (qpairs train and score write it)` : `the live retraining's out-of-fold scores`;
    const reason =
      `pool "${pool.name}" already has a run "${name}": ${whose}, which an import does not replace. Give the imported run another name (a TREC run's tag, its 6th column)` +
      (existed.kind === 'model' ? `, or delete the model first (qpairs models delete W ${name})` : '');
    throw where ? fileError(where.file, where.line, reason) : new QPairsError(reason);
  }
  const id = existed?.id ?? ctx.ws.ensureRun(pool.name, name, 'imported', config);
  if (!existed) ctx.count('runs');
  if (!ctx.runsTouched.has(id)) {
    if (existed) {
      const rows = ctx.ws.stmt(`SELECT query_id, candidate_id, score FROM run_scores WHERE run_id = ?`).all(id) as Array<{ query_id: string; candidate_id: string; score: number }>;
      ctx.runsTouched.set(id, { old: new Map(rows.map((r) => [pairKey(r.query_id, r.candidate_id), r.score])), changed: 0, added: 0 });
    } else ctx.runsTouched.set(id, null);
  }
  return id;
}

/**
 * At the end of an import: for each run the workspace had before, deletes the scores the files did not
 * give again and counts the scores that differ from before (`runScoresChanged`: added, given another
 * value, or dropped), or the run as unchanged (`runsUnchanged`). A re-import of the same run file said
 * its scores were "replaced", and deleted and wrote them all again. Returns the pools of the runs it
 * changed so (their counts do not show it: ImportReport.poolsChangedInPlace).
 */
export function endRuns(ctx: ImportContext): Set<string> {
  const drop = ctx.ws.stmt(`DELETE FROM run_scores WHERE run_id = ? AND query_id = ? AND candidate_id = ?`);
  const poolOfRun = ctx.ws.stmt(`SELECT p.name AS name FROM runs r JOIN pools p ON p.id = r.pool_id WHERE r.id = ?`);
  const rescored = new Set<string>();
  for (const [runId, before] of ctx.runsTouched) {
    if (!before) continue;
    if (before.old.size > 0) {
      ctx.ws.touchRuns();
      for (const key of before.old.keys()) drop.run(runId, ...pairOfKey(key));
    }
    const n = before.added + before.changed + before.old.size;
    if (n > 0) {
      ctx.count('runScoresChanged', n);
      rescored.add((poolOfRun.get(runId) as { name: string }).name);
    } else ctx.count('runsUnchanged');
  }
  return rescored;
}
