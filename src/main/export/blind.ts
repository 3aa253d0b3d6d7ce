/**
 * The datasheet's statement of how independent a pool's labels are: whether its annotators
 * labeled blind (their own labels only, no rankers' scores) — from the pool's blind history
 * (migration 5) and the times of its annotators' label events.
 */
import type { Workspace } from '../workspace/workspace';
import { counted } from '../../shared/plural';

export interface BlindReport {
  /** The pool's setting now. */
  blindNow: boolean;
  /** Periods of the setting, oldest first; `to` null = until now. */
  periods: Array<{ blind: boolean; from: string; to: string | null }>;
  /** Label events by the pool's annotators (role annotator) given while it was blind / open. */
  blindEvents: number;
  openEvents: number;
  /**
   * Their label events that came from files (an import, e.g. a re-imported export): not given in
   * this workspace, so its blind setting says nothing about them.
   */
  importedEvents: number;
}

/** Label events an import wrote (`origin` import:FORMAT:FILE). */
const IMPORTED = 'import:%';

export function blindReport(ws: Workspace, pool: string): BlindReport {
  const p = ws.pool(pool);
  const history = ws.poolBlindHistory(pool);
  const periods = history.map((h, i) => ({ blind: h.blind, from: h.at, to: history[i + 1]?.at ?? null }));
  // One pass over the pool's label events by annotators: imported ones are only counted.
  const events = ws
    .stmt(`SELECT l.at, l.origin LIKE ? AS imported FROM labels l JOIN annotators a ON a.id = l.annotator_id WHERE l.pool_id = ? AND a.role = 'annotator'`)
    .all(IMPORTED, p.id) as Array<{ at: string; imported: number }>;
  let importedEvents = 0;
  let blindEvents = 0;
  let openEvents = 0;
  for (const { at, imported } of events) {
    if (imported) {
      importedEvents++;
      continue;
    }
    // The period in force at `at`: the last change at or before it (ISO timestamps sort as text).
    let blind = periods[0]?.blind ?? true;
    for (const period of periods) if (period.from <= at) blind = period.blind;
    if (blind) blindEvents++;
    else openEvents++;
  }
  return { blindNow: p.blind, periods, blindEvents, openEvents, importedEvents };
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
  const imported =
    r.importedEvents === 0
      ? ''
      : ` ${counted(r.importedEvents, 'label event')} by its annotators ${r.importedEvents === 1 ? 'was' : 'were'} imported from files, not given here: whether they were given blind is not recorded in this workspace (the datasheet that came with those files says).`;
  const here = r.importedEvents === 0 ? '' : ' in this workspace';
  const events =
    total === 0
      ? r.importedEvents === 0
        ? 'No label events by its annotators yet.'
        : 'No label events by its annotators were given in this workspace.'
      : r.openEvents === 0
        ? total === 1 ? `The 1 label event by its annotators${here} was given blind.` : `All ${total} label events by its annotators${here} were given blind.`
        : `${r.blindEvents} of ${counted(total, 'label event')} by its annotators${here} ${r.blindEvents === 1 ? 'was' : 'were'} given blind; ${r.openEvents} while the pool was open (those labels may not be independent).`;
  return `${setting} ${events}${imported}`;
}
