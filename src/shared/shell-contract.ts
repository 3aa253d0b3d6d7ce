/**
 * The desktop shell's own commands: what the renderer asks of the Electron main process that the
 * engine cannot answer (native dialogs, opening another workspace). One typed declaration both
 * sides use, as contract.ts is for engine commands: each command's argument schema (validated by
 * src/main/ipc.ts on arrival) and result type. They travel on the engine's invoke channel and
 * exist only there: owner-only (SHELL_COMMAND_ROLE, in roles.ts) and desktop-only — serve mode has no route to them (a remote client
 * never names a path on the server's machine), and the renderer offers them only over Electron.
 * The renderer imports only this file's types: its schemas would bring zod into the page, whose
 * object parsers try `new Function` (refused by the page's CSP, and reported as a violation).
 */
import { z } from 'zod';

const title = z.string().max(200).optional();
/** An absolute path on this machine (the renderer got it from a native dialog or the recent list). */
const localPath = z.string().min(1).max(4096);

export const shellCommandArgs = {
  /** The native file picker (import sources). */
  'dialog.openFiles': z.object({ title, multiple: z.boolean().default(true) }),
  /** The native save dialog (export targets). */
  'dialog.saveFile': z.object({ title, defaultPath: z.string().max(4096).optional() }),
  /** Opens another workspace in place of this one: `path` (a recent one), else the one chosen in an open dialog. */
  'shell.openWorkspace': z.object({ path: localPath.optional() }),
  /** Creates a new, empty workspace at `path` (a second launch's), else where a save dialog says, and opens it in place of this one. */
  'shell.newWorkspace': z.object({ path: localPath.optional() }),
  /** The workspaces opened lately, newest first (the open one among them). */
  'shell.recentWorkspaces': z.object({}),
} as const;

export type ShellCommandName = keyof typeof shellCommandArgs;
export type ShellCommandArgs<C extends ShellCommandName> = z.input<(typeof shellCommandArgs)[C]>;
export type ParsedShellArgs<C extends ShellCommandName> = z.output<(typeof shellCommandArgs)[C]>;

/** What opening (or creating) another workspace did: cancelled in its dialog, or opened (the app reloads its screens). */
export type WorkspaceSwitch = { opened: false } | { opened: true; workspaceName: string };

export interface RecentWorkspace {
  path: string;
  /** Its file name. */
  name: string;
  /** Whether a file is still there (false: moved, renamed or deleted since). */
  exists: boolean;
  /** The workspace open now. */
  current: boolean;
}

export interface ShellResults {
  'dialog.openFiles': { paths: string[] };
  'dialog.saveFile': { path: string | null };
  'shell.openWorkspace': WorkspaceSwitch;
  'shell.newWorkspace': WorkspaceSwitch;
  'shell.recentWorkspaces': { workspaces: RecentWorkspace[] };
}

export function isShellCommandName(s: unknown): s is ShellCommandName {
  return typeof s === 'string' && Object.prototype.hasOwnProperty.call(shellCommandArgs, s);
}

/** Shell → renderer events (on the engine's event channel; see SHELL_EVENT_NAMES in ipc-channels.ts). */
export interface ShellEventPayloads {
  /**
   * QPairs was started again while this app runs: the second launch quit, this window came to the
   * front. `workspace`: the workspace it named when that is not the one open here (null otherwise);
   * `exists`: whether a file is there (a launch on a path with no file starts a new workspace there).
   */
  'shell.secondLaunch': { workspace: string | null; exists: boolean };
}
