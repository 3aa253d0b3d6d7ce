import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { debounce } from './debounce';
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
 * A debounced call of `fn` (debounce.ts): a burst of calls runs it once, `ms` after the last call,
 * or `maxWaitMs` (default 3 × ms) after the first when the calls keep coming. When it fires, the
 * `fn` of the latest render runs — never the one captured when the call was scheduled, which would
 * reload with settings the user has changed since (a stale closure overwriting a newer result).
 */
export function useDebounced(fn: () => void, ms: number, maxWaitMs = 3 * ms): () => void {
  const ref = useRef(fn);
  ref.current = fn;
  const debounced = useMemo(() => debounce(() => ref.current(), ms, maxWaitMs), [ms, maxWaitMs]);
  useEffect(() => () => debounced.cancel(), [debounced]);
  return debounced.call;
}
