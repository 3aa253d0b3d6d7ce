/**
 * The preload script (sandboxed, CommonJS): exposes exactly two functions to the renderer as
 * `window.qpairs` — `invoke(command, args)` and `on(event, listener)` — and nothing of Node or
 * Electron.
 *
 * The channel names and the events `on` accepts come from src/shared/ipc-channels.ts, the one
 * list the contract (EVENT_NAMES) and the main process use too; that module imports nothing, so
 * the bundler inlines it and the built bundle (out/preload/index.cjs) still requires only
 * `electron`, as a sandboxed preload must (src/preload/preload.test.ts checks the bundle).
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { EVENT_CHANNEL, EVENT_NAMES, INVOKE_CHANNEL, SHELL_EVENT_NAMES } from '../shared/ipc-channels';

const EVENTS: ReadonlySet<string> = new Set<string>([...EVENT_NAMES, ...SHELL_EVENT_NAMES]);

contextBridge.exposeInMainWorld('qpairs', {
  /** Resolves to `{ok: true, result}` or `{ok: false, error: WireError}`; never rejects for engine errors. */
  invoke: (command: string, args: unknown): Promise<unknown> => ipcRenderer.invoke(INVOKE_CHANNEL, String(command), args ?? {}),
  /** Subscribes to one engine event (one of EVENT_NAMES) or shell event (SHELL_EVENT_NAMES), else it throws; returns the unsubscribe function. */
  on: (event: string, listener: (payload: unknown) => void): (() => void) => {
    if (!EVENTS.has(event)) throw new Error(`unknown event ${String(event)}`);
    if (typeof listener !== 'function') throw new Error('listener must be a function');
    const handler = (_e: IpcRendererEvent, name: string, payload: unknown): void => {
      if (name === event) listener(payload);
    };
    ipcRenderer.on(EVENT_CHANNEL, handler);
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL, handler);
    };
  },
});
