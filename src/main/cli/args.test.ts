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
});
