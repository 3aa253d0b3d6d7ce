import { describe, expect, it } from 'vitest';
import { annotatorForToken, isLoopbackHost, parseCookies, parseTokenSpecs } from './auth';
import { sanitiseName } from './uploads';

describe('auth helpers', () => {
  it('parses --token NAME=SECRET and generates secrets for NAME', () => {
    const { tokens, generated } = parseTokenSpecs(['alice=alice-secret-1', 'bob']);
    expect(tokens.alice).toBe('alice-secret-1');
    expect(tokens.bob).toMatch(/^[\w-]{20,}$/);
    expect(generated).toEqual([{ annotator: 'bob', token: tokens.bob }]);
    expect(() => parseTokenSpecs(['alice=short'])).toThrow(/at least 8/);
    expect(() => parseTokenSpecs(['a=samesecret', 'b=samesecret'])).toThrow(/share/);
    expect(() => parseTokenSpecs(['a', 'a'])).toThrow(/twice/);
    expect(() => parseTokenSpecs(['=x12345678'])).toThrow(/NAME/);
  });

  it('finds the annotator of a token', () => {
    const t = { alice: 'alice-secret-1', bob: 'bob-secret-22' };
    expect(annotatorForToken(t, 'bob-secret-22')).toBe('bob');
    expect(annotatorForToken(t, 'bob-secret-2')).toBeNull();
    expect(annotatorForToken(t, '')).toBeNull();
    expect(annotatorForToken(t, null)).toBeNull();
  });

  it('knows loopback hosts', () => {
    for (const h of ['127.0.0.1', 'localhost', '::1', '[::1]', '127.1.2.3']) expect(isLoopbackHost(h)).toBe(true);
    for (const h of ['0.0.0.0', '192.168.1.4', '::', 'example.com', '']) expect(isLoopbackHost(h)).toBe(false);
  });

  it('parses cookies', () => {
    expect(parseCookies('a=1; qpairs_token=x%20y; junk')).toEqual({ a: '1', qpairs_token: 'x y' });
  });

  it('sanitises upload names', () => {
    expect(sanitiseName('../../etc/passwd')).toBe('passwd');
    expect(sanitiseName('C:\\data\\dev set.xml')).toBe('dev set.xml');
    expect(sanitiseName('..')).toBe('_');
    expect(sanitiseName('')).toBe('upload');
    expect(sanitiseName('a<b>|c.xml')).toBe('a_b__c.xml');
  });
});
