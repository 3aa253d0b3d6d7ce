import { describe, expect, it } from 'vitest';
import { nextThemeChoice, resolveTheme } from './theme';

describe('theme (issue 24)', () => {
  it('follows the system unless a theme is chosen', () => {
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
    expect(resolveTheme('dark', false)).toBe('dark');
  });
  it('the toggle shows the other theme, then goes back to following the system', () => {
    expect(nextThemeChoice('system', false)).toBe('dark');
    expect(nextThemeChoice('dark', false)).toBe('system');
    expect(nextThemeChoice('system', true)).toBe('light');
    expect(nextThemeChoice('light', true)).toBe('system');
    expect(nextThemeChoice('light', false)).toBe('dark');
  });
});
