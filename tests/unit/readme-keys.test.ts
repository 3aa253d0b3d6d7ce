/**
 * README's "Keyboard (Annotate)" table names every key the Annotate screen's key list (F1) shows:
 * it lacked o/Space (expand a candidate), x (clear a label) and N (next query).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { NAV_KEYS } from '../../src/renderer/annotate/keys';

const root = path.resolve(import.meta.dirname, '../..');

describe('the README keyboard table', () => {
  it('names every navigation key of the Annotate screen', () => {
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    const start = readme.indexOf('### Keyboard (Annotate)');
    expect(start).toBeGreaterThan(0);
    const table = readme.slice(start, readme.indexOf('\n\n', readme.indexOf('| key |', start)));
    const keys = NAV_KEYS.flatMap(([k]) => k.split(/\s*\/\s*|\s+/)).filter(Boolean);
    expect(keys.length).toBeGreaterThan(10);
    // A key is a cell's or a phrase's own word: "N" is not the "n" of "Enter or n", nor a letter inside a word.
    const missing = keys.filter((k) => !new RegExp(`(^|[^\\p{L}])${k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([^\\p{L}]|$)`, 'mu').test(table));
    expect(missing).toEqual([]);
  });
  it('the list of keys (F1) names Home and End, which the README table gives for the first and last candidate', () => {
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    const start = readme.indexOf('### Keyboard (Annotate)');
    expect(readme.slice(start, readme.indexOf('\n\n', readme.indexOf('| key |', start)))).toContain('Home/End');
    const keys = NAV_KEYS.flatMap(([k]) => k.split(/\s*\/\s*|\s+/)).filter(Boolean);
    expect(keys).toContain('Home');
    expect(keys).toContain('End');
  });
});
