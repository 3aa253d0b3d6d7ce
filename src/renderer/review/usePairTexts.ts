/**
 * The Review screen's pair texts: the queue carries titles only, so the selected pair's texts and
 * its votes' notes come from review.pair, asked for the pair under the cursor and its neighbours
 * (so j/k show them at once), and asked again after each answer of the queue (`gen`: a vote or its
 * note may have changed). An older answer stays on screen until the new one comes; the texts of the
 * last PAIR_CACHE pairs are kept.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ReviewQueue } from '../../shared/contract';
import type { ReviewPair } from '../../shared/gold';
import type { AppClient } from '../client/types';
import { errorMessage } from '../lib/format';

/** A pair's texts and votes' notes (review.pair), as asked after the queue's answer number `gen`. */
export interface PairDetail {
  gen: number;
  pair: ReviewPair | null;
  error: string | null;
}

/** How many pairs' texts the screen keeps (the pairs around the cursor are asked for again as it moves). */
const PAIR_CACHE = 64;

export function usePairTexts(
  client: AppClient,
  ask: {
    /** The queue on screen (null: nothing is asked) and the pool and judge it must be of. */
    queue: ReviewQueue | null;
    pool: string;
    judge: string;
    /** The pool and judge as one key: an answer for another scope than the current one is dropped. */
    scope: string;
    /** The row keys (queryId NUL candidateId) to have texts for. */
    near: readonly string[];
    /** The queue's answer number: texts asked before it are asked again. */
    gen: number;
  },
): { pairs: ReadonlyMap<string, PairDetail>; forget: () => void } {
  const { queue, pool, judge, scope, near, gen } = ask;
  const [pairs, setPairs] = useState<ReadonlyMap<string, PairDetail>>(new Map());
  const asked = useRef(new Map<string, number>());
  const currentScope = useRef(scope);
  currentScope.current = scope;
  const nearKey = near.join('\u0001');
  useEffect(() => {
    if (!queue || !judge || queue.pool !== pool) return;
    const forScope = scope;
    for (const key of near) {
      const have = pairs.get(key);
      if ((have && have.gen === gen) || asked.current.get(key) === gen) continue;
      asked.current.set(key, gen);
      const [queryId, candidateId] = key.split('\u0000') as [string, string];
      const keep = (d: PairDetail): void => {
        if (currentScope.current !== forScope) return;
        setPairs((m) => {
          const n = new Map(m);
          n.delete(key);
          n.set(key, d);
          // The oldest first: a long session keeps the texts of the last PAIR_CACHE pairs only.
          for (const k of n.keys()) {
            if (n.size <= PAIR_CACHE) break;
            n.delete(k);
          }
          return n;
        });
      };
      client.invoke('review.pair', { pool: queue.pool, judge, queryId, candidateId }).then(
        (pair) => keep({ gen, pair, error: null }),
        (e: unknown) => {
          asked.current.delete(key);
          keep({ gen, pair: null, error: errorMessage(e) });
        },
      );
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [nearKey, gen, queue, judge]);
  /** Another pool or judge: no texts kept, none counted as asked. */
  const forget = useCallback((): void => {
    setPairs(new Map());
    asked.current = new Map();
  }, []);
  return { pairs, forget };
}
