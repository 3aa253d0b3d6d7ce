/**
 * The preload script (sandboxed, CommonJS): exposes exactly two functions to the renderer as
 * `window.qpairs` — `invoke(command, args)` and `on(event, listener)` — and nothing of Node or
 * Electron. It only imports `electron` (allowed in sandboxed preloads); the event names are
 * listed here rather than imported so that no other module ends up in this bundle.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';

const INVOKE_CHANNEL = 'qpairs:invoke';
const EVENT_CHANNEL = 'qpairs:event';
const EVENTS = new Set(['job.progress', 'job.done', 'label.changed', 'workspace.changed']);

contextBridge.exposeInMainWorld('qpairs', {
  /** Resolves to `{ok: true, result}` or `{ok: false, error: WireError}`; never rejects for engine errors. */
  invoke: (command: string, args: unknown): Promise<unknown> => ipcRenderer.invoke(INVOKE_CHANNEL, String(command), args ?? {}),
  /** Subscribes to one engine event; returns the unsubscribe function. */
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
