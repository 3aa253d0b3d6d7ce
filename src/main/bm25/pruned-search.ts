/**
 * A pruned search on an index state: the kernel's view of the index (shared arrays, built once per
 * index version), the helper thread for the second part when the index spans several windows,
 * and the merge of the parts (./block-max-scoring.ts, ./scan-helper.ts).
 */
import { sharedWithRoom, type IndexState } from './index-state';
import { addCounts, blockMaxTotals, mergeParts, scanKernel, termArrays, type BlockBounds, type ScanIndex, type ScanPart, type ScoredTerm } from './block-max-scoring';
import { ScanHelper } from './scan-helper';
import type { Bm25Hit } from './bm25-types';

/** The kernel's view of the index, rebuilt when the index changed (st.normsVersion). */
export function indexView(st: IndexState): ScanIndex {
  if (st.scanView && st.scanViewVersion === st.normsVersion) return st.scanView;
  // Doc numbers move to shared memory (the state keeps using the shared copy: no second one).
  st.ordDoc = sharedWithRoom(st.ordDoc, st.ordDoc.length);
  const escaped = new Map<number, { ords: Int32Array; tfs: Float64Array }>();
  for (const [term, big] of st.bigTfByTerm) {
    const order = big.ords.map((_, j) => j).filter((j) => st.alive[big.ords[j]!]);
    order.sort((a, b) => big.ords[a]! - big.ords[b]!);
    if (order.length > 0) escaped.set(term, { ords: Int32Array.from(order, (j) => big.ords[j]!), tfs: Float64Array.from(order, (j) => big.tfs[j]!) });
  }
  const view: ScanIndex = {
    post: st.post,
    off: st.off,
    normClass: st.normClass,
    tfFactor: st.tfFactor,
    classNorm: st.classNorm,
    ordDoc: st.ordDoc,
    nOrd: st.nOrd,
    window: st.pruneWindow,
    bigTf: st.bigTf,
    escaped,
    excluded: st.excluded,
    bounds: emptyBounds(st.off),
  };
  st.scanView = view;
  st.scanViewVersion = st.normsVersion;
  return view;
}

/** Room for the block bounds of the terms with BLOCK postings or more, none computed yet (shared memory). */
function emptyBounds(off: Int32Array): BlockBounds {
  const { BLOCK } = scanKernel.constants;
  const nT = off.length - 1;
  const start = new Int32Array(new SharedArrayBuffer(Math.max(nT, 1) * 4));
  let blocks = 0;
  for (let t = 0; t < nT; t++) {
    const df = off[t + 1]! - off[t]!;
    start[t] = df >= BLOCK ? blocks : -1;
    if (df >= BLOCK) blocks += Math.ceil(df / BLOCK);
  }
  return { start, vals: new Float64Array(new SharedArrayBuffer(Math.max(blocks, 1) * 8)), state: new Int32Array(new SharedArrayBuffer(Math.max(nT, 1) * 4)) };
}

/**
 * Readies the pruned scan ahead of the first search, in steps (each reads about `postingsPerStep`
 * postings): the view, the helper thread with the index posted to it, then every term's block
 * bounds. A search between two steps uses what is ready and computes the rest of its own terms'
 * bounds; the steps stop when the index changed meanwhile (the next search builds another view)
 * or when `stopped()` says so (the index was closed).
 * Nothing when searches on this index would not prune (./scoring.ts: 'auto' below pruneFromDocs).
 */
export function* warmPrunedScanSteps(st: IndexState, postingsPerStep = 250_000, stopped: () => boolean = () => false): Generator<void, void> {
  const prunes = st.scanMode === 'pruned' || (st.scanMode === 'auto' && st.nOrd >= st.pruneFromDocs);
  if (!prunes || st.nOrd === 0) return;
  const ix = indexView(st);
  if (st.scanThreads >= 2 && st.nOrd > st.pruneWindow) helperOf(st)?.post(ix);
  const nT = ix.off.length - 1;
  for (let t = 0; t < nT; ) {
    yield;
    // Changes not merged yet: the next search builds another view.
    if (stopped() || st.scanView !== ix || st.nq > 0 || st.retiredSinceMerge || st.normsDirty) return;
    const step = scanKernel.warmBounds(ix, t, postingsPerStep);
    blockMaxTotals.boundPostingsWarmed += step.read;
    t = step.next;
  }
}

/** Parts the helper threads of this process answered, and those the calling thread scanned after a helper failed (for tests). */
export const helperTotals = { parts: 0, fallbacks: 0 };

/** Stops the helper threads of states that are no longer used. */
const helpers = new FinalizationRegistry<ScanHelper>((h) => h.close());

function helperOf(st: IndexState): ScanHelper | null {
  if (st.scanHelper === undefined) {
    st.scanHelper = new ScanHelper();
    helpers.register(st, st.scanHelper, st);
  }
  return st.scanHelper && !st.scanHelper.broken ? st.scanHelper : null;
}

/**
 * The exact top k of the query terms (in the query's order) by the pruned scan; `excluded` lists
 * the ordinals marked in st.excluded. With st.scanThreads ≥ 2 and more than one window, the
 * helper thread scans every other window.
 */
export function scoreTermsBlockMax(st: IndexState, terms: readonly ScoredTerm[], k: number, excluded: readonly number[]): Bm25Hit[] {
  const ix = indexView(st);
  const { ids, ws } = termArrays(terms);
  let postings = 0;
  for (const t of terms) postings += t.df;
  const helper = st.scanThreads >= 2 && st.nOrd > st.pruneWindow && k > 0 && terms.length > 0 ? helperOf(st) : null;
  let parts: ScanPart[];
  if (helper && helper.start(ix, ids, ws, k, [...excluded])) {
    const mine = scanKernel.scan(ix, ids, ws, k, 0, 2, helper.theta);
    let theirs = helper.finish();
    if (theirs) helperTotals.parts++;
    else {
      helperTotals.fallbacks++;
      theirs = scanKernel.scan(ix, ids, ws, k, 1, 2, null);
    }
    parts = [mine, theirs];
  } else parts = [scanKernel.scan(ix, ids, ws, k, 0, 1, null)];
  for (const p of parts) addCounts(blockMaxTotals, p.counts);
  blockMaxTotals.searches++;
  blockMaxTotals.postings += postings;
  return mergeParts(parts, k);
}

/** Stops the state's helper thread, if any (searches then run on the calling thread). */
export function closeScanHelper(st: IndexState): void {
  if (st.scanHelper) {
    helpers.unregister(st);
    st.scanHelper.close();
  }
  st.scanHelper = null;
}
