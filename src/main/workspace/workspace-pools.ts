/**
 * Pools, annotators and labels in the workspace (layer 3 of 4): pools with their queries and
 * candidates, blind settings and guidelines; annotators and roles; the append-only label history.
 */
import { NotFoundError, QPairsError } from '../errors';
import { isReservedAnnotatorName, reservedAnnotatorNameError } from '../../shared/gold';
import type { LabelRecord, PoolInfo, PoolQuery } from '../../shared/types';

/** A pool's settings: PoolInfo without its counts of queries, pairs and runs. */
export type PoolSettings = Omit<PoolInfo, 'queries' | 'pairs' | 'runs'>;
/** A current label of a pool (Workspace.currentLabels). */
export type CurrentLabel = { queryId: string; candidateId: string; annotator: string; value: string; seq: number; origin: string };
import type { LabelScheme } from '../../shared/labels';
import { now, type AnnotatorRole, type LabelInput, type NewPool } from './workspace-types';
import { WorkspaceCorpus } from './workspace-corpus';

export abstract class WorkspacePools extends WorkspaceCorpus {
  // ---------------------------------------------------------------- pools

  createPool(p: NewPool): PoolInfo {
    if (!p.name.trim()) throw new QPairsError('a pool needs a name');
    if (this.findPool(p.name)) throw new QPairsError(`pool "${p.name}" already exists`);
    const at = now();
    const blind = p.blind ?? true ? 1 : 0;
    const info = this.stmt(
      `INSERT INTO pools(name, scheme, retriever, depth, sampling, guidelines, created, blind, convention) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(p.name, p.scheme ?? 'binary', p.retriever ?? null, p.depth ?? null, p.sampling ?? null, p.guidelines ?? '', at, blind, p.convention ?? 'zero');
    this.stmt(`INSERT INTO pool_blind_history(pool_id, blind, at) VALUES (?, ?, ?)`).run(Number(info.lastInsertRowid), blind, at);
    return this.pool(p.name);
  }

  /** Switches a pool's blind labeling on or off; the change is recorded in its history (no-op when unchanged). */
  setPoolBlind(name: string, blind: boolean): PoolInfo {
    const p = this.pool(name);
    if (p.blind === blind) return p;
    this.transaction(() => {
      this.stmt(`UPDATE pools SET blind = ? WHERE id = ?`).run(blind ? 1 : 0, p.id);
      this.stmt(`INSERT INTO pool_blind_history(pool_id, blind, at) VALUES (?, ?, ?)`).run(p.id, blind ? 1 : 0, now());
    });
    return this.pool(name);
  }

  /** Whether the pool holds a label other than "?" (unsure is valid in every scheme, so it fixes none). */
  poolHasDecisiveLabel(poolId: number): boolean {
    return !!this.stmt(`SELECT 1 FROM labels WHERE pool_id = ? AND value <> '?' LIMIT 1`).get(poolId);
  }

  /**
   * Gives a pool that holds no decisive label yet another label scheme (an import that learns the
   * scheme from its file's first label); "?" labels, valid in every scheme, may be there.
   */
  setUnlabeledPoolScheme(name: string, scheme: LabelScheme): PoolInfo {
    const p = this.pool(name);
    if (p.scheme === scheme) return p;
    if (this.poolHasDecisiveLabel(p.id)) {
      throw new QPairsError(`pool "${name}" holds labels in the ${p.scheme} scheme; its scheme cannot change`);
    }
    this.stmt(`UPDATE pools SET scheme = ? WHERE id = ?`).run(scheme, p.id);
    return this.pool(name);
  }

  /** Sets the pool's evaluation convention (what eval uses unless told; schema 10). */
  setPoolConvention(name: string, convention: 'skip' | 'zero'): PoolInfo {
    this.stmt(`UPDATE pools SET convention = ? WHERE id = ?`).run(convention, this.pool(name).id);
    return this.pool(name);
  }

  /** The pool's evaluation convention ('zero' for a pool of a workspace older than schema 10 read before migrating). */
  poolConvention(name: string): 'skip' | 'zero' {
    return this.pool(name).convention ?? 'zero';
  }

  /** A pool's blind setting over time, oldest first (the first entry is the pool's creation). */
  poolBlindHistory(name: string): Array<{ blind: boolean; at: string }> {
    const p = this.pool(name);
    return (this.stmt(`SELECT blind, at FROM pool_blind_history WHERE pool_id = ? ORDER BY at`).all(p.id) as Array<{ blind: number; at: string }>).map(
      (r) => ({ blind: r.blind === 1, at: r.at }),
    );
  }

  /** The named pool, creating it with these settings when it does not exist. */
  ensurePool(p: NewPool): PoolInfo {
    return this.findPool(p.name) ?? this.createPool(p);
  }

  findPool(name: string): PoolInfo | null {
    const settings = this.findPoolSettings(name);
    if (!settings) return null;
    const counts = this.stmt(
      `SELECT (SELECT count(*) FROM pool_queries q WHERE q.pool_id = @id) AS queries,
              (SELECT count(*) FROM pool_candidates c WHERE c.pool_id = @id) AS pairs,
              (SELECT count(*) FROM runs r WHERE r.pool_id = @id AND r.staged IS NULL) AS runs`,
    ).get({ id: settings.id }) as Pick<PoolInfo, 'queries' | 'pairs' | 'runs'>;
    return { ...settings, ...counts };
  }

  /**
   * The named pool's settings without findPool()'s counts of queries, pairs and runs, which count
   * the pool's rows (about 2 ms per call for a 60,000-pair pool): for the lookups made on every
   * label. Null when there is no such pool.
   */
  findPoolSettings(name: string): PoolSettings | null {
    const r = this.stmt(
      `SELECT p.*, (SELECT o.label_order FROM pool_candidate_orders o WHERE o.pool_id = p.id) AS candidate_order FROM pools p WHERE p.name = ?`,
    ).get(name) as (Omit<PoolSettings, 'scheme' | 'blind'> & { scheme: LabelScheme; blind: number; candidate_order: PoolInfo['label_order'] | null }) | undefined;
    if (!r) return null;
    // A candidate-level order (migration 12) stands in for the column's 'random'.
    const { candidate_order, ...pool } = r;
    return { ...pool, blind: r.blind === 1, ...(candidate_order ? { label_order: candidate_order } : {}) };
  }

  /** The named pool's settings (findPoolSettings); a missing pool throws pool()'s error. */
  poolSettings(name: string): PoolSettings {
    return this.findPoolSettings(name) ?? this.pool(name);
  }

  /** The named pool; throws a user-facing error listing the pools when it is missing. */
  pool(name: string): PoolInfo {
    const p = this.findPool(name);
    if (!p) {
      const names = this.listPools().map((x) => x.name);
      throw new NotFoundError(`no pool named "${name}"` + (names.length ? ` (pools: ${names.join(', ')})` : ' (the workspace has no pools)'));
    }
    return p;
  }

  /**
   * The pool's id, without pool()'s counts of queries and pairs (for lookups on every label or
   * query served); a missing pool throws pool()'s error.
   */
  poolId(name: string): number {
    return this.findPoolId(name) ?? this.pool(name).id;
  }

  /** The pool's id, or null when there is no such pool (cheap, as poolId). */
  findPoolId(name: string): number | null {
    const r = this.stmt(`SELECT id FROM pools WHERE name = ?`).get(name) as { id: number } | undefined;
    return r ? r.id : null;
  }

  listPools(): PoolInfo[] {
    return (this.stmt(`SELECT name FROM pools ORDER BY id`).all() as Array<{ name: string }>).map((r) => this.pool(r.name));
  }

  setGuidelines(pool: string, markdown: string): void {
    this.stmt(`UPDATE pools SET guidelines = ? WHERE id = ?`).run(markdown, this.pool(pool).id);
  }

  /**
   * Adds a query with its ranked candidates to a pool. Existing candidates keep their position;
   * new ones are appended after them (so re-importing is idempotent). Returns the number of new
   * candidates.
   */
  addPoolQuery(pool: string, queryId: string, candidates: readonly string[]): number {
    return this.addPoolQueries(pool, [{ queryId, candidates }]);
  }

  /**
   * Adds queries in order, each as addPoolQuery does, looking the pool and its last query position
   * up once for them all: one call per query re-counted the pool's queries and pairs (pool()) and
   * re-read its last position, so a pool's creation grew with the square of its queries (5.5 s of
   * 24 for 3,000 queries, inside the transaction that holds every other writer). Returns the number
   * of new candidates.
   */
  addPoolQueries(pool: string, queries: Iterable<{ queryId: string; candidates: readonly string[] }>): number {
    const poolId = this.poolId(pool);
    let pos = (this.stmt(`SELECT coalesce(max(position), -1) + 1 AS n FROM pool_queries WHERE pool_id = ?`).get(poolId) as { n: number }).n;
    const has = this.stmt(`SELECT 1 FROM pool_queries WHERE pool_id = ? AND query_id = ?`);
    const addQuery = this.stmt(`INSERT INTO pool_queries(pool_id, query_id, position) VALUES (?, ?, ?)`);
    const last = this.stmt(`SELECT coalesce(max(position), -1) + 1 AS n FROM pool_candidates WHERE pool_id = ? AND query_id = ?`);
    const ins = this.stmt(`INSERT OR IGNORE INTO pool_candidates(pool_id, query_id, candidate_id, position) VALUES (?, ?, ?, ?)`);
    let added = 0;
    for (const { queryId, candidates } of queries) {
      if (!has.get(poolId, queryId)) addQuery.run(poolId, queryId, pos++);
      let next = (last.get(poolId, queryId) as { n: number }).n;
      for (const c of candidates) {
        if (c === queryId) continue;
        if (ins.run(poolId, queryId, c, next).changes > 0) {
          next++;
          added++;
        }
      }
    }
    return added;
  }

  /** The pool's queries that have no candidate (BM25 found no other question for them), in pool order. */
  queriesWithoutCandidates(pool: string): string[] {
    const p = this.pool(pool);
    return this.stmt(
      `SELECT q.query_id AS id FROM pool_queries q
       WHERE q.pool_id = ? AND NOT EXISTS (SELECT 1 FROM pool_candidates c WHERE c.pool_id = q.pool_id AND c.query_id = q.query_id)
       ORDER BY q.position`,
    ).all(p.id).map((r) => (r as { id: string }).id);
  }

  /**
   * How many distinct questions the pool holds (its queries and candidates), how many of them have
   * text in the workspace (a title or a body), and one that has none (the smallest id), else null.
   * AskUbuntu's pool files list ids only: their questions have no text until the corpus is imported.
   */
  poolTextCoverage(poolId: number): { questions: number; withText: number; textlessExample: string | null } {
    return this.stmt(
      `WITH ids(id) AS (SELECT query_id FROM pool_queries WHERE pool_id = @p UNION SELECT candidate_id FROM pool_candidates WHERE pool_id = @p),
            has(id, text) AS (SELECT id, EXISTS (SELECT 1 FROM questions q WHERE q.id = ids.id AND (q.title <> '' OR q.body <> '')) FROM ids)
       SELECT count(*) AS questions, coalesce(sum(text), 0) AS withText, min(id) FILTER (WHERE NOT text) AS textlessExample FROM has`,
    ).get({ p: poolId }) as { questions: number; withText: number; textlessExample: string | null };
  }

  /** The pool's queries in order, each with its candidates in the pool's original order. */
  poolQueries(pool: string): PoolQuery[] {
    const p = this.pool(pool);
    const rows = this.stmt(
      `SELECT q.query_id, c.candidate_id FROM pool_queries q
       LEFT JOIN pool_candidates c ON c.pool_id = q.pool_id AND c.query_id = q.query_id
       WHERE q.pool_id = ? ORDER BY q.position, c.position`,
    ).all(p.id) as Array<{ query_id: string; candidate_id: string | null }>;
    const out: PoolQuery[] = [];
    let cur: PoolQuery | null = null;
    for (const r of rows) {
      if (!cur || cur.queryId !== r.query_id) {
        cur = { queryId: r.query_id, candidates: [] };
        out.push(cur);
      }
      if (r.candidate_id != null) cur.candidates.push(r.candidate_id);
    }
    return out;
  }

  hasPoolPair(poolId: number, queryId: string, candidateId: string): boolean {
    return !!this.stmt(`SELECT 1 FROM pool_candidates WHERE pool_id = ? AND query_id = ? AND candidate_id = ?`).get(
      poolId,
      queryId,
      candidateId,
    );
  }

  // ---------------------------------------------------------------- annotators

  /**
   * The name a person given as `name` has here: names are compared in Unicode NFC, so "Zoë" typed
   * precomposed or as e + U+0308 is one person. A stored name NFC-equal to it is returned as stored
   * (names stored before keep their spelling); a new name is its NFC form. Trimmed.
   */
  personName(name: string): string {
    const n = name.trim();
    // An ASCII name is its own NFC form and no other stored spelling is looked for (below): it is the
    // answer as it is, without a statement (this runs for every command's names, before its snapshot).
    if (!/[^\x00-\x7f]/.test(n)) return n;
    if (this.stmt(`SELECT 1 FROM annotators WHERE name = ?`).get(n)) return n;
    const nfc = n.normalize('NFC');
    if (nfc !== n && this.stmt(`SELECT 1 FROM annotators WHERE name = ?`).get(nfc)) return nfc;
    // Only a name outside ASCII can have another spelling; stored ones are few (people, not labels).
    if (/[^\x00-\x7f]/.test(nfc)) {
      const same = (this.stmt(`SELECT name FROM annotators`).all() as Array<{ name: string }>).map((x) => x.name).find((x) => x.normalize('NFC') === nfc);
      if (same !== undefined) return same;
    }
    return nfc;
  }

  ensureAnnotator(name: string, role: AnnotatorRole = name === 'gold' ? 'gold' : 'annotator'): number {
    const n = this.personName(name);
    if (!n) throw new QPairsError('annotator name is empty');
    const r = this.stmt(`SELECT id FROM annotators WHERE name = ?`).get(n) as { id: number } | undefined;
    if (!r && isReservedAnnotatorName(n)) throw new QPairsError(reservedAnnotatorNameError(n));
    if (r) return r.id;
    return Number(this.stmt(`INSERT INTO annotators(name, role, created) VALUES (?, ?, ?)`).run(n, role, now()).lastInsertRowid);
  }

  listAnnotators(): Array<{ id: number; name: string; role: AnnotatorRole }> {
    return this.stmt(`SELECT id, name, role FROM annotators ORDER BY id`).all() as Array<{ id: number; name: string; role: AnnotatorRole }>;
  }

  setAnnotatorRole(name: string, role: AnnotatorRole): void {
    const id = this.ensureAnnotator(name, role);
    this.stmt(`UPDATE annotators SET role = ? WHERE id = ?`).run(role, id);
  }

  // ---------------------------------------------------------------- labels

  /**
   * Appends a label event. Skips (returns null) when the annotator's current label for the pair
   * already has this value (unless `restate`), so re-importing a labels file adds nothing. The pair must be in the
   * pool. Returns the new event's seq.
   */
  addLabel(l: LabelInput, poolId = this.pool(l.pool).id): number | null {
    if (!this.hasPoolPair(poolId, l.queryId, l.candidateId)) {
      throw new NotFoundError(`pair ${l.queryId} → ${l.candidateId} is not in pool "${l.pool}"`);
    }
    const annotatorId = this.ensureAnnotator(l.annotator);
    const cur = this.stmt(
      `SELECT value FROM labels WHERE pool_id = ? AND annotator_id = ? AND query_id = ? AND candidate_id = ? ORDER BY seq DESC LIMIT 1`,
    ).get(poolId, annotatorId, l.queryId, l.candidateId) as { value: string | null } | undefined;
    if ((cur?.value ?? null) === l.value && !l.restate) return null;
    const info = this.stmt(
      `INSERT INTO labels(pool_id, query_id, candidate_id, annotator_id, value, at, origin) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run(poolId, l.queryId, l.candidateId, annotatorId, l.value, now(), l.origin);
    return Number(info.lastInsertRowid);
  }

  /**
   * Undoes label event `seq`: appends an event restoring the value the annotator had for that
   * pair just before it (or clearing it). Returns the new event.
   */
  undoLabel(seq: number, origin = `undo:${seq}`): LabelRecord {
    const ev = this.stmt(`SELECT * FROM labels WHERE seq = ?`).get(seq) as
      | { pool_id: number; query_id: string; candidate_id: string; annotator_id: number }
      | undefined;
    if (!ev) throw new NotFoundError(`no label event ${seq}`);
    const prev = this.stmt(
      `SELECT value FROM labels WHERE pool_id = ? AND annotator_id = ? AND query_id = ? AND candidate_id = ? AND seq < ?
       ORDER BY seq DESC LIMIT 1`,
    ).get(ev.pool_id, ev.annotator_id, ev.query_id, ev.candidate_id, seq) as { value: string | null } | undefined;
    const info = this.stmt(
      `INSERT INTO labels(pool_id, query_id, candidate_id, annotator_id, value, at, origin) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run(ev.pool_id, ev.query_id, ev.candidate_id, ev.annotator_id, prev?.value ?? null, now(), origin);
    return this.labelEvent(Number(info.lastInsertRowid))!;
  }

  /**
   * When a label event was given, as the event that gave its value: an undo event (origin `undo:N`,
   * from undoLabel) brought back the annotator's event on the pair just before N — itself followed
   * when it is an undo — so it stands for that event's seq and origin; any other event is its own.
   */
  labelGivenAt(l: { seq: number; origin: string }): { seq: number; origin: string } {
    if (!l.origin.startsWith('undo:')) return l;
    const ev = this.stmt(`SELECT pool_id, annotator_id, query_id, candidate_id FROM labels WHERE seq = ?`).get(l.seq) as
      | { pool_id: number; annotator_id: number; query_id: string; candidate_id: string }
      | undefined;
    if (!ev) return l;
    const before = this.stmt(
      `SELECT seq, origin FROM labels WHERE pool_id = ? AND annotator_id = ? AND query_id = ? AND candidate_id = ? AND seq < ?
       ORDER BY seq DESC LIMIT 1`,
    );
    let at = l;
    while (at.origin.startsWith('undo:')) {
      const prev = before.get(ev.pool_id, ev.annotator_id, ev.query_id, ev.candidate_id, Number(at.origin.slice('undo:'.length))) as { seq: number; origin: string } | undefined;
      if (!prev) return l; // it brought back "no label": it stands for itself
      at = prev;
    }
    return at;
  }

  labelEvent(seq: number): LabelRecord | null {
    const r = this.stmt(
      `SELECT l.seq, p.name AS pool, l.query_id AS queryId, l.candidate_id AS candidateId, a.name AS annotator, l.value, l.at, l.origin
       FROM labels l JOIN pools p ON p.id = l.pool_id JOIN annotators a ON a.id = l.annotator_id WHERE l.seq = ?`,
    ).get(seq) as LabelRecord | undefined;
    return r ?? null;
  }

  /**
   * Current labels of a pool: the latest event per (query, candidate, annotator), cleared ones
   * left out — grouped along index labels_current (SQLite takes a group's other columns from the row
   * of its max(seq)), not a lookup of each event's pair's latest (74 → 35 ms for 148,000 events of
   * one pool). Optionally for one annotator only. With `each`, the rows go to it one at a time, in
   * the same order, and none is kept (a pool's gold state reads its 400,000 labels without holding
   * them all as rows at once); run no other statement from it (the connection is busy meanwhile).
   */
  currentLabels(pool: string, annotator?: string): CurrentLabel[];
  currentLabels(pool: string, annotator: string | undefined, each: (l: CurrentLabel) => void): void;
  currentLabels(pool: string, annotator?: string, each?: (l: CurrentLabel) => void): CurrentLabel[] | void {
    const p = this.pool(pool);
    const read = this.stmt(
      `SELECT g.query_id AS queryId, g.candidate_id AS candidateId, a.name AS annotator, g.value, g.seq, g.origin FROM
         (SELECT annotator_id, query_id, candidate_id, value, origin, max(seq) AS seq FROM labels
          WHERE pool_id = @pool AND (@ann IS NULL OR annotator_id = (SELECT id FROM annotators WHERE name = @ann))
          GROUP BY annotator_id, query_id, candidate_id) g
       JOIN annotators a ON a.id = g.annotator_id
       WHERE g.value IS NOT NULL
       ORDER BY g.seq`,
    );
    const params = { pool: p.id, ann: annotator ?? null };
    if (!each) return read.all(params) as CurrentLabel[];
    for (const l of read.iterate(params) as IterableIterator<CurrentLabel>) each(l);
  }

  // ---------------------------------------------------------------- notes (schema 10)

  /**
   * Sets (or, with null or blank text, removes) an annotator's note on a pair of the pool: why it
   * is unsure, a judge's reason for a ruling. One current note per pair and annotator; returns
   * whether anything changed.
   */
  setLabelNote(n: { pool: string; queryId: string; candidateId: string; annotator: string; note: string | null }, poolId = this.poolId(n.pool)): boolean {
    if (!this.hasPoolPair(poolId, n.queryId, n.candidateId)) throw new NotFoundError(`pair ${n.queryId} → ${n.candidateId} is not in pool "${n.pool}"`);
    const annotatorId = this.ensureAnnotator(n.annotator);
    const text = n.note === null ? '' : n.note.trim();
    const cur = this.stmt(`SELECT note FROM label_notes WHERE pool_id = ? AND query_id = ? AND candidate_id = ? AND annotator_id = ?`).get(
      poolId,
      n.queryId,
      n.candidateId,
      annotatorId,
    ) as { note: string } | undefined;
    if ((cur?.note ?? '') === text) return false;
    if (!text) this.stmt(`DELETE FROM label_notes WHERE pool_id = ? AND query_id = ? AND candidate_id = ? AND annotator_id = ?`).run(poolId, n.queryId, n.candidateId, annotatorId);
    else
      this.stmt(
        `INSERT INTO label_notes(pool_id, query_id, candidate_id, annotator_id, note, at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT(pool_id, query_id, candidate_id, annotator_id) DO UPDATE SET note = excluded.note, at = excluded.at`,
      ).run(poolId, n.queryId, n.candidateId, annotatorId, text, now());
    return true;
  }

  /**
   * The pool's label version — the seq of its last label event, 0 when none (events are appended,
   * an undo too, so it grows with every label change) — and, given `since`, the queries whose
   * labels changed after it: the Review screen reads again only those queries' pairs.
   */
  labelVersion(pool: string, since?: number): { version: number; queries: string[] } {
    const id = this.poolId(pool);
    const { v } = this.stmt(`SELECT COALESCE(MAX(seq), 0) AS v FROM labels WHERE pool_id = ?`).get(id) as { v: number };
    if (since === undefined) return { version: v, queries: [] };
    const rows = this.stmt(`SELECT DISTINCT query_id AS q FROM labels WHERE seq > ? AND pool_id = ?`).all(since, id) as Array<{ q: string }>;
    return { version: v, queries: rows.map((r) => r.q) };
  }

  /**
   * The notes of a pool (optionally one annotator's, optionally one query's), in pool order, a
   * pair's by annotator name: exports list them so, and the same notes re-imported into another
   * workspace (where its people are numbered in the order the file names them) export alike.
   */
  labelNotes(pool: string, o: { annotator?: string; queryId?: string } = {}): Array<{ queryId: string; candidateId: string; annotator: string; note: string; at: string }> {
    return this.stmt(
      `SELECT n.query_id AS queryId, n.candidate_id AS candidateId, a.name AS annotator, n.note, n.at
       FROM label_notes n JOIN annotators a ON a.id = n.annotator_id
       JOIN pool_queries q ON q.pool_id = n.pool_id AND q.query_id = n.query_id
       JOIN pool_candidates c ON c.pool_id = n.pool_id AND c.query_id = n.query_id AND c.candidate_id = n.candidate_id
       WHERE n.pool_id = @pool AND (@ann IS NULL OR a.name = @ann) AND (@q IS NULL OR n.query_id = @q)
       ORDER BY q.position, c.position, a.name`,
    ).all({ pool: this.poolId(pool), ann: o.annotator ?? null, q: o.queryId ?? null }) as Array<{ queryId: string; candidateId: string; annotator: string; note: string; at: string }>;
  }

  labelHistory(pool: string, opts: { annotator?: string; limit?: number } = {}): LabelRecord[] {
    const p = this.pool(pool);
    return this.stmt(
      `SELECT l.seq, @name AS pool, l.query_id AS queryId, l.candidate_id AS candidateId, a.name AS annotator, l.value, l.at, l.origin
       FROM labels l JOIN annotators a ON a.id = l.annotator_id
       WHERE l.pool_id = @pool AND (@ann IS NULL OR a.name = @ann) ORDER BY l.seq DESC LIMIT @limit`,
    ).all({ name: p.name, pool: p.id, ann: opts.annotator ?? null, limit: opts.limit ?? -1 }) as LabelRecord[];
  }
}
