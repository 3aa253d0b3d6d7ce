import { useCallback, useEffect, useRef, useState } from 'react';
import { local } from './storage';

/** A string setting kept in localStorage. */
export function useStoredString(key: string, initial: string): [string, (v: string) => void] {
  const [v, setV] = useState(() => local.getItem(key) ?? initial);
  const set = useCallback(
    (nv: string) => {
      setV(nv);
      try {
        local.setItem(key, nv);
      } catch {
        /* ignore */
      }
    },
    [key],
  );
  return [v, set];
}

/**
 * A debounced call of `fn`: each call (re)starts the timer; when it fires, the `fn` of the latest
 * render runs — never the one captured when the call was scheduled, which would reload with
 * settings the user has changed since (a stale closure overwriting a newer result).
 */
export function useDebounced(fn: () => void, ms: number): () => void {
  const ref = useRef(fn);
  ref.current = fn;
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  return useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      timer.current = null;
      ref.current();
    }, ms);
  }, [ms]);
}
