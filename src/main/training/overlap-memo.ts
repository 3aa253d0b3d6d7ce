/**
 * Overlap checks (trained-on, selected-on) compare question texts and are asked again on every
 * figure shown. Their results are kept per workspace, keyed by the texts they were computed from
 * (so an edited text is checked anew), and the memo is emptied past `limit` entries.
 */
import type { OverlapItem } from '../overlap';
import type { Workspace } from '../workspace/workspace';

/** The question `id` as an overlap item, null when the workspace has no such question. */
export function questionItem(ws: Workspace, id: string): OverlapItem | null {
  const q = ws.getQuestion(id);
  return q ? { id, title: q.title, body: q.body } : null;
}

/** A key naming these items' ids and texts, in order. */
export function itemsKey(items: readonly OverlapItem[]): string {
  return items.map((i) => `${i.id}\u0002${i.title}\u0002${i.body}`).join('\u0003');
}

/** Results computed once per workspace and key; all forgotten when more than `limit` are held. */
export class WorkspaceMemo<T> {
  private readonly byWorkspace = new WeakMap<Workspace, Map<string, T>>();

  constructor(private readonly limit = 200) {}

  get(ws: Workspace, key: string, compute: () => T): T {
    let held = this.byWorkspace.get(ws);
    if (!held) this.byWorkspace.set(ws, (held = new Map()));
    if (held.has(key)) return held.get(key)!;
    const value = compute();
    if (held.size >= this.limit) held.clear();
    held.set(key, value);
    return value;
  }
}
