/** "1 query", "2 queries", "0 pairs": a count with its noun in the number it takes. */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}
