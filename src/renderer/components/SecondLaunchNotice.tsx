/**
 * QPairs was started again while this desktop app runs (the shell's `shell.secondLaunch`): the second
 * launch quit and this window came to the front. When it named another workspace, this says so and
 * offers to open it — never switching by itself (the user may be labeling).
 */
import { useEffect, useState, type ReactNode } from 'react';
import { useApp } from '../lib/context';
import { useWorkspaceSwitch } from '../lib/use-workspace-switch';

export function SecondLaunchNotice(): ReactNode {
  const { client } = useApp();
  const [named, setNamed] = useState<{ workspace: string; exists: boolean } | null>(null);
  const { run, error, busy } = useWorkspaceSwitch();
  useEffect(() => client.onShell?.('shell.secondLaunch', (p) => p.workspace && setNamed({ workspace: p.workspace, exists: p.exists })), [client]);
  const shell = client.shell;
  if (!named || !shell) return null;
  return (
    <section className="open-notices" aria-label="QPairs started again">
      <div className="note-box open-notice" role="status" data-testid="second-launch-notice">
        <p>
          <strong>QPairs is already open.</strong> It was started again on {named.workspace}; this window stays on the workspace open here.{' '}
          {named.exists ? `Open ${named.workspace} instead?` : 'No workspace is there yet: Create it starts a new, empty one there and opens it.'}
          {error && (
            <span className="error" role="alert" data-testid="second-launch-error">
              {' '}
              {error}
            </span>
          )}
        </p>
        <button
          type="button"
          data-testid="second-launch-open"
          disabled={busy}
          onClick={() => void run(() => (named.exists ? shell('shell.openWorkspace', { path: named.workspace }) : shell('shell.newWorkspace', { path: named.workspace })))}
        >
          {named.exists ? 'Open it' : 'Create it'}
        </button>
        <button type="button" data-testid="second-launch-dismiss" onClick={() => setNamed(null)}>
          Keep this one
        </button>
      </div>
    </section>
  );
}
