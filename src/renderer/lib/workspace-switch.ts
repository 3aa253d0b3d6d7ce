/**
 * Opening another workspace from the desktop app (the shell commands shell.openWorkspace and
 * shell.newWorkspace): refused here first while labels of this workspace wait in the page's
 * outboxes (they would be sent to the other workspace, or lost); once the shell opened the other
 * one, this page's per-tab memory of the old one — undo and redo history, outboxes, dismissed
 * notices — is forgotten and the page reloads, so no screen shows the old workspace's data and
 * Undo never takes back a label of the old workspace in the new one.
 */
import type { WorkspaceSwitch } from '../../shared/shell-contract';
import { counted } from '../../shared/plural';

export interface SwitchDeps {
  /** Labels (and a judge's rulings) of this page not saved yet, waiting or refused. */
  pending(): number;
  /** Asks the shell to open the other workspace (its dialog may be cancelled). */
  open(): Promise<WorkspaceSwitch>;
  /** Forgets this tab's memory of the workspace (sessionStorage). */
  forget(): void;
  reload(): void;
}

/** Why the page does not let this workspace go now, or null. */
export function pendingRefusal(pending: number): string | null {
  if (pending === 0) return null;
  return `${counted(pending, 'label')} of this workspace ${pending === 1 ? 'is' : 'are'} not saved yet (see Annotate or Review): let ${pending === 1 ? 'it' : 'them'} save, or discard ${pending === 1 ? 'it' : 'them'}, then open the other workspace.`;
}

/**
 * Runs a switch: throws the refusal when labels wait (the shell is not asked), returns false when
 * the dialog was cancelled, else forgets this tab's workspace memory, reloads and returns true.
 * The shell's refusals (a job running, a workspace it cannot open) are thrown as they come.
 */
export async function switchWorkspace(d: SwitchDeps): Promise<boolean> {
  const refused = pendingRefusal(d.pending());
  if (refused) throw new Error(refused);
  const r = await d.open();
  if (!r.opened) return false;
  d.forget();
  d.reload();
  return true;
}
