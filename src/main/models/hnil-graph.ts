/**
 * HNIL's heterogeneous CQA network and its DeepWalk node embeddings (Perozzi et al. 2014, as used by
 * the HNIL paper, §3.2):
 *
 *  - vertices: questions (`q:<id>`), users (`u:<id>`: askers and answerers share one id space, as
 *    in the forums) and categories (`c:<name>`);
 *  - undirected edges: question–asker, question–category, question–answerer (each user who wrote an
 *    answer or comment of the question; repeated answers by one user give one edge);
 *  - walks: `walksPerVertex` passes; each pass shuffles the vertices and starts one uniform random
 *    walk of `walkLength` vertices (the start included) from each vertex that has a neighbour;
 *  - node vectors: skip-gram with negative sampling over the walks (`sgns.ts`, no subsampling:
 *    every vertex of a walk is context), `window` positions each side; `epochs` rounds of fresh
 *    walks (small graphs need more than DeepWalk's single round to separate).
 *
 * The forum data has no friendship lists (the paper's Twitter follow graph), so users are linked
 * through the questions they ask and answer: two users are two steps apart when one answered the
 * other's question.
 */
import { Rng } from './rng';
import { SgnsTrainer } from './sgns';
import type { QText } from './types';

export interface QaGraph {
  /** Vertex names: `q:<id>`, `u:<id>`, `c:<name>`. */
  nodes: string[];
  index: Map<string, number>;
  /** CSR adjacency: the neighbours of v are neighbours[offsets[v] .. offsets[v+1]). */
  offsets: Int32Array;
  neighbors: Int32Array;
  counts: { questions: number; users: number; categories: number; edges: number };
}

export const questionNode = (id: string): string => `q:${id}`;
export const userNode = (id: string): string => `u:${id}`;
export const categoryNode = (name: string): string => `c:${name}`;

/** The graph of the questions (asker, category) and their answerers (question id → user ids). */
export function buildQaGraph(questions: Iterable<QText>, answerers: ReadonlyMap<string, readonly string[]> = new Map()): QaGraph {
  const index = new Map<string, number>();
  const nodes: string[] = [];
  const adj: Array<Set<number>> = [];
  const counts = { questions: 0, users: 0, categories: 0, edges: 0 };
  const vertex = (name: string): number => {
    let v = index.get(name);
    if (v === undefined) {
      v = nodes.length;
      index.set(name, v);
      nodes.push(name);
      adj.push(new Set());
      if (name.startsWith('q:')) counts.questions++;
      else if (name.startsWith('u:')) counts.users++;
      else counts.categories++;
    }
    return v;
  };
  const link = (a: number, b: number): void => {
    if (a === b || adj[a]!.has(b)) return;
    adj[a]!.add(b);
    adj[b]!.add(a);
    counts.edges++;
  };
  for (const q of questions) {
    const others: string[] = [];
    if (q.user) others.push(userNode(q.user));
    if (q.category) others.push(categoryNode(q.category));
    for (const u of answerers.get(q.id) ?? []) others.push(userNode(u));
    if (others.length === 0) continue;
    const qv = vertex(questionNode(q.id));
    for (const o of others) link(qv, vertex(o));
  }
  const offsets = new Int32Array(nodes.length + 1);
  for (let v = 0; v < nodes.length; v++) offsets[v + 1] = offsets[v]! + adj[v]!.size;
  const neighbors = new Int32Array(offsets[nodes.length]!);
  for (let v = 0; v < nodes.length; v++) neighbors.set([...adj[v]!].sort((a, b) => a - b), offsets[v]!);
  return { nodes, index, offsets, neighbors, counts };
}

export interface DeepWalkConfig {
  walksPerVertex: number;
  /** Rounds of walks: each round draws `walksPerVertex` fresh walks per vertex and trains on them once. */
  epochs: number;
  walkLength: number;
  dim: number;
  window: number;
  negatives: number;
  lr: number;
}

/** The vertices a walk can start from (those with a neighbour). */
function walkStarts(g: QaGraph): number[] {
  const starts: number[] = [];
  for (let v = 0; v < g.nodes.length; v++) if (g.offsets[v + 1]! > g.offsets[v]!) starts.push(v);
  return starts;
}

/** One truncated uniform random walk of `length` vertices from `start`. */
export function randomWalk(g: QaGraph, start: number, length: number, rng: Rng): Int32Array {
  const walk = new Int32Array(length);
  walk[0] = start;
  let v = start;
  for (let t = 1; t < length; t++) {
    const lo = g.offsets[v]!;
    v = g.neighbors[lo + rng.int(g.offsets[v + 1]! - lo)]!;
    walk[t] = v;
  }
  return walk;
}

/**
 * DeepWalk: `epochs` × `walksPerVertex` passes, each over the shuffled start vertices, one walk
 * per start; skip-gram (sgns.ts, no subsampling) trains on each walk as it is drawn, so walks are
 * never all held in memory (the learning rate decays over all passes). Vertex frequencies for negative sampling are the degrees + 1 (a uniform walk
 * visits a vertex in proportion to its degree). `visit` sees the first epoch's walks (HNIL collects its
 * same-category question pairs there). Returns the node vectors [nodes × dim].
 */
export async function deepWalk(
  g: QaGraph,
  cfg: DeepWalkConfig,
  rng: Rng,
  hooks: { visit?: (walk: Int32Array) => void; onPass?: (pass: number) => Promise<void> } = {},
): Promise<Float32Array> {
  const V = g.nodes.length;
  const counts = new Float64Array(V);
  for (let v = 0; v < V; v++) counts[v] = g.offsets[v + 1]! - g.offsets[v]! + 1;
  const syn0 = new Float32Array(V * cfg.dim);
  for (let i = 0; i < syn0.length; i++) syn0[i] = (rng.next() - 0.5) / cfg.dim;
  const starts = walkStarts(g);
  if (V === 0) return syn0;
  const sgns = new SgnsTrainer({
    counts,
    dim: cfg.dim,
    window: cfg.window,
    negatives: cfg.negatives,
    lr: cfg.lr,
    subsample: 0,
    budget: starts.length * cfg.walksPerVertex * cfg.epochs * cfg.walkLength + 1,
    syn0,
    seed: rng.u32(),
  });
  let pass = 0;
  for (let e = 0; e < cfg.epochs; e++) {
    for (let p = 0; p < cfg.walksPerVertex; p++) {
      for (const start of rng.shuffle([...starts])) {
        const walk = randomWalk(g, start, cfg.walkLength, rng);
        if (e === 0) hooks.visit?.(walk);
        sgns.trainSequence(walk);
      }
      await hooks.onPass?.(++pass);
    }
  }
  return sgns.syn0;
}
