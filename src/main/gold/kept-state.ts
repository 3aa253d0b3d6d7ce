/**
 * A pool's label state (state.ts) kept up to date label by label: the Review screen reads it at
 * every j/k (review.pair) and after every burst of labels (review.queue since), and while
 * annotators label, each label used to make the next read load the whole pool again (600-1,355 ms
 * per pair read on a 3,000-query pool during a burst of 8 labels).
 *
 * A kept state is handed out again while nothing was committed (the workspace's change stamp).
 * After a commit, when the only change that can reach the state is new label events of the pool,
 * those events are applied to the kept labels and only their pairs' entries are computed again
 * (pairEntry: an entry depends on its own pair's labels and events, and on the pool's annotators,
 * judges, plan and rule), which gives what loadPoolState would. Anything else reads the pool
 * again: another pool setting, role, assignment or query (the structure below differs), an
 * annotator joining or leaving an open pool, many events at once, or a long write journaled (an
 * import whose committed chunks, labels among them, a cancel can take back: a state read while
 * one runs is never the base of an update).
 */
import type { Workspace } from '../workspace/workspace';
import { loadPoolState, pairEntry, pairKey, poolPeople, type PoolState } from './state';

/** At most this many new label events are applied to a kept state; more (an import) and the pool is read again. */
export const MAX_APPLIED_EVENTS = 5000;

interface Kept {
  pool: string;
  stamp: string;
  state: PoolState;
  /** The pool's last label event the state holds (labels after it are applied on the next read). */
  version: number;
  /** What else the state depends on (structureOf); null when it may not be updated (a long write ran). */
  structure: string | null;
  roles: Map<string, string>;
  firstSeq: Map<string, number>;
  queryAt: Map<string, number>;
  queryStart: number[];
}

interface LabelEventRow {
  seq: number;
  queryId: string;
  candidateId: string;
  annotator: string;
  value: string | null;
  origin: string;
}

/**
 * Everything a pool's state is computed from besides its labels: the pool (scheme, counts of
 * queries, pairs and runs, settings), its rule, its assignment, everyone's role, when each person
 * judged it (judge-spans.ts: a judge made an annotator and a judge again has her roles as before,
 * and new spans) — null while a
 * long write runs. Pools, their queries and pairs are only ever added to, outside a journaled
 * write's undo (an undone import's is counted: the imports audit's undo rows), so equal counts
 * mean equal queries.
 */
function structureOf(ws: Workspace, pool: string): string | null {
  const r = ws
    .stmt(
      `SELECT (SELECT count(*) FROM import_journal WHERE state = 'running') AS journal,
              (SELECT count(*) FROM imports WHERE format = 'undo') AS undos,
              (SELECT group_concat(x, char(1)) FROM (SELECT id || ':' || name || ':' || role AS x FROM annotators ORDER BY id)) AS people,
              (SELECT aggregation || ':' || aggregation_threshold FROM pools WHERE id = @p) AS rule,
              (SELECT group_concat(x, ',') FROM (SELECT annotator_id || ':' || position AS x FROM pool_annotators WHERE pool_id = @p ORDER BY position)) AS assigned,
              (SELECT coalesce(per_query, '') || ':' || coalesce(seed, '') || ':' || at FROM pool_assignment_plans WHERE pool_id = @p) AS plan,
              (SELECT count(*) FROM pool_assignments WHERE pool_id = @p) AS assignments,
              (SELECT group_concat(x, ',') FROM (SELECT annotator_id || ':' || after_seq || ':' || coalesce(until_seq, '') AS x
                 FROM pool_judge_spans WHERE pool_id = @p ORDER BY annotator_id, after_seq)) AS spans`,
    )
    .get({ p: ws.poolId(pool) }) as { journal: number; undos: number; people: string | null; rule: string; assigned: string | null; plan: string | null; assignments: number; spans: string | null };
  if (r.journal > 0) return null;
  return JSON.stringify([ws.pool(pool), r.people, r.rule, r.assigned, r.plan, r.assignments, r.undos, r.spans]);
}

/** The last state read of one pool (the Review screen's), kept and updated label by label. */
export class KeptPoolState {
  private kept: Kept | null = null;

  constructor(private readonly ws: Workspace) {}

  /** The pool's state as of now. Read-only for callers: the next read after a label updates it in place. */
  get(pool: string): PoolState {
    const ws = this.ws;
    const stamp = ws.changeStamp();
    const k = this.kept;
    if (k && k.pool === pool && k.stamp === stamp) return k.state;
    const structure = structureOf(ws, pool);
    if (k && k.pool === pool && k.structure !== null && k.structure === structure && this.update(k)) {
      k.stamp = stamp;
      return k.state;
    }
    // Read before the labels: an event committed meanwhile is applied again on the next read, which changes nothing.
    const version = ws.labelVersion(pool).version;
    const state = loadPoolState(ws, pool);
    const firstSeq = new Map<string, number>();
    for (const [a, m] of state.labels) firstSeq.set(a, minSeq(m));
    const queryAt = new Map<string, number>();
    const queryStart: number[] = [];
    let at = 0;
    state.queries.forEach((q, qi) => {
      queryAt.set(q.queryId, qi);
      queryStart.push(at);
      at += q.candidates.length;
    });
    const roles = new Map(ws.listAnnotators().map((a) => [a.name, a.role as string]));
    this.kept = { pool, stamp, state, version, structure, roles, firstSeq, queryAt, queryStart };
    return state;
  }

  /** Applies the pool's label events after k.version to k's state; false when the pool must be read again (k is then dropped). */
  private update(k: Kept): boolean {
    const ws = this.ws;
    // The events after the version by seq (+pool_id: not through the pool's index, which SQLite
    // would otherwise pick and walk through all the pool's labels, ~10 ms on 120,000).
    const events = ws
      .stmt(
        `SELECT l.seq, l.query_id AS queryId, l.candidate_id AS candidateId, a.name AS annotator, l.value, l.origin
         FROM labels l JOIN annotators a ON a.id = l.annotator_id WHERE l.seq > ? AND +l.pool_id = ? ORDER BY l.seq LIMIT ?`,
      )
      .all(k.version, ws.poolId(k.pool), MAX_APPLIED_EVENTS + 1) as LabelEventRow[];
    if (events.length === 0) return true;
    this.kept = null;
    if (events.length > MAX_APPLIED_EVENTS) return false;
    const s = k.state;
    const touchedPeople = new Set<string>();
    const touchedPairs = new Map<string, { queryId: string; candidateId: string }>();
    for (const ev of events) {
      const key = pairKey(ev.queryId, ev.candidateId);
      touchedPeople.add(ev.annotator);
      touchedPairs.set(key, ev);
      let m = s.labels.get(ev.annotator);
      // The latest event per pair and annotator, in seq order (currentLabels); a cleared label is left out.
      m?.delete(key);
      if (ev.value !== null) {
        if (!m) s.labels.set(ev.annotator, (m = new Map()));
        m.set(key, { value: ev.value, seq: ev.seq, origin: ev.origin });
      }
    }
    for (const a of touchedPeople) {
      const m = s.labels.get(a);
      if (m && m.size === 0) s.labels.delete(a);
      if (s.labels.has(a)) k.firstSeq.set(a, minSeq(s.labels.get(a)!));
      else k.firstSeq.delete(a);
    }
    // The annotators in the order of their first current label, as loadPoolState lists them.
    const order = [...s.labels.keys()];
    const sorted = [...order].sort((x, y) => k.firstSeq.get(x)! - k.firstSeq.get(y)!);
    if (sorted.some((a, i) => a !== order[i])) {
      const entries = new Map(s.labels);
      s.labels.clear();
      for (const a of sorted) s.labels.set(a, entries.get(a)!);
    }
    const people = poolPeople(s.plan, k.roles, s.labels, (a) => k.firstSeq.get(a)!);
    if (!sameList(people.annotators, s.annotators) || !sameList(people.judges, s.judges)) return false;
    for (const [key, p] of touchedPairs) {
      const qi = k.queryAt.get(p.queryId);
      const ci = qi === undefined ? -1 : s.queries[qi]!.candidates.indexOf(p.candidateId);
      if (qi === undefined || ci < 0) return false;
      const e = pairEntry(ws, s, qi, ci);
      s.pairs[k.queryStart[qi]! + ci] = e;
      s.byKey.set(key, e);
    }
    k.version = events[events.length - 1]!.seq;
    this.kept = k;
    return true;
  }
}

function minSeq(m: ReadonlyMap<string, { seq: number }>): number {
  let min = Infinity;
  for (const l of m.values()) if (l.seq < min) min = l.seq;
  return min;
}

const sameList = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);
