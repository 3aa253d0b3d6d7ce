/**
 * What a stored model was trained on, and which evaluated queries it saw.
 *
 * When a model is stored, every training query is recorded (table model_trained_on, migration
 * 7): its id, the key of its normalised text and its MinHash signature. An evaluated query was
 * seen by the model when a training query has the same id, the same normalised text, or a
 * near-duplicate text (Jaccard ≥ NEAR_DUPLICATE_JACCARD over word 3-shingles). Near-duplicate
 * candidates come from MinHash banding; a candidate is confirmed with the exact Jaccard of the
 * current texts when the training question is still in the workspace with the text it had at
 * training time, else (its text changed or it is gone) with the signatures' estimate.
 */
import {
  bandRows,
  estimatedJaccard,
  exactJaccard,
  fingerprint,
  forEachBandCollision,
  NEAR_DUPLICATE_JACCARD,
  textKey,
  type Fingerprint,
  type OverlapItem,
} from '../overlap';
import type { TrainedOnRecord } from '../models/worker-protocol';
import { itemsKey, questionItem, WorkspaceMemo } from './overlap-memo';
import type { Workspace } from '../workspace/workspace';

/** How many of the evaluated queries a model was trained on ("trained on 50 of these 50 queries"). */
export interface ModelOverlap {
  trainedOn: number;
  of: number;
  /** Of trainedOn: by the same id, the same normalised text, a near-duplicate. */
  sameId: number;
  sameText: number;
  nearDuplicate: number;
}

/** "trained on 50 of these 50 queries (50 same text)". */
export function describeOverlap(o: ModelOverlap): string {
  const why = [
    o.sameId ? `${o.sameId} same id` : '',
    o.sameText ? `${o.sameText} same text` : '',
    o.nearDuplicate ? `${o.nearDuplicate} near-duplicate` : '',
  ].filter(Boolean);
  return `trained on ${o.trainedOn} of these ${o.of} queries${why.length ? ` (${why.join(', ')})` : ''}`;
}

/**
 * modelOverlap of a run in a pool over `evaluated` (query ids): undefined when the run is not a stored
 * model's (a retriever's or an imported run); the queries the run scores out of fold (its model was
 * cross-validated on them: run config `outOfFold`) count as not trained on — their scores came from
 * fold models that never saw them. `of` stays the number of evaluated queries.
 */
export function runModelOverlap(ws: Workspace, pool: string, run: string, evaluated: readonly string[]): ModelOverlap | null | undefined {
  if (!ws.runKinds(pool).some((r) => r.name === run && r.kind === 'model')) return undefined;
  const oof = ws.outOfFoldQueries(pool, run);
  if (oof.size === 0) return modelOverlap(ws, run, evaluated);
  const o = modelOverlap(ws, run, evaluated.filter((id) => !oof.has(id)));
  return o && { ...o, of: evaluated.length };
}

function modelRowId(ws: Workspace, name: string): number | null {
  const r = ws.stmt(`SELECT id FROM models WHERE name = ?`).get(name) as { id: number } | undefined;
  return r?.id ?? null;
}

function signatureBlob(sig: Uint32Array): Buffer {
  const b = Buffer.alloc(sig.length * 4);
  for (let i = 0; i < sig.length; i++) b.writeUInt32LE(sig[i]!, i * 4);
  return b;
}

function blobSignature(b: Buffer): Uint32Array {
  const s = new Uint32Array(b.length / 4);
  for (let i = 0; i < s.length; i++) s[i] = b.readUInt32LE(i * 4);
  return s;
}

/**
 * The rows recording training queries: each query's text key and near-duplicate signature (~1 ms a
 * query: the train worker computes them, trainSaved, so the engine's thread only stores them).
 */
export function trainedOnFingerprints(queries: readonly OverlapItem[]): TrainedOnRecord[] {
  return queries.map((q) => {
    const f = fingerprint(q);
    return { id: q.id, text: textKey(f.text), signature: f.shingles.length ? signatureBlob(f.signature) : Buffer.alloc(0) };
  });
}

/** Records a stored model's training queries (replacing what was recorded for that name): their texts, or their rows (trainedOnFingerprints). */
export function storeTrainedOn(ws: Workspace, model: string, queries: readonly OverlapItem[] | { rows: readonly TrainedOnRecord[] }): void {
  const id = modelRowId(ws, model);
  if (id === null) return;
  const rows = 'rows' in queries ? queries.rows : trainedOnFingerprints(queries);
  ws.transaction(() => {
    ws.stmt(`DELETE FROM model_trained_on WHERE model = ?`).run(id);
    const ins = ws.stmt(`INSERT OR IGNORE INTO model_trained_on(model, query_id, text_hash, signature) VALUES (?, ?, ?, ?)`);
    // A row from the worker carries a Uint8Array (a Buffer does not cross threads as one).
    for (const r of rows) ins.run(id, r.id, r.text, Buffer.from(r.signature.buffer, r.signature.byteOffset, r.signature.byteLength));
  });
}

/**
 * Adds the training queries recorded for model `from`, except `except` (ids), to those of `model`
 * (a fusing model whose feature is `from`'s run: where `from` was trained, the fuser's scores
 * carry its in-sample scores, so a pool asking those queries is marked for the fuser too).
 */
export function inheritTrainedOn(ws: Workspace, model: string, from: string, except: ReadonlySet<string>): void {
  const id = modelRowId(ws, model);
  const src = modelRowId(ws, from);
  if (id === null || src === null || src === id) return;
  const rows = ws.stmt(`SELECT query_id, text_hash, signature FROM model_trained_on WHERE model = ? ORDER BY rowid`).all(src) as Array<{ query_id: string; text_hash: string; signature: Buffer }>;
  const ins = ws.stmt(`INSERT OR IGNORE INTO model_trained_on(model, query_id, text_hash, signature) VALUES (?, ?, ?, ?)`);
  ws.transaction(() => {
    for (const r of rows) if (!except.has(r.query_id)) ins.run(id, r.query_id, r.text_hash, r.signature);
  });
}

interface TrainedOnRow {
  id: string;
  key: string;
  signature: Uint32Array | null;
}

function trainedOnRows(ws: Workspace, modelId: number): TrainedOnRow[] {
  return (ws.stmt(`SELECT query_id, text_hash, signature FROM model_trained_on WHERE model = ? ORDER BY rowid`).all(modelId) as Array<{
    query_id: string;
    text_hash: string;
    signature: Buffer;
  }>).map((r) => ({ id: r.query_id, key: r.text_hash, signature: r.signature.length ? blobSignature(r.signature) : null }));
}

/** The ids a model was trained on, in training order (empty for models stored before migration 7). */
export function trainedOnIds(ws: Workspace, model: string): string[] {
  const id = modelRowId(ws, model);
  return id === null ? [] : trainedOnRows(ws, id).map((r) => r.id);
}

const overlaps = new WorkspaceMemo<ModelOverlap>();

/**
 * How many of `evaluated` (query ids of the workspace) the stored model `model` was trained on;
 * null when the model is unknown or was stored before training queries were recorded.
 */
export function modelOverlap(ws: Workspace, model: string, evaluated: readonly string[]): ModelOverlap | null {
  const row = ws.stmt(`SELECT id, created, training FROM models WHERE name = ?`).get(model) as { id: number; created: string; training: string } | undefined;
  if (!row) return null;
  if ((JSON.parse(row.training) as { trainedOnQueries?: number }).trainedOnQueries === undefined) return null;
  const items = evaluated.map((id) => questionItem(ws, id) ?? { id, title: '', body: '' });
  const key = `${row.id}\u0001${row.created}\u0001${itemsKey(items)}`;
  return overlaps.get(ws, key, () => computeOverlap(ws, trainedOnRows(ws, row.id), items.map(fingerprint)));
}

function computeOverlap(ws: Workspace, trained: readonly TrainedOnRow[], evals: readonly Fingerprint[]): ModelOverlap {
  const ids = new Set(trained.map((t) => t.id));
  const keys = new Set(trained.map((t) => t.key).filter(Boolean));
  const reason: Array<'sameId' | 'sameText' | 'nearDuplicate' | null> = evals.map((e) =>
    ids.has(e.id) ? 'sameId' : e.text && keys.has(textKey(e.text)) ? 'sameText' : null,
  );
  const signatures: Array<Uint32Array | null> = [
    ...trained.map((t) => t.signature),
    ...evals.map((e, j) => (reason[j] === null && e.shingles.length ? e.signature : null)),
  ];
  const n = trained.length;
  const current = new Map<number, Fingerprint | null>();
  const trainedText = (i: number): Fingerprint | null => {
    if (!current.has(i)) {
      const item = questionItem(ws, trained[i]!.id);
      const f = item ? fingerprint(item) : null;
      current.set(i, f && textKey(f.text) === trained[i]!.key ? f : null);
    }
    return current.get(i)!;
  };
  forEachBandCollision(signatures, bandRows(NEAR_DUPLICATE_JACCARD), (a, b) => {
    if (a >= n || b < n) return;
    const j = b - n;
    if (reason[j] !== null) return;
    const t = trainedText(a);
    const jac = t ? exactJaccard(t.shingles, evals[j]!.shingles) : estimatedJaccard(trained[a]!.signature!, evals[j]!.signature);
    if (jac >= NEAR_DUPLICATE_JACCARD) reason[j] = 'nearDuplicate';
  });
  const count = (r: string) => reason.filter((x) => x === r).length;
  const sameId = count('sameId');
  const sameText = count('sameText');
  const nearDuplicate = count('nearDuplicate');
  return { trainedOn: sameId + sameText + nearDuplicate, of: evals.length, sameId, sameText, nearDuplicate };
}
