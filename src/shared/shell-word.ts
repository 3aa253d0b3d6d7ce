/**
 * A string as a shell word (quoted when it holds anything but safe characters), for commands printed as
 * advice: "delete /data/my W.qpairs.lock" pasted after rm removed nothing (two words).
 */
export function shellQuote(p: string): string {
  return /^[\w@%+=:,./-]+$/.test(p) ? p : `'${p.replace(/'/g, `'\\''`)}'`;
}
