/** Word vocabulary: id 0 = padding, 1 = unknown word, then words by falling frequency. */
export const PAD = 0;
export const UNK = 1;

export class Vocab {
  readonly words: string[];
  private readonly index: Map<string, number>;

  constructor(words: string[]) {
    this.words = words;
    this.index = new Map(words.map((w, i) => [w, i]));
  }

  /** Counts tokens and keeps words seen ≥ minCount times, at most maxSize entries (ties alphabetical). */
  static build(tokenLists: Iterable<readonly string[]>, minCount = 2, maxSize = 50_000): Vocab {
    const counts = new Map<string, number>();
    for (const toks of tokenLists) for (const t of toks) counts.set(t, (counts.get(t) ?? 0) + 1);
    const kept = [...counts.entries()]
      .filter(([, c]) => c >= minCount)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .slice(0, Math.max(0, maxSize - 2))
      .map(([w]) => w);
    return new Vocab(['<pad>', '<unk>', ...kept]);
  }

  get size(): number {
    return this.words.length;
  }

  id(word: string): number {
    return this.index.get(word) ?? UNK;
  }

  has(word: string): boolean {
    return this.index.has(word);
  }

  /** Ids of the tokens, truncated to maxLen (no padding). */
  encode(tokens: readonly string[], maxLen = Infinity): number[] {
    const n = Math.min(tokens.length, maxLen);
    const out = new Array<number>(n);
    for (let i = 0; i < n; i++) out[i] = this.id(tokens[i]);
    return out;
  }
}
