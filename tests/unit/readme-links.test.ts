/**
 * The README's links lead somewhere: every `](#anchor)` names a heading of the README (its anchor
 * as GitHub makes it), and every relative link names a file of the checkout. The README is long
 * (its contents line links every section), so a renamed heading must not leave a dead link.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

/** A heading's anchor as GitHub makes it: lower case, punctuation dropped (hyphens kept), spaces → hyphens; a repeat gets -1, -2, …. */
function headingAnchors(markdown: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const m = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const base = m[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

describe('the README links', () => {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const links = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!);

  it('makes anchors as GitHub does', () => {
    expect([...headingAnchors('# A\n## Import formats (`--format`)\n```sh\n# not a heading\n```\n## Measured on a 2-core machine (x)\n## A')]).toEqual([
      'a',
      'import-formats---format',
      'measured-on-a-2-core-machine-x',
      'a-1',
    ]);
  });

  it('every #anchor names one of its headings', () => {
    const anchors = headingAnchors(readme);
    const internal = links.filter((l) => l.startsWith('#')).map((l) => l.slice(1));
    expect(internal.length).toBeGreaterThan(15);
    expect(internal.filter((a) => !anchors.has(a))).toEqual([]);
  });

  it('every relative link names a file of the checkout', () => {
    const files = links.filter((l) => !/^[a-z]+:/i.test(l) && !l.startsWith('#')).map((l) => l.split('#')[0]!);
    expect(files.length).toBeGreaterThan(3);
    expect(files.filter((f) => !existsSync(path.join(root, f)))).toEqual([]);
  });
});
