/**
 * A stand-in for the `electron` module as a sandboxed preload sees it (`contextBridge` and
 * `ipcRenderer`), running in a Chromium page driven by Playwright. host.ts bundles it as an IIFE
 * and runs the app's real preload bundle (out/preload/index.cjs as electron-vite builds it) with a
 * `require` that returns this module for `electron` and throws for anything else — the sandboxed
 * preload's rule.
 *
 * It follows Electron's documented semantics where the app depends on them:
 *  - ipcRenderer.invoke structured-clones its arguments (a function or other uncloneable value
 *    rejects with "An object could not be cloned.") and resolves to the main handler's
 *    structured-cloned reply, or rejects with its error message; the call goes to the host through
 *    a Playwright binding, which reports the calling frame's URL as the sender frame;
 *  - ipcRenderer.on/once/removeListener/off/removeAllListeners: listeners get `(event, ...args)`;
 *  - contextBridge.exposeInMainWorld copies the API into the page: functions are proxied (their
 *    arguments and results copied across, promises too, errors as Error(message)), plain objects
 *    and arrays copied, other values structured-cloned; the exposed object is frozen and the window
 *    property read-only; exposing over an existing property throws.
 * The difference it cannot hide: there is no isolated world, so the preload runs in the page's
 * own world (the tests check that the page still sees only `invoke` and `on`).
 */

/** The binding host.ts exposes on the page: (channel, args) → {ok, value} | {ok: false, message}. */
type InvokeBinding = (channel: string, args: unknown[]) => Promise<{ ok: true; value: unknown } | { ok: false; message: string }>;

type Listener = (event: unknown, ...args: unknown[]) => void;
const listeners = new Map<string, Listener[]>();

/** Structured clone, with Electron's message on failure. */
function clone<T>(v: T): T {
  try {
    return structuredClone(v);
  } catch {
    throw new Error('An object could not be cloned.');
  }
}

const ipcEvent = (): { sender: unknown; senderId: number; ports: unknown[] } => ({ sender: ipcRenderer, senderId: 0, ports: [] });

/** The part of Electron's ipcRenderer the stand-in provides. */
export interface FakeIpcRenderer {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: Listener): FakeIpcRenderer;
  once(channel: string, listener: Listener): FakeIpcRenderer;
  removeListener(channel: string, listener: Listener): FakeIpcRenderer;
  off(channel: string, listener: Listener): FakeIpcRenderer;
  removeAllListeners(channel?: string): FakeIpcRenderer;
  listenerCount(channel: string): number;
}

export const ipcRenderer: FakeIpcRenderer = {
  async invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    const cloned = clone(args);
    const call = (window as unknown as { __qpairsFakeElectronInvoke?: InvokeBinding }).__qpairsFakeElectronInvoke;
    if (!call) throw new Error('the stand-in ipcRenderer has no connection to the main process');
    const r = await call(String(channel), cloned);
    if (!r.ok) throw new Error(r.message);
    return r.value;
  },
  on(channel: string, listener: Listener): FakeIpcRenderer {
    listeners.set(channel, [...(listeners.get(channel) ?? []), listener]);
    return ipcRenderer;
  },
  once(channel: string, listener: Listener): FakeIpcRenderer {
    const once: Listener = (e, ...a) => {
      ipcRenderer.removeListener(channel, once);
      listener(e, ...a);
    };
    return ipcRenderer.on(channel, once);
  },
  removeListener(channel: string, listener: Listener): FakeIpcRenderer {
    const list = listeners.get(channel) ?? [];
    const i = list.lastIndexOf(listener);
    if (i >= 0) listeners.set(channel, [...list.slice(0, i), ...list.slice(i + 1)]);
    return ipcRenderer;
  },
  off(channel: string, listener: Listener): FakeIpcRenderer {
    return ipcRenderer.removeListener(channel, listener);
  },
  removeAllListeners(channel?: string): FakeIpcRenderer {
    if (channel === undefined) listeners.clear();
    else listeners.delete(channel);
    return ipcRenderer;
  },
  listenerCount(channel: string): number {
    return listeners.get(channel)?.length ?? 0;
  },
};

/** Delivers messages the main process sent (webContents.send), in order; called by the host. */
export function deliver(messages: Array<{ channel: string; args: unknown[] }>): void {
  for (const m of messages) {
    for (const fn of [...(listeners.get(m.channel) ?? [])]) {
      try {
        fn(ipcEvent(), ...m.args);
      } catch (e) {
        // An exception in a listener surfaces as in Electron: uncaught, on the page.
        setTimeout(() => {
          throw e;
        });
      }
    }
  }
}

/** Copies a value across the bridge (see the module comment). */
function bridge(value: unknown, seen = new Map<object, unknown>()): unknown {
  if (typeof value === 'function') {
    const fn = value as (...a: unknown[]) => unknown;
    return (...args: unknown[]): unknown => {
      let result: unknown;
      try {
        result = fn(...args.map((a) => bridge(a)));
      } catch (e) {
        throw new Error((e as Error)?.message ?? String(e));
      }
      return bridge(result);
    };
  }
  if (typeof value === 'symbol') throw new Error('Symbols cannot be sent over the context bridge');
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return seen.get(value);
  if (value instanceof Promise) {
    return value.then(
      (v) => bridge(v),
      (e: unknown) => {
        throw new Error((e as Error)?.message ?? String(e));
      },
    );
  }
  if (value instanceof Error) return new Error(value.message);
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    seen.set(value, out);
    for (const v of value) out.push(bridge(v, seen));
    return out;
  }
  if (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null) {
    const out: Record<string, unknown> = {};
    seen.set(value, out);
    for (const [k, v] of Object.entries(value)) out[k] = bridge(v, seen);
    return out;
  }
  return clone(value);
}

export const contextBridge = {
  exposeInMainWorld(key: string, api: unknown): void {
    if (Object.prototype.hasOwnProperty.call(window, key)) throw new Error('Cannot bind an API on top of an existing property on the window object');
    const copied = bridge(api);
    Object.defineProperty(window, key, { value: typeof copied === 'object' && copied !== null ? Object.freeze(copied) : copied, writable: false, configurable: false, enumerable: true });
  },
};

/** The module `require('electron')` returns to the preload. */
export const electron = { contextBridge, ipcRenderer };
