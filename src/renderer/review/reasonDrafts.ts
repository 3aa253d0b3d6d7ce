/**
 * The reasons a judge wrote in Review that the queue does not show yet (pure, unit-tested): each
 * pool and judge has its own (a reason written for a pair of one pool is never shown, nor sent,
 * with the same pair in another pool), and they are kept in sessionStorage, so a reason written
 * before the ruling survives a reload of the tab, as unsaved labels do.
 */
import type { KV } from '../lib/storage';

/** Pool and judge → row key (itemKey) → the reason ('' = removed). */
export type ReasonDrafts = Readonly<Record<string, Readonly<Record<string, string>>>>;

const KEY = 'qpairs.reviewReasons';

export function loadDrafts(storage: KV): ReasonDrafts {
  try {
    const v = JSON.parse(storage.getItem(KEY) ?? '{}') as unknown;
    if (!v || typeof v !== 'object' || Array.isArray(v)) return {};
    const out: Record<string, Record<string, string>> = {};
    for (const [scope, m] of Object.entries(v as Record<string, unknown>)) {
      if (!m || typeof m !== 'object' || Array.isArray(m)) continue;
      const rows = Object.entries(m as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string');
      if (rows.length) out[scope] = Object.fromEntries(rows);
    }
    return out;
  } catch {
    return {};
  }
}

export function saveDrafts(storage: KV, drafts: ReasonDrafts): void {
  try {
    const kept = Object.entries(drafts).filter(([, m]) => Object.keys(m).length > 0);
    if (kept.length) storage.setItem(KEY, JSON.stringify(Object.fromEntries(kept)));
    else storage.removeItem(KEY);
  } catch {
    /* storage full: the drafts stay in memory */
  }
}

/** Applies `f` to one scope's drafts. */
export function updateDrafts(drafts: ReasonDrafts, scope: string, f: (m: ReadonlyMap<string, string>) => ReadonlyMap<string, string>): ReasonDrafts {
  return { ...drafts, [scope]: Object.fromEntries(f(new Map(Object.entries(drafts[scope] ?? {})))) };
}

/** Drops the drafts the queue shows as stored already (the judge's note equals them): nothing is left to send or show. */
export function pruneSaved(drafts: ReasonDrafts, scope: string, items: ReadonlyArray<{ key: string; judgeNote?: string | null }>): ReasonDrafts {
  const m = drafts[scope];
  if (!m) return drafts;
  const stored = new Map(items.map((i) => [i.key, i.judgeNote ?? '']));
  const kept = Object.entries(m).filter(([k, text]) => !stored.has(k) || stored.get(k) !== text);
  return kept.length === Object.keys(m).length ? drafts : { ...drafts, [scope]: Object.fromEntries(kept) };
}
