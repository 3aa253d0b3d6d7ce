/**
 * Aggregation rules (pure): how the votes of a pair's annotators (and a judge's label) combine
 * into one label.
 *
 * Votes are the current labels of the annotators assigned to the pair's query. "?" (unsure) is a
 * first-class label: it is not a value, but it is a vote that says "I cannot decide", so a pair
 * with an unsure vote is never `agreed` and always goes to the Review queue (a judge may settle
 * it). A pair with no vote at all (not even "?") is `unlabeled`. A *disagreement* is a pair with
 * two or more different decisive (non-"?") votes. Per rule, with how "?" counts:
 *
 * - `adjudicated` (default): all votes equal and none unsure → that value (`agreed`); a
 *   disagreement or any "?" → the judge's label (`adjudicated`), else `unresolved`.
 * - `majority`: all votes equal and none unsure → `agreed`; otherwise the judge's label when
 *   there is one (`adjudicated`: a judge who looked at the pair overrides the count), else the
 *   value with a strict majority of ALL votes, each "?" counting as a vote for no value
 *   (`majority`): 0 + 0 + ? → 0; 0 + ? (a tie), ? + ? + 0 (unsure wins) or 1–1 are `unresolved`.
 * - `mean`: m = mean grade of the decisive votes (binary 0/1, SemEval 0/1/2, Likert −2…+2, graded
 *   any integer; "?" has no grade and is left out of the mean). The gold grade is m rounded to the
 *   nearest grade, a tie (m halfway between two grades) to the lower one; m > threshold (default 0:
 *   for Likert, "mean above 0 means relevant") makes the pair relevant, so its grade is at least 1,
 *   else at most 0 (`mean`; meanGrade). Binary pools thus get 1 or 0; SemEval 2, 1 (m > threshold)
 *   or 0 as its names. Only "?" votes → `unresolved`. Judges are ignored.
 * - `unanimous`: decisive votes from every assigned annotator, all equal → `agreed`; anything
 *   else (a disagreement, any "?", or an assigned annotator still missing) → `unresolved`.
 *   Judges are ignored.
 *
 * Under `adjudicated`, `majority` and `mean` a pair with only some of its assigned annotators'
 * votes is resolved from the votes given so far (live metrics while labeling); `complete` tells
 * whether every assigned annotator voted ("?" included).
 */
import { DEFAULT_RELEVANCE_THRESHOLD, labelGrade, UNSURE, type LabelScheme } from '../../shared/labels';
import type { AggregationRule, PairStatus } from '../../shared/gold';

export interface Resolution {
  value: string | null;
  status: PairStatus;
  /** Mean grade of the votes (rule `mean` only). */
  mean?: number;
}

/** The value of a grade in a scheme: SemEval's names (2 PerfectMatch, 1 Relevant, 0 Irrelevant), else the integer. */
export function gradeValue(scheme: LabelScheme, grade: number): string {
  if (scheme === 'semeval3') return grade >= 2 ? 'PerfectMatch' : grade >= 1 ? 'Relevant' : 'Irrelevant';
  return String(grade);
}

/**
 * The mean rule's grade: the grade nearest `mean`, halfway between two grades the lower one
 * (1.5 → 1, −0.5 → −1); kept at least 1 (the lowest relevant grade) when `relevant`, at most 0 when not.
 */
export function meanGrade(mean: number, relevant: boolean): number {
  const nearest = Math.ceil(mean - 0.5) + 0; // + 0: no −0
  return relevant ? Math.max(nearest, DEFAULT_RELEVANCE_THRESHOLD) : Math.min(nearest, DEFAULT_RELEVANCE_THRESHOLD - 1);
}

/** True when the votes hold two or more different values. */
export function isDisagreement(votes: readonly string[]): boolean {
  for (let i = 1; i < votes.length; i++) if (votes[i] !== votes[0]) return true;
  return false;
}

/** The value with strictly more votes than any other, or null on a tie (or no votes). */
export function strictMajority(votes: readonly string[]): string | null {
  const counts = new Map<string, number>();
  for (const v of votes) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: string | null = null;
  let bestN = 0;
  let tie = false;
  for (const [v, n] of counts) {
    if (n > bestN) {
      best = v;
      bestN = n;
      tie = false;
    } else if (n === bestN) tie = true;
  }
  return tie ? null : best;
}

export interface ResolveOptions {
  rule: AggregationRule;
  scheme: LabelScheme;
  /** Mean rule: relevant iff mean grade > threshold (default 0). */
  threshold?: number;
  /** Every assigned annotator voted (the unanimous rule needs it; default true). */
  complete?: boolean;
  /** Number of "?" (unsure) votes of the pair, besides `votes` (default 0). */
  unsure?: number;
}

/**
 * Resolves one pair: `votes` are the assigned annotators' decisive values ("?" removed and
 * counted in `o.unsure`), `judge` the judge's current value or null. See the module comment.
 */
export function resolvePair(votes: readonly string[], judge: string | null, o: ResolveOptions): Resolution {
  const unsure = o.unsure ?? 0;
  if (votes.length === 0 && unsure === 0) return { value: null, status: 'unlabeled' };
  const settledByVotes = !isDisagreement(votes) && unsure === 0;
  switch (o.rule) {
    case 'adjudicated':
      if (settledByVotes) return { value: votes[0]!, status: 'agreed' };
      return judge !== null ? { value: judge, status: 'adjudicated' } : { value: null, status: 'unresolved' };
    case 'majority': {
      if (settledByVotes) return { value: votes[0]!, status: 'agreed' };
      if (judge !== null) return { value: judge, status: 'adjudicated' };
      const all = unsure > 0 ? [...votes, ...Array<string>(unsure).fill(UNSURE)] : votes;
      const m = strictMajority(all);
      return m !== null && m !== UNSURE ? { value: m, status: 'majority' } : { value: null, status: 'unresolved' };
    }
    case 'mean': {
      let sum = 0;
      let n = 0;
      for (const v of votes) {
        const g = labelGrade(v);
        if (g === null) continue;
        sum += g;
        n++;
      }
      if (n === 0) return { value: null, status: unsure > 0 ? 'unresolved' : 'unlabeled' };
      const mean = sum / n;
      return { value: gradeValue(o.scheme, meanGrade(mean, mean > (o.threshold ?? 0))), status: 'mean', mean };
    }
    case 'unanimous':
      if (settledByVotes && (o.complete ?? true)) return { value: votes[0]!, status: 'agreed' };
      return { value: null, status: 'unresolved' };
  }
}
