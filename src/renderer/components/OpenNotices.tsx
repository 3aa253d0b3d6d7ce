/**
 * What opening the workspace did that its owner should know (AppInfo.notices: an upgrade, an
 * interrupted import undone), shown above every screen until dismissed. A dismissal lasts for the
 * tab (sessionStorage), so a reload does not bring the same notice back, but the next open that
 * upgrades or undoes something shows its own. A page that stays open while its server is restarted
 * reads them again when it reconnects: the new server's open may have undone the import the page was
 * following, or upgraded the workspace; and after an import or an undo, when the one that runs in the background at
 * open (an undo a crash or kill stopped partway) may have ended.
 */
import { useState, type ReactNode } from 'react';
import type { WorkspaceNotice } from '../../shared/types';
import { useApp, useEvent, useReconnect } from '../lib/context';

const KEY = 'qpairs.dismissedNotices';

function dismissedSet(): Set<string> {
  try {
    return new Set(JSON.parse(sessionStorage.getItem(KEY) ?? '[]') as string[]);
  } catch {
    return new Set();
  }
}

const TITLES: Record<WorkspaceNotice['kind'], string> = {
  upgraded: 'Workspace upgraded',
  'import-undone': 'Interrupted import undone',
  'undo-finished': 'Interrupted undo finished',
  'import-undoing': 'Finishing an interrupted undo',
  'undo-partway': 'Import partly undone',
  'import-left': 'Interrupted import still in this read-only workspace',
  'last-missing': 'Last workspace not found',
  'read-only': 'Opened read-only',
};

export function OpenNotices({ notices }: { notices: readonly WorkspaceNotice[] }): ReactNode {
  const { client } = useApp();
  const [dismissed, setDismissed] = useState(dismissedSet);
  /** The notices of the server as it answered after a reconnect (null: those the page loaded with). */
  const [reread, setReread] = useState<readonly WorkspaceNotice[] | null>(null);
  const readAgain = (): void => {
    client
      .invoke('app.info', {})
      .then((info) => setReread(info.notices))
      .catch(() => {
        // Unanswered: the next reconnect asks again.
      });
  };
  useReconnect(readAgain);
  // An undo the server finishes in the background (import-undoing) ends announcing an import change: read again, the
  // notices then say it finished (or that it stopped partway), instead of saying it runs until dismissed.
  useEvent('workspace.changed', (c) => {
    if (c.what === 'import') readAgain();
  });
  const shown = (reread ?? notices).filter((n) => !dismissed.has(n.message));
  if (shown.length === 0) return null;
  const dismiss = (n: WorkspaceNotice): void => {
    const next = new Set(dismissed).add(n.message);
    try {
      sessionStorage.setItem(KEY, JSON.stringify([...next]));
    } catch {
      // storage full or blocked: dismissed until the page reloads
    }
    setDismissed(next);
  };
  return (
    <section className="open-notices" aria-label="Workspace notices" data-testid="open-notices">
      {shown.map((n) => (
        <div key={n.message} className="note-box open-notice" role="status" data-testid={`open-notice-${n.kind}`}>
          <p>
            <strong>{TITLES[n.kind]}.</strong> {n.message}
          </p>
          <button type="button" onClick={() => dismiss(n)} aria-label={`Dismiss: ${TITLES[n.kind]}`} data-testid={`open-notice-dismiss-${n.kind}`}>
            Dismiss
          </button>
        </div>
      ))}
    </section>
  );
}
