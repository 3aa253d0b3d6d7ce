/**
 * Every key of the current screen (issue 24), opened with F1 or Ctrl+/ anywhere (`?` stays the
 * "unsure" label); Esc, F1 or Ctrl+/ again, or a click outside closes it. Tab stays inside it,
 * and closing it gives the focus back to where it was.
 */
import { Fragment, useRef, type ReactNode } from 'react';
import { useModalFocus } from '../lib/modal-focus';
import { labelKeys, NAV_KEYS, rulingKeys } from '../annotate/keys';
import { REVIEW_KEYS } from '../review/reviewKeys';
import { TABS, tabForShortcut } from '../lib/roles';
import type { CallerRole } from '../../shared/roles';

/** Between the keys of one row that lists several (globalKeys' Alt+N of a role with fewer screens). */
const KEY_LIST_SEPARATOR = ' · ';

/**
 * Keys that work on every screen, for this role. Alt+N keeps its screen whoever calls (tabForShortcut):
 * a role that sees fewer screens is told its own numbers (an annotator's Alt+1 does nothing — the list
 * said "in the order of the tabs", and Annotate, the first of hers, is Alt+3).
 */
export function globalKeys(role: CallerRole | null): ReadonlyArray<[string, string]> {
  const mine = TABS.map((t, i) => ({ ...t, n: i + 1 })).filter((t) => role !== null && tabForShortcut(role, t.n) === t.id);
  const screens: [string, string] =
    mine.length === TABS.length || mine.length === 0
      ? ['Alt+1 … Alt+9', 'screens, in the order of the tabs']
      : [mine.map((t) => `Alt+${t.n}`).join(KEY_LIST_SEPARATOR), `screens: ${mine.map((t) => t.label).join(', ')} (the numbers of the full tab bar)`];
  return [screens, ['← / →', 'on the screen tabs: the other screens'], ['F1 or Ctrl+/', 'this list of keys'], ['Tab / Shift+Tab', 'move between controls; Enter or Space uses one']];
}

/** The pool on screen (Annotate and Review label with its scheme's keys), when known. */
export interface ShortcutPool {
  name: string;
  scheme: string;
}

/**
 * Each screen's own keys (screens without any list the global ones only). The label keys are the
 * pool's on screen — a SemEval pool's 2/1/0, a Likert pool's 1–5 — as the legend under the query shows them.
 */
export function screenKeys(tab: string, pool: ShortcutPool | null = null): { title: string; keys: ReadonlyArray<[string, string]> } {
  const scheme = pool?.scheme ?? 'binary';
  const describe = (k: { key: string; label: string }): [string, string] => [k.key, pool ? k.label : `${k.label} (binary pools; SemEval 2/1/0, Likert 1–5, graded 0–9)`];
  const labels = labelKeys(scheme).map(describe);
  switch (tab) {
    case 'annotate':
      return { title: 'Annotate', keys: [...labels, ...NAV_KEYS, ['Esc', 'close a dialog']] };
    case 'review':
      // A judge rules with the labels, never "?" (it settles nothing; the engine refuses it).
      return { title: 'Review', keys: [...rulingKeys(scheme).map(describe).map(([k, v]): [string, string] => [k, `settle: ${v}`]), ...REVIEW_KEYS, ['Esc', 'close a dialog']] };
    default:
      return { title: tab.charAt(0).toUpperCase() + tab.slice(1), keys: [['Enter', 'submit the form or dialog in focus'], ['Esc', 'close a dialog']] };
  }
}

export function ShortcutOverlay({ tab, pool = null, role = null, onClose }: { tab: string; pool?: ShortcutPool | null; role?: CallerRole | null; onClose: () => void }): ReactNode {
  const s = screenKeys(tab, pool);
  const root = useRef<HTMLDivElement | null>(null);
  const onKeyDown = useModalFocus(root);
  const section = (title: string, keys: ReadonlyArray<[string, string]>, id: string): ReactNode => (
    <section>
      <h3>{title}</h3>
      <table className="data shortcut-table" data-testid={id}>
        <tbody>
          {keys.map(([k, what]) => (
            <tr key={k}>
              {/* A list of keys (a judge's Alt+3 · Alt+4 · … Alt+9) wraps between its keys: on one line it pushed its meaning out of the card. */}
              <th scope="row" className={k.includes(KEY_LIST_SEPARATOR) ? 'key-list' : undefined}>
                {k.split(KEY_LIST_SEPARATOR).map((one, i) => (
                  <Fragment key={one}>
                    {i > 0 && KEY_LIST_SEPARATOR}
                    <kbd>{one}</kbd>
                  </Fragment>
                ))}
              </th>
              <td>{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
  return (
    <div ref={root} className="overlay" role="dialog" aria-modal="true" aria-label="Keyboard shortcuts" data-testid="shortcut-overlay" onClick={onClose} onKeyDown={onKeyDown}>
      <div className="overlay-card shortcut-card" onClick={(e) => e.stopPropagation()}>
        <h2>Keys — {s.title}</h2>
        <div className="shortcut-columns">
          {section(`${s.title} screen${pool && (tab === 'annotate' || tab === 'review') ? ` (pool “${pool.name}”, ${pool.scheme})` : ''}`, s.keys, 'shortcut-screen-keys')}
          {section('Everywhere', globalKeys(role), 'shortcut-global-keys')}
        </div>
        <p className="small muted" data-testid="shortcut-footer">
          <kbd>Esc</kbd>, <kbd>F1</kbd> or <kbd>Ctrl</kbd>+<kbd>/</kbd> closes
          {/* Only where "?" labels: in Review it settles nothing (a judge was told it "stays the unsure label"). */}
          {tab === 'annotate' ? (
            <>
              {' '}
              · <kbd>?</kbd> stays the “unsure” label
            </>
          ) : null}
        </p>
        {/* No autoFocus: it scrolled a list taller than the window to its end (useModalFocus focuses Close without scrolling). */}
        <button type="button" data-testid="shortcut-close" onClick={onClose}>
          Close
        </button>
      </div>
    </div>
  );
}
