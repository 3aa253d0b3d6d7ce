/**
 * A model against the scikit-learn peer on the same queries, paired query by query (bench:semeval):
 * is "ahead of the peer" a difference or noise? For each protocol (CV, clean dev) the per-query APs of
 * the model and of the peer are matched by query id and compared with ../../src/main/stats
 * compareRankers (baseline = the peer):
 *   d_q = AP_model(q) − AP_peer(q),  mean d̄ over the n queries;
 *   95% percentile bootstrap interval of d̄ (queries resampled, 2,000 resamples, seed 1);
 *   two-sided paired sign-flip permutation p (10,000 flips, seed 1; exact when 2^n ≤ 10,000);
 *   two-sided paired t-test p.
 * CV APs are each query's AP averaged over the reporting repeats (as the table's CV MAP).
 */
import { compareRankers } from '../../src/main/stats';

/** Per-query values of one run: values[i] is the AP of query ids[i]. */
export interface PerQueryRun {
  ids: readonly string[];
  values: readonly number[];
}

export interface PairedDifference {
  /** Queries compared. */
  n: number;
  /** Mean of AP_model − AP_peer. */
  meanDiff: number;
  /** 95% bootstrap interval of meanDiff. */
  ci: [number, number] | null;
  /** Two-sided permutation p of meanDiff. */
  pPermutation: number | null;
  /** Two-sided paired t-test p. */
  pT: number | null;
  /** Queries where the model's AP is higher / lower than the peer's (the rest tie). */
  wins: number;
  losses: number;
}

/**
 * The paired difference model − peer over the queries both runs scored. Throws when the two runs do
 * not hold the same query ids (a misaligned comparison is worse than none), or a run has an id twice.
 */
export function pairedVsPeer(model: PerQueryRun, peer: PerQueryRun): PairedDifference {
  const byId = (r: PerQueryRun, who: string) => {
    if (r.ids.length !== r.values.length) throw new Error(`${who}: ${r.ids.length} query ids for ${r.values.length} values`);
    const m = new Map<string, number>();
    r.ids.forEach((id, i) => {
      if (m.has(id)) throw new Error(`${who}: query ${id} appears twice`);
      m.set(id, r.values[i]!);
    });
    return m;
  };
  const a = byId(model, 'model');
  const b = byId(peer, 'peer');
  const missing = [...a.keys()].filter((id) => !b.has(id)).concat([...b.keys()].filter((id) => !a.has(id)));
  if (a.size === 0) throw new Error('no queries to compare');
  if (missing.length > 0) throw new Error(`the model and the peer scored different queries (${missing.length} not in both, e.g. ${missing.slice(0, 3).join(', ')})`);
  const ids = [...a.keys()];
  const cmp = compareRankers(
    {
      queries: ids,
      rankers: [
        { name: 'model', values: ids.map((id) => a.get(id)!) },
        { name: 'peer', values: ids.map((id) => b.get(id)!) },
      ],
    },
    { baseline: 'peer', resamples: 2000, permutations: 10_000, seed: 1 },
  );
  const pair = cmp.pairs[0]!; // a = model, b = the baseline (peer)
  const ci = pair.ci.value;
  let wins = 0;
  let losses = 0;
  let sum = 0;
  for (const id of ids) {
    const d = a.get(id)! - b.get(id)!;
    sum += d;
    if (d > 0) wins++;
    else if (d < 0) losses++;
  }
  return {
    n: ids.length,
    meanDiff: sum / ids.length,
    ci: ci ? [ci[0], ci[1]] : null,
    pPermutation: pair.permutation.p.value,
    pT: pair.tTest.p.value,
    wins,
    losses,
  };
}

/** "+0.62 (−1.10 to +2.31; permutation p 0.481, t p 0.470; ahead on 40, behind on 35 of 117 queries)", in MAP points. */
export function formatPaired(p: PairedDifference): string {
  const pts = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(100 * x).toFixed(2)}`;
  const ci = p.ci ? ` (${pts(p.ci[0])} to ${pts(p.ci[1])}` : ' (no interval';
  const pv = (x: number | null) => (x === null ? 'undefined' : x < 0.001 ? '< 0.001' : x.toFixed(3));
  return `${pts(p.meanDiff)}${ci}; permutation p ${pv(p.pPermutation)}, t p ${pv(p.pT)}; ahead on ${p.wins}, behind on ${p.losses} of ${p.n} queries)`;
}
