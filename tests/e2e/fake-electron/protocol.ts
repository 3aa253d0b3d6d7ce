/**
 * Messages between the stand-in Electron main process (main-process.ts, run as a child process
 * of the test) and the test's host (host.ts), which plays Electron's renderer side with
 * Playwright pages. They travel over Node's IPC channel with `serialization: 'advanced'`, i.e.
 * the structured clone algorithm — the same rule Electron applies to IPC arguments and replies.
 */

/** What a BrowserWindow was created with (the parts the host acts on or the tests inspect). */
export interface WindowSpec {
  id: number;
  title: string;
  width: number;
  height: number;
  webPreferences: Record<string, unknown>;
}

/** Main → host. */
export type MainMessage =
  | { t: 'window'; window: WindowSpec }
  | { t: 'load'; window: number; url: string }
  | { t: 'send'; window: number; channel: string; args: unknown[] }
  | { t: 'close'; window: number }
  /** BrowserWindow.setTitle. */
  | { t: 'title'; window: number; title: string }
  | { t: 'reply'; call: number; ok: true; value: unknown }
  | { t: 'reply'; call: number; ok: false; message: string }
  | { t: 'error-box'; title: string; content: string };

/** Host → main. */
export type HostMessage =
  /** ipcRenderer.invoke from a window's page; `frameUrl` is the calling frame's URL (event.senderFrame.url). */
  | { t: 'invoke'; call: number; window: number; frameUrl: string; channel: string; args: unknown[] }
  /** The page finished loading (did-finish-load, then ready-to-show). */
  | { t: 'loaded'; window: number }
  /** The user closed the window. */
  | { t: 'closed'; window: number }
  /** A renderer-initiated navigation: the reply says whether a will-navigate listener prevented it. */
  | { t: 'will-navigate'; call: number; window: number; url: string }
  /** window.open from the page: the reply is the window-open handler's action. */
  | { t: 'window-open'; call: number; window: number; url: string }
  /** The answers the next native dialogs give (file paths; an empty list cancels). */
  | { t: 'dialog-answers'; open: string[][]; save: Array<string | null> }
  /** A snapshot of what the app did to Electron (for the tests). */
  | { t: 'inspect'; call: number }
  /** app.quit(). */
  | { t: 'quit' }
  /** The user minimised the window. */
  | { t: 'minimize'; window: number };

/** The inspect reply. */
export interface MainState {
  windows: WindowSpec[];
  /** Each window's state: minimised, how many times the app focused it, shown. */
  windowStates: Array<{ id: number; minimized: boolean; focused: number; visible: boolean }>;
  /** Channels with an ipcMain.handle handler. */
  handlers: string[];
  /** Whether session.defaultSession's permission handlers were set, and what they answer. */
  permissionRequestGranted: boolean | null;
  permissionCheckGranted: boolean | null;
  /** The options of every native dialog shown so far. */
  dialogs: Array<{ kind: 'open' | 'save'; options: Record<string, unknown> }>;
  /** Whether a window-open handler was set on each window's web contents. */
  windowOpenHandlers: number[];
  /** will-attach-webview prevented on each window's web contents. */
  webviewsPrevented: boolean[];
  /** Events the main process sent to windows, by name, counted (the second argument of EVENT_CHANNEL sends). */
  sentEvents: Record<string, number>;
}
