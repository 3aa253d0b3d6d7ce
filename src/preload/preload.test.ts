/**
 * The preload as it ships: built by the project's electron-vite configuration (the same bundle
 * `electron-vite build` writes to out/preload/index.cjs), then run as Electron runs a sandboxed
 * preload — a CommonJS function whose `require` knows only `electron` — against a stand-in
 * `contextBridge`/`ipcRenderer`.
 *
 * It proves that the bundle requires nothing but `electron`, that the bridge exposes exactly
 * `invoke` and `on`, and that `on` accepts every event of the contract (EVENT_NAMES, train.progress
 * included — the preload before issue 28 threw "unknown event train.progress", which broke the
 * renderer at start-up) and nothing else.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPreload, requiredModules } from '../../tests/e2e/fake-electron/build';
import { EVENT_NAMES } from '../shared/contract';
import { EVENT_CHANNEL, INVOKE_CHANNEL } from '../shared/ipc-channels';

type Listener = (event: unknown, ...args: unknown[]) => void;

interface Loaded {
  /** What the bundle passed to require(). */
  required: string[];
  /** What it gave contextBridge.exposeInMainWorld, by key. */
  exposed: Map<string, Record<string, unknown>>;
  /** ipcRenderer.invoke calls. */
  invoked: unknown[][];
  /** ipcRenderer listeners by channel. */
  listeners: Map<string, Set<Listener>>;
}

/** Runs the bundle's text as a sandboxed preload: `require` gives the stand-in `electron` and throws for anything else. */
function runPreload(code: string): Loaded {
  const l: Loaded = { required: [], exposed: new Map(), invoked: [], listeners: new Map() };
  const electron = {
    contextBridge: {
      exposeInMainWorld: (key: string, api: Record<string, unknown>) => {
        if (l.exposed.has(key)) throw new Error(`Cannot bind an API on top of an existing property on the window object`);
        l.exposed.set(key, api);
      },
    },
    ipcRenderer: {
      invoke: (channel: string, ...args: unknown[]) => {
        l.invoked.push([channel, ...args]);
        return Promise.resolve({ ok: true, result: null });
      },
      on: (channel: string, fn: Listener) => {
        let set = l.listeners.get(channel);
        if (!set) l.listeners.set(channel, (set = new Set()));
        set.add(fn);
      },
      removeListener: (channel: string, fn: Listener) => {
        l.listeners.get(channel)?.delete(fn);
      },
    },
  };
  const require = (id: string): unknown => {
    l.required.push(id);
    if (id === 'electron') return electron;
    throw new Error(`module not found: ${id} (a sandboxed preload can require only electron)`);
  };
  const module = { exports: {} };
  new Function('require', 'module', 'exports', code)(require, module, module.exports);
  return l;
}

/** Sends one event the way ipc.ts does: webContents.send(EVENT_CHANNEL, name, payload). */
function send(l: Loaded, name: string, payload: unknown): void {
  for (const fn of l.listeners.get(EVENT_CHANNEL) ?? []) fn({ sender: null }, name, payload);
}

let dir = '';
let code = '';

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'qpairs-preload-'));
  code = readFileSync(await buildPreload(dir), 'utf8');
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the built preload bundle', () => {
  it('requires electron and nothing else (a sandboxed preload cannot load other modules)', () => {
    expect(requiredModules(code)).toEqual(['electron']);
    expect(code).not.toMatch(/\bimport\s*\(/);
    expect(runPreload(code).required).toEqual(['electron']);
  });

  it('exposes exactly invoke and on as window.qpairs', () => {
    const l = runPreload(code);
    expect([...l.exposed.keys()]).toEqual(['qpairs']);
    expect(Object.keys(l.exposed.get('qpairs')!).sort()).toEqual(['invoke', 'on']);
  });

  it('accepts every event of the contract, train.progress included, and delivers only the one asked for', () => {
    const l = runPreload(code);
    const bridge = l.exposed.get('qpairs') as { on(e: string, fn: (p: unknown) => void): () => void };
    expect(EVENT_NAMES).toContain('train.progress');
    const got: Array<[string, unknown]> = [];
    const offs = EVENT_NAMES.map((name) => bridge.on(name, (p) => got.push([name, p])));
    for (const name of EVENT_NAMES) send(l, name, { n: name });
    expect(got).toEqual(EVENT_NAMES.map((name) => [name, { n: name }]));
    for (const off of offs) off();
    expect(l.listeners.get(EVENT_CHANNEL)?.size ?? 0).toBe(0);
    send(l, 'train.progress', {});
    expect(got).toHaveLength(EVENT_NAMES.length);
  });

  it('refuses events outside the contract and listeners that are not functions', () => {
    const bridge = runPreload(code).exposed.get('qpairs') as { on(e: string, fn: unknown): () => void };
    expect(() => bridge.on('nope', () => {})).toThrow('unknown event nope');
    expect(() => bridge.on('job.done', 'not a function')).toThrow('listener must be a function');
  });

  it('invokes on the shared channel with the command as a string and {} for missing arguments', async () => {
    const l = runPreload(code);
    const bridge = l.exposed.get('qpairs') as { invoke(c: unknown, a?: unknown): Promise<unknown> };
    await bridge.invoke('app.info');
    await bridge.invoke('pool.progress', { pool: 'p' });
    expect(l.invoked).toEqual([
      [INVOKE_CHANNEL, 'app.info', {}],
      [INVOKE_CHANNEL, 'pool.progress', { pool: 'p' }],
    ]);
  });
});
