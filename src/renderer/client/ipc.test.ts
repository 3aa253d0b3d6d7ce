import { describe, expect, it, vi } from 'vitest';
import { createIpcClient } from './ipc';
import type { QPairsBridge } from './types';

describe('IPC client', () => {
  it('unwraps {ok, result} and turns {ok: false} into ClientErrors with the WireError code', async () => {
    const bridge: QPairsBridge = {
      invoke: vi.fn(async (command: string) => {
        if (command === 'app.info') return { ok: true, result: { transport: 'electron' } };
        if (command === 'dialog.openFiles') return { ok: true, result: { paths: ['/a.xml', 3] } };
        if (command === 'dialog.saveFile') return { ok: true, result: { path: '/out/team.qrels' } };
        return { ok: false, error: { code: 'invalid-argument', message: 'bad' } };
      }),
      on: vi.fn(() => () => {}),
    };
    const c = createIpcClient(bridge);
    expect(c.transport).toBe('electron');
    await expect(c.invoke('app.info', {})).resolves.toEqual({ transport: 'electron' });
    await expect(c.invoke('workspace.stats', {})).rejects.toMatchObject({ code: 'invalid-argument', message: 'bad' });
    await expect(c.pickFiles!()).resolves.toEqual(['/a.xml']);
    expect(bridge.invoke).toHaveBeenCalledWith('dialog.openFiles', {});
    await expect(c.pickSavePath!({ defaultPath: 'team.qrels' })).resolves.toBe('/out/team.qrels');
    expect(bridge.invoke).toHaveBeenCalledWith('dialog.saveFile', { defaultPath: 'team.qrels' });
  });

  it("keeps the WireError's reason code", async () => {
    const c = createIpcClient({ invoke: async () => ({ ok: false, error: { code: 'user-error', message: 'refusing to overwrite an existing file: /o/x.qrels', reason: 'export-files-exist' } }), on: () => () => {} });
    await expect(c.invoke('workspace.stats', {})).rejects.toMatchObject({ code: 'user-error', reason: 'export-files-exist' });
  });

  it('returns null when the save dialog is cancelled', async () => {
    const c = createIpcClient({ invoke: async () => ({ ok: true, result: { path: null } }), on: () => () => {} });
    await expect(c.pickSavePath!()).resolves.toBeNull();
  });

  it('treats a rejected IPC call as a transport error and a malformed reply as internal', async () => {
    const c = createIpcClient({
      invoke: async (command) => {
        if (command === 'app.info') throw new Error('object could not be cloned');
        return 42;
      },
      on: () => () => {},
    });
    await expect(c.invoke('app.info', {})).rejects.toMatchObject({ code: 'transport' });
    await expect(c.invoke('workspace.stats', {})).rejects.toMatchObject({ code: 'internal' });
  });

  it('subscribes through the bridge and is always connected', () => {
    const off = vi.fn();
    const bridge: QPairsBridge = { invoke: vi.fn(), on: vi.fn(() => off) };
    const c = createIpcClient(bridge);
    const fn = vi.fn();
    const unsub = c.on('job.done', fn);
    expect(bridge.on).toHaveBeenCalledWith('job.done', fn);
    unsub();
    expect(off).toHaveBeenCalled();
    const states: string[] = [];
    c.onConnection((s) => states.push(s));
    expect(states).toEqual(['open']);
  });
});
