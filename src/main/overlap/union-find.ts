/** Disjoint sets over 0..n−1 (union by size, path halving). */
export class UnionFind {
  private readonly parent: Uint32Array;
  private readonly size: Uint32Array;

  constructor(n: number) {
    this.parent = new Uint32Array(n);
    this.size = new Uint32Array(n).fill(1);
    for (let i = 0; i < n; i++) this.parent[i] = i;
  }

  find(i: number): number {
    const p = this.parent;
    while (p[i] !== i) {
      p[i] = p[p[i]!]!;
      i = p[i]!;
    }
    return i;
  }

  /** Joins the sets of i and j; false when they were one set already. */
  union(i: number, j: number): boolean {
    let a = this.find(i);
    let b = this.find(j);
    if (a === b) return false;
    if (this.size[a]! < this.size[b]!) [a, b] = [b, a];
    this.parent[b] = a;
    this.size[a] = this.size[a]! + this.size[b]!;
    return true;
  }
}
