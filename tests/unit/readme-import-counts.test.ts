/**
 * Every count and skip reason an import reports (`qpairs import` prints the keys as they are, `--json`
 * gives them) is named in the README's import section: the keys came and went (runScoresReplaced gave
 * way to runsUnchanged and runScoresChanged) and most were never said.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const dir = path.join(root, 'src/main/import');

/** The keys the importers pass to ctx.count / ctx.skip (a literal, or each literal of a conditional). */
function keysOf(call: 'count' | 'skip'): Set<string> {
  const keys = new Set<string>();
  for (const f of readdirSync(dir)) {
    if (!f.endsWith('.ts') || f.endsWith('.test.ts')) continue;
    const text = readFileSync(path.join(dir, f), 'utf8');
    for (const m of text.matchAll(new RegExp(`\\.${call}\\(([^;\\n]*)\\)`, 'g'))) for (const k of m[1]!.matchAll(/'([A-Za-z]+)'/g)) keys.add(k[1]!);
  }
  return keys;
}

/** The README from its import formats heading to the next section. */
function importSection(): string {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const at = readme.indexOf('### Import formats');
  expect(at).toBeGreaterThan(0);
  const end = readme.indexOf('\n## ', at);
  return readme.slice(at, end < 0 ? undefined : end);
}

describe("the README names every key of an import's report", () => {
  it('counts and skip reasons', () => {
    const counts = keysOf('count');
    const skips = keysOf('skip');
    // The scan finds them (a change of style would otherwise pass with nothing checked).
    expect(counts).toContain('runsUnchanged');
    expect(counts).toContain('duplicatePairsKnown');
    expect(skips).toContain('pairNotInPool');
    const section = importSection();
    const missing = [...counts, ...skips].filter((k) => !section.includes(`\`${k}\``));
    expect(missing).toEqual([]);
    expect(section).not.toContain('runScoresReplaced');
  });
});
