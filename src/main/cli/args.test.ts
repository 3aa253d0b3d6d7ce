import { describe, expect, it } from 'vitest';
import { joinNegativeNumbers, parse, UsageError } from './args';

const options = { seed: { type: 'string' }, bootstrap: { type: 'string' }, pool: { type: 'string' }, json: { type: 'boolean' } } as const;

describe('command-line flags', () => {
  it('take a negative number as a value (node:util parseArgs alone calls it ambiguous)', () => {
    expect(parse(['w', '--seed', '-3', '--bootstrap', '-5', '--json'], options).values).toEqual({ seed: '-3', bootstrap: '-5', json: true });
    expect(parse(['--seed=-3'], options).values).toEqual({ seed: '-3' });
    expect(joinNegativeNumbers(['--seed', '-0.5', 'x'], options)).toEqual(['--seed=-0.5', 'x']);
  });

  it('still refuse a flag followed by another flag-like word, and leave flags without values alone', () => {
    expect(() => parse(['--pool', '-x'], options)).toThrow(UsageError);
    expect(joinNegativeNumbers(['--json', '-3'], options)).toEqual(['--json', '-3']);
    expect(joinNegativeNumbers(['--other', '-3'], options)).toEqual(['--other', '-3']);
  });

  it('name the long option a one-dash word meant (it said "unknown option -p" for -pool, and -format semeval gave --format "ormat")', () => {
    const withShort = { ...options, format: { type: 'string', short: 'f' } } as const;
    expect(() => parse(['w', '-pool', 'dev'], withShort)).toThrow('unknown option -pool (did you mean --pool? long options take two dashes; options: --seed, --bootstrap, --pool, --json, --format)');
    expect(() => parse(['w', '-format', 'semeval', 'f.xml'], withShort)).toThrow(/unknown option -format \(did you mean --format\? long options take two dashes/);
    expect(() => parse(['w', '-json'], withShort)).toThrow(/did you mean --json\?/);
    expect(() => parse(['w', '-zzz'], options)).toThrow(/^unknown option -zzz \(long options take two dashes; options: /);
    // Still as before: short options, negative numbers, values after a flag, and anything after --.
    expect(parse(['w', '-f', 'semeval'], withShort).values).toEqual({ format: 'semeval' });
    expect(parse(['w', '--seed', '-3'], options).values).toEqual({ seed: '-3' });
    expect(parse(['--', '-odd-name.qpairs'], options).positionals).toEqual(['-odd-name.qpairs']);
    expect(() => parse(['--pool', '-ab'], options)).toThrow(/ambiguous/);
  });
});

describe('an option given twice', () => {
  it('with two values is refused naming both (node:util kept the last in silence); the same value twice, or an option that takes several, is fine', () => {
    const options = { pool: { type: 'string' }, json: { type: 'boolean' }, tag: { type: 'string', multiple: true } } as const;
    expect(() => parse(['W', '--pool', 'a', '--pool', 'b'], options)).toThrow(new UsageError('--pool is given twice ("a", then "b"): give it once'));
    expect(() => parse(['W', '--pool=a', '--json', '--pool', 'b'], options)).toThrow(/--pool is given twice \("a", then "b"\)/);
    expect(parse(['W', '--pool', 'a', '--pool', 'a', '--json', '--json'], options).values).toEqual({ pool: 'a', json: true });
    expect(parse(['W', '--tag', 'x', '--tag', 'y'], options).values).toEqual({ tag: ['x', 'y'] });
  });
});
