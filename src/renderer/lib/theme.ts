/**
 * Light and dark mode (issue 24): the theme follows the system setting (prefers-color-scheme)
 * unless the user picks one with the top bar's toggle (kept in localStorage). The resolved theme
 * is set as `data-theme` on <html>, which the dark block of styles.css keys on.
 */
import { useCallback, useEffect, useState } from 'react';

export type ThemeChoice = 'system' | 'light' | 'dark';
const KEY = 'qpairs.theme';

function stored(): ThemeChoice {
  try {
    const v = localStorage.getItem(KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

const systemDark = (): boolean => typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;

/** The theme in force for a choice: the system's for 'system'. */
export function resolveTheme(choice: ThemeChoice, dark = systemDark()): 'light' | 'dark' {
  return choice === 'system' ? (dark ? 'dark' : 'light') : choice;
}

/** The next choice of the toggle: system → the opposite of what the system shows → its opposite → system. */
export function nextThemeChoice(choice: ThemeChoice, dark = systemDark()): ThemeChoice {
  if (choice === 'system') return dark ? 'light' : 'dark';
  if ((choice === 'dark') !== dark) return 'system';
  return choice === 'dark' ? 'light' : 'dark';
}

/** The user's choice, the theme in force, and the toggle; keeps <html data-theme> in step (system changes included). */
export function useTheme(): { choice: ThemeChoice; theme: 'light' | 'dark'; toggle: () => void } {
  const [choice, setChoice] = useState<ThemeChoice>(stored);
  const [dark, setDark] = useState(systemDark);
  useEffect(() => {
    if (typeof matchMedia !== 'function') return;
    const mq = matchMedia('(prefers-color-scheme: dark)');
    const on = (): void => setDark(mq.matches);
    mq.addEventListener('change', on);
    return () => mq.removeEventListener('change', on);
  }, []);
  const theme = resolveTheme(choice, dark);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);
  const toggle = useCallback(() => {
    setChoice((c) => {
      const n = nextThemeChoice(c, dark);
      try {
        if (n === 'system') localStorage.removeItem(KEY);
        else localStorage.setItem(KEY, n);
      } catch {
        /* private mode: the choice lasts for this page */
      }
      return n;
    });
  }, [dark]);
  return { choice, theme, toggle };
}
