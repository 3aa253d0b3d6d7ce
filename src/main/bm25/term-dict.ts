/**
 * A string → dense integer id table that can look a term up straight from a range of a larger
 * string (no substring allocated), given a hash of that range. Open addressing, linear probing,
 * load factor <= 1/2. This is what makes tokenizing + term-id lookup allocation-free for terms
 * already known (the common case when indexing): a JS Map would need a substring per token and
 * a hash of it.
 */
export class TermDict {
  private slots: Int32Array = new Int32Array(1024); // 0 = empty, else id + 1
  private mask = 1023;
  private hashes: Int32Array = new Int32Array(256);
  readonly terms: string[] = [];

  /** FNV-1a over UTF-16 code units of s[start, end). */
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
    const len = end - start;
    let i = h & mask;
    for (;;) {
      const v = slots[i]!;
      if (v === 0) return -1;
      const id = v - 1;
      if (this.hashes[id] === h) {
        const t = this.terms[id]!;
        if (t.length === len) {
          let j = 0;
          while (j < len && t.charCodeAt(j) === s.charCodeAt(start + j)) j++;
          if (j === len) return id;
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
    if (id >= this.hashes.length) {
      const nh = new Int32Array(this.hashes.length * 2);
      nh.set(this.hashes);
      this.hashes = nh;
    }
    this.hashes[id] = h;
    if ((id + 1) * 2 > this.slots.length) this.rehash(this.slots.length * 2);
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
    this.rehash(this.slots.length);
  }

  private place(id: number, h: number): void {
    const slots = this.slots;
    const mask = this.mask;
    let i = h & mask;
    while (slots[i] !== 0) i = (i + 1) & mask;
    slots[i] = id + 1;
  }

  private rehash(cap: number): void {
    this.slots = new Int32Array(cap);
    this.mask = cap - 1;
    for (let id = 0; id < this.terms.length; id++) this.place(id, this.hashes[id]!);
  }
}
