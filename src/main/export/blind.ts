/**
 * The datasheet's statement of how independent a pool's labels are: whether its annotators
 * labeled blind (their own labels only, no rankers' scores) — from the pool's blind history
 * (migration 5) and the times of its annotators' label events.
 */
import type { Workspace } from '../workspace/workspace';

export interface BlindReport {
  /** The pool's setting now. */
  blindNow: boolean;
  /** Periods of the setting, oldest first; `to` null = until now. */
  periods: Array<{ blind: boolean; from: string; to: string | null }>;
  /** Label events by the pool's annotators (role annotator) given while it was blind / open. */
  blindEvents: number;
  openEvents: number;
}

export function blindReport(ws: Workspace, pool: string): BlindReport {
  const p = ws.pool(pool);
  const history = ws.poolBlindHistory(pool);
  const periods = history.map((h, i) => ({ blind: h.blind, from: h.at, to: history[i + 1]?.at ?? null }));
  const times = ws
    .stmt(`SELECT l.at FROM labels l JOIN annotators a ON a.id = l.annotator_id WHERE l.pool_id = ? AND a.role = 'annotator'`)
    .pluck()
    .all(p.id) as string[];
  let blindEvents = 0;
  let openEvents = 0;
  for (const at of times) {
    // The period in force at `at`: the last change at or before it (ISO timestamps sort as text).
    let blind = periods[0]?.blind ?? true;
    for (const period of periods) if (period.from <= at) blind = period.blind;
    if (blind) blindEvents++;
    else openEvents++;
  }
  return { blindNow: p.blind, periods, blindEvents, openEvents };
}

/** One paragraph for the datasheet. */
export function blindStatement(r: BlindReport): string {
  const total = r.blindEvents + r.openEvents;
  const since = r.periods.at(-1)?.from ?? '';
  const setting =
    r.periods.length <= 1
      ? r.blindNow
        ? `The pool has been blind since it was created (${since}): each annotator saw only their own labels, candidates in their own seeded order, no rankers' scores.`
        : `The pool has been open (not blind) since it was created (${since}): annotators could see rankers' scores and each other's labels.`
      : `Blind setting over time: ${r.periods.map((x) => `${x.blind ? 'blind' : 'open'} from ${x.from}${x.to ? ` to ${x.to}` : ' until the export'}`).join('; ')}.`;
  const events =
    total === 0
      ? 'No label events by its annotators yet.'
      : r.openEvents === 0
        ? `All ${total} label events by its annotators were given blind.`
        : `${r.blindEvents} of ${total} label events by its annotators were given blind; ${r.openEvents} while the pool was open (those labels may not be independent).`;
  return `${setting} ${events}`;
}
