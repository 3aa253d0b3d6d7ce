/**
 * The desktop app's workspace menu (top bar, the owner's, Electron only): Open workspace…, New
 * workspace… and the workspaces opened lately (one moved or deleted since says so). Opening one
 * replaces the open workspace (lib/use-workspace-switch.ts); when it is refused, this one stays and
 * the menu says why.
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { RecentWorkspace } from '../../shared/shell-contract';
import { useApp } from '../lib/context';
import { useWorkspaceSwitch } from '../lib/use-workspace-switch';

export function WorkspaceMenu({ workspaceName }: { workspaceName: string }): ReactNode {
  const { client } = useApp();
  const shell = client.shell;
  const [open, setOpen] = useState(false);
  const [recent, setRecent] = useState<RecentWorkspace[]>([]);
  const { run, error, busy, clearError } = useWorkspaceSwitch();
  const box = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const first = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open || !shell) return;
    let live = true;
    shell('shell.recentWorkspaces', {})
      .then((r) => live && setRecent(r.workspaces))
      .catch(() => live && setRecent([]));
    first.current?.focus();
    const onKey = (e: KeyboardEvent): void => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      clearError();
      button.current?.focus();
    };
    const onDown = (e: MouseEvent): void => {
      if (box.current && !box.current.contains(e.target as Node)) {
        setOpen(false);
        clearError();
      }
    };
    window.addEventListener('keydown', onKey);
    window.addEventListener('mousedown', onDown);
    return () => {
      live = false;
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('mousedown', onDown);
    };
  }, [open, shell, clearError]);

  if (!shell) return null;
  const others = recent.filter((w) => !w.current);
  return (
    <div className="workspace-menu" ref={box}>
      <button
        type="button"
        ref={button}
        className="icon-button workspace-menu-button"
        data-testid="workspace-menu"
        aria-expanded={open}
        aria-controls="workspace-menu-panel"
        aria-label="Workspaces: open another, or start a new one"
        title={`Workspace ${workspaceName}: open another, or start a new one`}
        onClick={() => {
          clearError();
          setOpen((o) => !o);
        }}
      >
        ▾
      </button>
      {open && (
        <div className="workspace-menu-panel" id="workspace-menu-panel" role="group" aria-label="Workspaces" data-testid="workspace-menu-panel">
          <button type="button" ref={first} data-testid="workspace-open" disabled={busy} onClick={() => void run(() => shell('shell.openWorkspace', {}))}>
            Open workspace…
          </button>
          <button type="button" data-testid="workspace-new" disabled={busy} onClick={() => void run(() => shell('shell.newWorkspace', {}))}>
            New workspace…
          </button>
          {others.length > 0 && (
            <ul className="workspace-recent" aria-label="Recent workspaces" data-testid="workspace-recent">
              {others.map((w) => (
                <li key={w.path}>
                  <button type="button" title={w.path} data-testid="workspace-recent-item" data-exists={w.exists} disabled={busy} onClick={() => void run(() => shell('shell.openWorkspace', { path: w.path }))}>
                    {w.name}
                    {!w.exists && <span className="muted small"> (not found: moved or deleted)</span>}
                  </button>
                </li>
              ))}
            </ul>
          )}
          {error && (
            <p className="error small" role="alert" data-testid="workspace-switch-error">
              {error}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
