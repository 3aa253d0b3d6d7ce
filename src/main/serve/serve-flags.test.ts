import { describe, expect, it } from 'vitest';
import { maxTrainingsFlag, portFlag } from './serve-flags';

describe('--port', () => {
  it('is a port from 0 to 65535; absent means the server default', () => {
    expect(portFlag(undefined)).toBeUndefined();
    expect(portFlag('0')).toBe(0);
    expect(portFlag('5180')).toBe(5180);
    expect(portFlag('65535')).toBe(65535);
  });
  it('refuses what is not a whole number, and a number out of range, saying why', () => {
    for (const bad of ['', ' ', 'x', '5180.5', '1e3', '0x50', '99999999999999999999']) {
      expect(() => portFlag(bad), bad).toThrow(new RangeError(`--port needs a whole number, got "${bad}"`));
    }
    expect(() => portFlag('65536')).toThrow(new RangeError('--port is a port number from 0 to 65535, not 65536'));
    expect(() => portFlag('-1')).toThrow(new RangeError('--port is a port number from 0 to 65535, not -1'));
  });
});

describe('--max-trainings', () => {
  it('is a whole number of at least 1; absent means the server default', () => {
    expect(maxTrainingsFlag(undefined)).toBeUndefined();
    expect(maxTrainingsFlag('1')).toBe(1);
    expect(maxTrainingsFlag('4')).toBe(4);
  });
  it('refuses anything else, saying why', () => {
    for (const bad of ['', 'two', '1.5']) expect(() => maxTrainingsFlag(bad), bad).toThrow(new RangeError(`--max-trainings needs a whole number, got "${bad}"`));
    expect(() => maxTrainingsFlag('0')).toThrow(new RangeError('--max-trainings must be at least 1 (trainings that run at once), not 0'));
  });
});
