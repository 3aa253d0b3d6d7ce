import { useCallback, useState } from 'react';
import type { WorkspaceSwitch } from '../../shared/shell-contract';
import { useApp } from './context';
import { errorMessage } from './format';
import { switchWorkspace } from './workspace-switch';

/**
 * Opens another workspace through the desktop shell (lib/workspace-switch.ts): `run` asks the shell
 * for it; `error` says why it did not open (labels waiting, a job running, a refused workspace —
 * this one stays open), `busy` while it is asked.
 */
export function useWorkspaceSwitch(): { run: (open: () => Promise<WorkspaceSwitch>) => Promise<void>; error: string | null; busy: boolean; clearError: () => void } {
  const { outbox, settles } = useApp();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = useCallback(
    async (open: () => Promise<WorkspaceSwitch>) => {
      setError(null);
      setBusy(true);
      try {
        await switchWorkspace({
          pending: () => outbox.counts().unsaved + outbox.counts().failed + settles.counts().unsaved + settles.counts().failed,
          open,
          forget: () => {
            try {
              sessionStorage.clear();
            } catch {
              // storage blocked: nothing of this tab was kept there
            }
          },
          reload: () => window.location.reload(),
        });
      } catch (e) {
        setError(errorMessage(e));
      } finally {
        setBusy(false);
      }
    },
    [outbox, settles],
  );
  return { run, error, busy, clearError: useCallback(() => setError(null), []) };
}
