/**
 * "Did you mean": the name a mistyped command, subcommand, flag, value or person most likely meant, so a
 * usage error can say it (`qpairs improt` → did you mean "import"?).
 */

/** Edit distance with adjacent transpositions (optimal string alignment): "improt" is 1 from "import". */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The candidate `word` most likely meant: the only one it is a prefix of (at least 3 characters), else
 * the nearest within max(1, ⌊length/4⌋) edits, case aside; null when none is close or two are equally close.
 */
export function closest(word: string, candidates: readonly string[]): string | null {
  const w = word.toLowerCase();
  if (w.length >= 3) {
    const prefixed = candidates.filter((c) => c.toLowerCase().startsWith(w));
    if (prefixed.length === 1) return prefixed[0]!;
  }
  const limit = Math.max(1, Math.floor(w.length / 4));
  let best: string | null = null;
  let bestDistance = Infinity;
  let tie = false;
  for (const c of candidates) {
    const dist = editDistance(w, c.toLowerCase());
    if (dist < bestDistance) [best, bestDistance, tie] = [c, dist, false];
    else if (dist === bestDistance && c !== best) tie = true;
  }
  return best !== null && bestDistance <= limit && !tie ? best : null;
}

/** `did you mean "X"? ` (with its trailing space) or '' when nothing is close: the start of a usage error's parenthesis. */
export function didYouMean(word: string, candidates: readonly string[]): string {
  const c = closest(word, candidates);
  return c === null ? '' : `did you mean "${c}"? `;
}

/** `unknown WHAT "value" (did you mean "X"? WHATs: a, b, c)`: the message for a value outside its choices. */
export function unknownChoice(what: string, value: string, choices: readonly string[], plural = `${what}s`): string {
  return `unknown ${what} "${value}" (${didYouMean(value, choices)}${plural}: ${choices.join(', ')})`;
}

/** A command's missing or mistyped subcommand: `usage: qpairs pool create|list|set W …`, or `unknown pool command "craete" (did you mean "create"? …)`. */
export function subcommandError(cmd: string, sub: string | undefined, subs: readonly string[]): string {
  if (sub === undefined || sub === '' || sub.startsWith('-')) return `usage: qpairs ${cmd} ${subs.join('|')} W …`;
  return unknownChoice(`${cmd} command`, sub, subs);
}
