import { describe, expect, it } from 'vitest';
import { uploadLimitBytes } from './upload-limit';

describe('--max-upload-mb', () => {
  it('is MiB, fractions allowed; absent means the server default', () => {
    expect(uploadLimitBytes(undefined)).toBeUndefined();
    expect(uploadLimitBytes('2048')).toBe(2 * 1024 ** 3);
    expect(uploadLimitBytes('0.5')).toBe(512 * 1024);
  });
  it('refuses what is not a positive size, saying why', () => {
    for (const bad of ['', ' ', 'x', '-1', '0', 'Infinity', 'NaN']) expect(() => uploadLimitBytes(bad), bad).toThrow(/--max-upload-mb/);
    expect(() => uploadLimitBytes('1e-9')).toThrow(/less than one byte/);
  });
});
