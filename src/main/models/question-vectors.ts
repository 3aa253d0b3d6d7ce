/**
 * Per-question vectors of the embedding-style rankers (skipgram, mnet-fisher, dae), cached by id +
 * text (textKey) so that scoring a pool computes each question once; and the dot-product scoring
 * they share (their vectors are unit length, so the dot product is the cosine).
 */
import { textKey } from './text';
import type { QText } from './types';

export class QuestionVectors<V extends ArrayLike<number>> {
  private readonly cache = new Map<string, V>();

  /** `compute` makes a question's vector; the cache empties itself past `limit` entries. */
  constructor(
    private readonly compute: (q: QText) => V,
    private readonly limit = 20_000,
  ) {}

  of(q: QText): V {
    const key = textKey(q);
    let v = this.cache.get(key);
    if (!v) {
      v = this.compute(q);
      if (this.cache.size >= this.limit) this.cache.clear();
      this.cache.set(key, v);
    }
    return v;
  }

  /** Dot product of the query's vector with each candidate's. */
  scores(query: QText, candidates: readonly QText[]): number[] {
    const a = this.of(query);
    return candidates.map((c) => {
      const b = this.of(c);
      let s = 0;
      for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
      return s;
    });
  }

  /** Forget every vector (after the model's weights change). */
  clear(): void {
    this.cache.clear();
  }
}
