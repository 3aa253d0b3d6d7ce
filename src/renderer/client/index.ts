/**
 * The renderer's one client, built on the contract: Electron IPC when the preload exposed
 * `window.qpairs`, otherwise HTTP + WebSocket to the serve-mode server that served the page.
 */
import { createHttpClient } from './http';
import { createIpcClient } from './ipc';
import type { AppClient, QPairsBridge } from './types';

export * from './types';
export { createHttpClient } from './http';
export { createIpcClient } from './ipc';

declare global {
  interface Window {
    qpairs?: QPairsBridge;
  }
}

export function createClient(win: Window = window): AppClient {
  if (win.qpairs && typeof win.qpairs.invoke === 'function') return createIpcClient(win.qpairs);
  return createHttpClient({ baseUrl: win.location.origin });
}
