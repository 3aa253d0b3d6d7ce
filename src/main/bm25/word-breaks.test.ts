/**
 * Token streams against real Lucene 8.8.1 (fixtures made by tests/reference/lucene_fixtures.sh):
 * the hand-written tricky text through each analyzer, and how StandardTokenizer treats every
 * code point in six probes.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ANALYZER_NAMES } from './analyzers';
import { Tokenizer } from './tokenizer';
import { scanTokens, TOKEN_TYPES } from './word-breaks';

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../tests/fixtures/lucene');

describe('analysis equals Lucene 8 token for token (tricky text)', () => {
  for (const analyzer of ANALYZER_NAMES) {
    it(`${analyzer}: every line's terms and types`, () => {
      const rows = readFileSync(path.join(FIXTURES, `tokens-${analyzer}.jsonl`), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { text: string; tokens: Array<[string, string]> });
      expect(rows.length).toBeGreaterThan(20);
      const t = new Tokenizer({ analyzer });
      for (const r of rows) {
        expect(t.tokenizeWithTypes(r.text), r.text.slice(0, 80)).toEqual(r.tokens);
        expect(t.tokenize(r.text)).toEqual(r.tokens.map(([term]) => term));
      }
    });
  }
});

describe('word breaks equal StandardTokenizer for every code point', () => {
  const bounds = { buf: new Int32Array(64) };
  /** Types (2 letters) and lengths of the tokens of s, as LuceneReference's codepoints mode writes them. */
  function probe(s: string): string {
    const types: number[] = [];
    const n = scanTokens(s, 255, bounds, types);
    const out: string[] = [];
    for (let i = 0; i < n; i += 2) out.push(TOKEN_TYPES[types[i >> 1]!]!.slice(1, 3) + (bounds.buf[i + 1]! - bounds.buf[i]!));
    return out.join(',');
  }

  it('alone, between letters, between digits, after and before a letter, between Hebrew letters', () => {
    const runs = readFileSync(path.join(FIXTURES, 'codepoints.tsv'), 'utf8').trim().split('\n');
    let checked = 0;
    const wrong: string[] = [];
    for (const line of runs) {
      const [a, b, want] = line.split('\t') as [string, string, string];
      for (let cp = parseInt(a, 16); cp <= parseInt(b, 16); cp++) {
        const x = String.fromCodePoint(cp);
        const got = [probe(x), probe('a' + x + 'b'), probe('1' + x + '2'), probe('a' + x), probe(x + 'a'), probe('\u05d0' + x + '\u05d1')].join('|');
        if (got !== want && wrong.length < 20) wrong.push(`U+${cp.toString(16)}: got ${got} want ${want}`);
        checked++;
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(250_000);
  });
});
