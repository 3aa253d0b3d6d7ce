/**
 * Bounded top-k selection of (doc, score) pairs with a binary min-heap whose root is the
 * currently *worst* kept entry. Order: score descending, ties by doc number ascending — so a
 * result is fully deterministic. O(n log k) for n offers.
 *
 * Written as a self-contained factory (it refers to nothing outside its body) so that the pruned
 * scan's helper thread, which is built from source text (./scan-helper.ts), runs this same code.
 */
export function topKFactory() {
  /** True when (s1, d1) ranks below (s2, d2). */
  function worse(s1: number, d1: number, s2: number, d2: number): boolean {
    return s1 < s2 || (s1 === s2 && d1 > d2);
  }

  return class TopK {
    private readonly scores: Float64Array;
    private readonly docs: Float64Array;
    private n = 0;

    constructor(readonly k: number) {
      this.scores = new Float64Array(Math.max(1, k));
      this.docs = new Float64Array(Math.max(1, k));
    }

    get size(): number {
      return this.n;
    }

    /** Score an entry must beat (or tie with a smaller doc) to get in once full; -Infinity before. */
    get threshold(): number {
      return this.n < this.k ? -Infinity : this.scores[0]!;
    }

    /** Offers one entry; keeps it if it is among the best k so far. */
    offer(doc: number, score: number): void {
      const s = this.scores;
      const d = this.docs;
      if (this.n < this.k) {
        // sift up
        let i = this.n++;
        while (i > 0) {
          const p = (i - 1) >> 1;
          if (!worse(score, doc, s[p]!, d[p]!)) break;
          s[i] = s[p]!;
          d[i] = d[p]!;
          i = p;
        }
        s[i] = score;
        d[i] = doc;
        return;
      }
      if (this.k === 0 || !worse(s[0]!, d[0]!, score, doc)) return;
      // replace the root, sift down
      const n = this.n;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        let c = l;
        if (r < n && worse(s[r]!, d[r]!, s[l]!, d[l]!)) c = r;
        if (!worse(s[c]!, d[c]!, score, doc)) break;
        s[i] = s[c]!;
        d[i] = d[c]!;
        i = c;
      }
      s[i] = score;
      d[i] = doc;
    }

    /** The kept entries, best first (score descending, doc ascending). */
    sorted(): { doc: number; score: number }[] {
      const out: { doc: number; score: number }[] = [];
      for (let i = 0; i < this.n; i++) out.push({ doc: this.docs[i]!, score: this.scores[i]! });
      out.sort((a, b) => b.score - a.score || a.doc - b.doc);
      return out;
    }
  };
}

export const TopK = topKFactory();
export type TopK = InstanceType<typeof TopK>;
