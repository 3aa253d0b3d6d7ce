/**
 * Workspace tables of the gold workflow (migration 2): a pool's annotators and assignment plan,
 * its aggregation rule, and annotator roles. All writes are single transactions.
 */
import { AGGREGATION_RULES, defaultMeanThreshold, isReservedAnnotatorName, reservedAnnotatorNameError, type AggregationRule } from '../../shared/gold';
import { PERSON_ROLES, isReservedRole } from '../../shared/roles';
import { schemeGradeRange } from '../../shared/labels';
import { NAME_MAX_LENGTH } from '../../shared/contract';
import { NotFoundError, QPairsError } from '../errors';
import type { AnnotatorRole, Workspace } from '../workspace/workspace';
import { planAssignment } from './assign';
import { startJudging, stopJudging } from './judge-spans';

export const ANNOTATOR_ROLES: readonly AnnotatorRole[] = ['annotator', 'judge', 'owner', 'gold', 'system'];

export interface AssignmentPlan {
  mode: 'full' | 'per-query' | 'open';
  perQuery: number | null;
  seed: number | null;
  /** Assigned annotators in the order given (empty when mode is open). */
  annotators: string[];
  /** k-per-query plans: query id → its annotators. */
  perQueryAnnotators: Map<string, string[]> | null;
}

export interface AggregationSetting {
  rule: AggregationRule;
  threshold: number;
}

export function checkAnnotatorName(name: string, ws?: Workspace): string {
  // With the workspace: the person's name as stored, or a new name in NFC (Workspace.personName).
  const n = ws ? ws.personName(name) : name.trim();
  if (!n) throw new QPairsError('annotator name is empty');
  if (isReservedAnnotatorName(n)) throw new QPairsError(reservedAnnotatorNameError(n));
  // Longer names were stored (qpairs annotators add, assign, label), and then every command of the app naming them was refused.
  if (n.length > NAME_MAX_LENGTH) throw new QPairsError(`annotator name is too long: ${n.length} characters, at most ${NAME_MAX_LENGTH} (the app and serve mode take no longer name)`);
  return n;
}

export function annotatorRole(ws: Workspace, name: string): AnnotatorRole | null {
  const r = ws.stmt(`SELECT role FROM annotators WHERE name = ?`).get(name) as { role: AnnotatorRole } | undefined;
  return r?.role ?? null;
}

/**
 * Refuses a role change that would make a person a label source or a label source a person: gold
 * and system are reserved (src/shared/roles.ts) — gold labels would silently become a person's, or
 * a person's labels the pool's gold (eval and export default to gold labels when a pool has them).
 */
function checkRoleChange(name: string, from: AnnotatorRole | null, to: AnnotatorRole): void {
  const was = from ?? (name === 'gold' ? 'gold' : null);
  if (was === to) return;
  if (name === 'gold' || (was !== null && isReservedRole(was))) {
    const what = name === 'gold' || was === 'gold' ? 'imported gold labels' : "a reference system's labels";
    throw new QPairsError(`"${name}" is not a person: it holds ${what} (role ${was}), and its role cannot change`);
  }
  if (isReservedRole(to)) {
    throw new QPairsError(
      `the role "${to}" is reserved for labels that are not a person's (gold: imported gold labels; system: a reference system's); ` +
        `a person's role is ${PERSON_ROLES.join(', ')}`,
    );
  }
}

/** Zero-width spaces, word joiners, byte-order marks and bidirectional marks, embeddings, overrides and isolates (not ZWJ/ZWNJ, which some scripts' names need). */
const INVISIBLE_IN_NAMES = /[\u061C\u180E\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/u;

/**
 * Refuses a new person's name that lists of names would split or that cannot be shown: a comma or
 * semicolon (`qpairs assign --annotators A,B` and Pools → Team split names there, so such a person
 * could never be assigned) or a control character (a line break, a NUL). Names already in the
 * workspace are left as they are.
 */
export function checkNewPersonName(ws: Workspace, name: string): void {
  if (annotatorRole(ws, name) !== null) return;
  // Invisible and text-direction characters (pasted with a name from a chat): "alice" + U+200B looked
  // like alice in every list while being someone else, and U+202E reversed the serve log's line of people and roles.
  const hidden = INVISIBLE_IN_NAMES.exec(name)?.[0];
  if (hidden !== undefined) {
    const code = `U+${hidden.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    throw new QPairsError(`${JSON.stringify(name)}: a name cannot hold an invisible or text-direction character (${code}): it would look like another name, or reorder the text shown around it`);
  }
  const bad = /[,;]/.exec(name)?.[0] ?? (/\p{Cc}/u.test(name) ? 'a control character' : null);
  if (bad) {
    throw new QPairsError(
      `${JSON.stringify(name)}: a name cannot hold ${bad.length === 1 ? `"${bad}"` : bad} (lists of names, as in qpairs assign --annotators A,B or Pools → Team, are split at commas and semicolons)`,
    );
  }
}

/**
 * Adds an annotator, or changes the role of an existing one; returns its role. A new name may be
 * added as a gold or system label source (`qpairs annotators add W ref --role system`), but an
 * existing person never becomes one, nor does a source become a person (checkRoleChange).
 */
export function addAnnotator(ws: Workspace, name: string, role?: AnnotatorRole): AnnotatorRole {
  const n = checkAnnotatorName(name, ws);
  checkNewPersonName(ws, n);
  if (role !== undefined && !ANNOTATOR_ROLES.includes(role)) throw new QPairsError(`unknown role "${role}" (roles: ${ANNOTATOR_ROLES.join(', ')})`);
  if (role === undefined) {
    ws.ensureAnnotator(n);
  } else {
    const current = annotatorRole(ws, n);
    if (current !== null || n === 'gold') checkRoleChange(n, current, role);
    ws.transaction(() => {
      ws.setAnnotatorRole(n, role);
      // Made a judge, or no longer one: they begin or stop judging every pool not assigning them to label it
      // (judge-spans.ts): their labels there so far are not rulings, or those from now on are not.
      const begins = current !== null && current !== 'judge' && role === 'judge';
      const stops = current === 'judge' && role !== 'judge';
      if (begins || stops) {
        const assigned = ws.stmt(`SELECT pool_id FROM pool_annotators pa JOIN annotators a ON a.id = pa.annotator_id WHERE a.name = ?`).all(n) as Array<{ pool_id: number }>;
        const inPools = new Set(assigned.map((r) => r.pool_id));
        for (const { id } of ws.stmt(`SELECT id FROM pools`).all() as Array<{ id: number }>) {
          if (!inPools.has(id)) (begins ? startJudging : stopJudging)(ws, id, n);
        }
      }
    });
  }
  return annotatorRole(ws, n)!;
}

/**
 * Changes a known annotator's role (a person's: annotator, judge or owner; see checkRoleChange).
 * `signsIn`: the name signs in with a token serve mode holds (its tokens file) — a person, an
 * annotator until given a role, whom the workspace may not list yet: they are added with the role.
 */
export function setAnnotatorRole(ws: Workspace, name: string, role: AnnotatorRole, opts: { signsIn?: boolean } = {}): AnnotatorRole {
  const n = checkAnnotatorName(name, ws);
  if (annotatorRole(ws, n) === null) {
    if (!opts.signsIn) throw new NotFoundError(`no annotator named "${n}" (add it first)`);
    checkRoleChange(n, 'annotator', role);
  }
  // addAnnotator checks the role and the change (checkRoleChange) for a known annotator.
  return addAnnotator(ws, n, role);
}

export function getAggregation(ws: Workspace, pool: string): AggregationSetting {
  const r = ws.stmt(`SELECT aggregation, aggregation_threshold FROM pools WHERE id = ?`).get(ws.poolId(pool)) as {
    aggregation: AggregationRule;
    aggregation_threshold: number;
  };
  return { rule: r.aggregation, threshold: r.aggregation_threshold };
}

export function setAggregation(ws: Workspace, pool: string, rule: AggregationRule, threshold?: number): AggregationSetting {
  if (!AGGREGATION_RULES.includes(rule)) throw new QPairsError(`unknown aggregation rule "${rule}" (rules: ${AGGREGATION_RULES.join(', ')})`);
  if (threshold !== undefined && !Number.isFinite(threshold)) throw new QPairsError('the aggregation threshold must be a finite number');
  // Only the mean rule reads a threshold: stored under another rule it did nothing, and switching to
  // mean later replaced it with the scheme's, so a threshold given with another rule is refused.
  if (threshold !== undefined && rule !== 'mean') {
    throw new QPairsError(`the aggregation threshold applies to the mean rule only (similar when the mean grade is above it); pool "${pool}" would use rule ${rule}: set the rule to mean with the threshold, or leave the threshold out`);
  }
  const p = ws.pool(pool);
  // A mean grade lies between the scheme's lowest and highest grade: a threshold below the lowest made
  // every voted pair relevant, one at the highest or above none, without a word.
  const range = schemeGradeRange(p.scheme);
  if (threshold !== undefined && range && (threshold < range.min || threshold >= range.max)) {
    throw new QPairsError(
      `the aggregation threshold ${threshold} would make ${threshold < range.min ? 'every voted pair similar' : 'no pair similar'} in pool "${pool}": ` +
        `its ${p.scheme} grades run from ${range.min} to ${range.max}, and a pair is similar when its mean grade is above the threshold; give one from ${range.min} up to (not including) ${range.max}`,
    );
  }
  const cur = getAggregation(ws, pool);
  // Switching to `mean` without a threshold takes the scheme's (the stored 0 of another rule made
  // any single relevant vote relevant on a binary pool); staying on `mean` keeps the pool's own.
  const next = threshold ?? (rule === 'mean' && cur.rule !== 'mean' ? defaultMeanThreshold(p.scheme) : cur.threshold);
  ws.stmt(`UPDATE pools SET aggregation = ?, aggregation_threshold = ? WHERE id = ?`).run(rule, next, p.id);
  return getAggregation(ws, pool);
}

export function getAssignment(ws: Workspace, pool: string): AssignmentPlan {
  // The id only (read on every label: pool()'s counts of the pool's rows cost more than the rest).
  const p = { id: ws.poolId(pool) };
  const annotators = (
    ws
      .stmt(`SELECT a.name FROM pool_annotators pa JOIN annotators a ON a.id = pa.annotator_id WHERE pa.pool_id = ? ORDER BY pa.position`)
      .all(p.id) as Array<{ name: string }>
  ).map((r) => r.name);
  const plan = ws.stmt(`SELECT per_query, seed FROM pool_assignment_plans WHERE pool_id = ?`).get(p.id) as
    | { per_query: number | null; seed: number | null }
    | undefined;
  if (annotators.length === 0 || !plan) return { mode: 'open', perQuery: null, seed: null, annotators: [], perQueryAnnotators: null };
  if (plan.per_query === null) return { mode: 'full', perQuery: null, seed: plan.seed, annotators, perQueryAnnotators: null };
  const rows = ws
    .stmt(
      `SELECT s.query_id, a.name FROM pool_assignments s JOIN annotators a ON a.id = s.annotator_id
       JOIN pool_annotators pa ON pa.pool_id = s.pool_id AND pa.annotator_id = s.annotator_id
       WHERE s.pool_id = ? ORDER BY pa.position`,
    )
    .all(p.id) as Array<{ query_id: string; name: string }>;
  const per = new Map<string, string[]>();
  for (const r of rows) {
    let l = per.get(r.query_id);
    if (!l) per.set(r.query_id, (l = []));
    l.push(r.name);
  }
  return { mode: 'per-query', perQuery: plan.per_query, seed: plan.seed, annotators, perQueryAnnotators: per };
}

/**
 * Assigns a pool to annotators: full overlap (perQuery null) or k per query (seeded, balanced;
 * see planAssignment). Replaces any earlier assignment; labels are never touched. Unknown
 * annotators are added with role `annotator`; `gold` and `system` annotators cannot be assigned.
 */
export function assignPool(ws: Workspace, pool: string, annotators: readonly string[], perQuery: number | null, seed = 1): AssignmentPlan {
  const p = ws.pool(pool);
  const names = [...new Set(annotators.map((a) => checkAnnotatorName(a, ws)))];
  for (const n of names) {
    const role = annotatorRole(ws, n) ?? (n === 'gold' ? 'gold' : 'annotator');
    if (role === 'gold' || role === 'system') throw new QPairsError(`"${n}" has the ${role} role and cannot be assigned to label a pool`);
    // A name it adds is a new person: the same names as an invitation (a line break or a zero-width space got in here).
    checkNewPersonName(ws, n);
  }
  const queries = ws.poolQueries(pool).map((q) => q.queryId);
  const plan = planAssignment(queries, names, perQuery, seed);
  // The pool's judges who labeled it as its annotators and are left out now judge it: those labels are not rulings;
  // its judges now assigned to it stop judging it: their rulings so far stay rulings (judge-spans.ts).
  const before = getAssignment(ws, pool).annotators;
  const judgesLeftOut = before.filter((n) => !names.includes(n) && annotatorRole(ws, n) === 'judge');
  const judgesAssigned = names.filter((n) => !before.includes(n) && annotatorRole(ws, n) === 'judge');
  ws.transaction(() => {
    for (const n of judgesLeftOut) startJudging(ws, p.id, n);
    for (const n of judgesAssigned) stopJudging(ws, p.id, n);
    const ids = names.map((n) => ws.ensureAnnotator(n));
    ws.stmt(`DELETE FROM pool_assignments WHERE pool_id = ?`).run(p.id);
    ws.stmt(`DELETE FROM pool_annotators WHERE pool_id = ?`).run(p.id);
    ws.stmt(`DELETE FROM pool_assignment_plans WHERE pool_id = ?`).run(p.id);
    ids.forEach((id, i) => ws.stmt(`INSERT INTO pool_annotators(pool_id, annotator_id, position) VALUES (?, ?, ?)`).run(p.id, id, i));
    ws.stmt(`INSERT INTO pool_assignment_plans(pool_id, per_query, seed, at) VALUES (?, ?, ?, ?)`).run(p.id, perQuery, seed, new Date().toISOString());
    if (perQuery !== null) {
      const idOf = new Map(names.map((n, i) => [n, ids[i]!]));
      const ins = ws.stmt(`INSERT INTO pool_assignments(pool_id, query_id, annotator_id) VALUES (?, ?, ?)`);
      for (const [q, list] of plan) for (const n of list) ins.run(p.id, q, idOf.get(n)!);
    }
  });
  return getAssignment(ws, pool);
}
