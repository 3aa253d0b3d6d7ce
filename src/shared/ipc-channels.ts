/**
 * The names both ends of the desktop IPC agree on: the two Electron channels and the engine's
 * event names. One list, kept here and nowhere else: `contract.ts` re-exports EVENT_NAMES (and
 * checks at compile time that it is exactly the keys of its EventPayloads), the main process
 * registers the channels (src/main/ipc.ts) and the preload allows exactly these events
 * (src/preload/index.ts).
 *
 * This module imports nothing, so the preload's bundler inlines it and the sandboxed preload
 * bundle still requires only `electron` (src/preload/preload.test.ts checks both).
 */

/** `ipcRenderer.invoke(INVOKE_CHANNEL, command, args)`: a contract command (or a shell command such as dialog.openFiles). */
export const INVOKE_CHANNEL = 'qpairs:invoke';

/** `webContents.send(EVENT_CHANNEL, name, payload)`: every engine event, to the app's windows. */
export const EVENT_CHANNEL = 'qpairs:event';

/** Every engine → renderer event (the keys of contract.ts's EventPayloads, in one order). */
export const EVENT_NAMES = ['job.progress', 'job.done', 'label.changed', 'train.progress', 'workspace.changed'] as const;

/**
 * Events of the desktop shell itself, not the engine's (shell-contract.ts ShellEventPayloads), sent on
 * the same channel; the preload allows these too.
 */
export const SHELL_EVENT_NAMES = ['shell.secondLaunch'] as const;

/** One of EVENT_NAMES. */
export type ChannelEventName = (typeof EVENT_NAMES)[number];
