/**
 * A string → dense integer id table that can look a term up straight from a range of a larger
 * string (no substring allocated), given a hash of that range. Open addressing with linear
 * probing, load factor <= 1/2; each slot holds (hash, id + 1) side by side so a probe touches
 * one cache line. This is what makes tokenizing + term-id lookup allocation-free for known terms
 * (the common case when indexing): a JS Map would need a substring per token and a hash of it.
 */
export class TermDict {
  private slots: Int32Array = new Int32Array(2048); // [hash, id + 1] pairs; id + 1 = 0: empty
  private mask = 1023;
  readonly terms: string[] = [];

  /** FNV-1a over UTF-16 code units of s[start, end), with a final mix. */
  static hash(s: string, start: number, end: number): number {
    let h = 0x811c9dc5 | 0;
    for (let i = start; i < end; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
    return h ^ (h >>> 15);
  }

  get size(): number {
    return this.terms.length;
  }

  /** Id of the term s[start, end) with hash h, or -1. */
  find(s: string, start: number, end: number, h: number): number {
    const slots = this.slots;
    const mask = this.mask;
    let i = h & mask;
    for (;;) {
      const v = slots[2 * i + 1]!;
      if (v === 0) return -1;
      if (slots[2 * i] === h) {
        const t = this.terms[v - 1]!;
        const len = end - start;
        if (t.length === len) {
          let j = 0;
          while (j < len && t.charCodeAt(j) === s.charCodeAt(start + j)) j++;
          if (j === len) return v - 1;
        }
      }
      i = (i + 1) & mask;
    }
  }

  /** Id of `term`, or -1. */
  get(term: string): number {
    return this.find(term, 0, term.length, TermDict.hash(term, 0, term.length));
  }

  /** Adds a term known to be absent (h = its hash); returns its id. */
  insertNew(term: string, h: number): number {
    const id = this.terms.length;
    this.terms.push(term);
    if ((id + 1) * 2 > this.mask + 1) this.rehash((this.mask + 1) * 2);
    else this.place(id, h);
    return id;
  }

  /** Id of `term`, adding it when absent. */
  intern(term: string): number {
    const h = TermDict.hash(term, 0, term.length);
    const id = this.find(term, 0, term.length, h);
    return id >= 0 ? id : this.insertNew(term, h);
  }

  /** Forgets every term with id >= n. */
  truncate(n: number): void {
    if (n >= this.terms.length) return;
    this.terms.length = n;
    this.rehash(this.mask + 1);
  }

  private place(id: number, h: number): void {
    const slots = this.slots;
    const mask = this.mask;
    let i = h & mask;
    while (slots[2 * i + 1] !== 0) i = (i + 1) & mask;
    slots[2 * i] = h;
    slots[2 * i + 1] = id + 1;
  }

  private rehash(cap: number): void {
    this.slots = new Int32Array(2 * cap);
    this.mask = cap - 1;
    const terms = this.terms;
    for (let id = 0; id < terms.length; id++) this.place(id, TermDict.hash(terms[id]!, 0, terms[id]!.length));
  }
}
