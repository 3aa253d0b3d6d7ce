/**
 * A read-only served workspace refuses changes without telling a remote caller where it lies: a
 * token holder (annotator or owner) reads the workspace by its base name, never the server's path;
 * the desktop/loopback owner (the engine's local caller) and the CLI still get the full path. An
 * internal error (not worded for users; a Node error's "open '/srv/…'") reaches a token holder with
 * every absolute path by its base name; the server's log keeps it whole.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../engine/engine';
import { teamEngine } from '../engine/test-team';
import { Workspace } from '../workspace/workspace';
import { startServer, type RunningServer } from './server';
import { withoutAbsolutePaths, withoutServerPaths } from '../engine/server-paths';
import { EventHub } from '../engine/events';

let dir: string;
let file: string;
let engine: Engine;
let server: RunningServer;
const TOKENS = { alice: 'alice-secret-1', dave: 'dave-secret-1' };

beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-ro-remote-'));
  teamEngine(dir).close();
  file = path.join(dir, 'w.qpairs');
  engine = new Engine(Workspace.open(file, { readonly: true }), { transport: 'http' });
  server = await startServer({ engine, port: 0, tokens: TOKENS, staticDir: dir });
});
afterEach(async () => {
  await server?.close();
  engine.close();
  rmSync(dir, { recursive: true, force: true });
});

async function call(token: string | null, command: string, args: unknown): Promise<{ status: number; body: { message?: string } }> {
  const r = await fetch(`${server.url}/api/invoke`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-QPairs': '1', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ command, args }),
  });
  return { status: r.status, body: (await r.json()) as { message?: string } };
}

const label = { pool: 'open', queryId: 'q1', candidateId: 'c2', value: '2' };

describe('a read-only served workspace names no server path to remote callers', () => {
  it('label.set by an annotator and by an owner with a token: refused as read-only, by the workspace’s name only', async () => {
    for (const [who, args] of [
      ['alice', { ...label, annotator: 'alice' }],
      ['dave', { ...label, annotator: 'dave' }],
    ] as const) {
      const r = await call(TOKENS[who], 'label.set', args);
      expect(r.status, `${who}: ${r.body.message}`).toBe(422);
      expect(r.body.message).toBe('workspace w.qpairs is read-only (opened read-only as asked): it cannot be changed');
      expect(r.body.message).not.toContain(dir);
    }
  });

  it('a failed job’s error reaches a token holder’s events without the path, the local owner’s with it', () => {
    const done = { jobId: '1', kind: 'import' as const, ok: false, error: `workspace ${file} is read-only (opened read-only as asked): it cannot be changed` };
    expect(engine.eventFor({ annotator: 'dave' }, 'job.done', done).error).toBe('workspace w.qpairs is read-only (opened read-only as asked): it cannot be changed');
    expect(engine.eventFor({ annotator: null, local: true }, 'job.done', done).error).toBe(done.error);
    const other = { ...done, error: "EACCES: permission denied, open '/srv/uploads/u1/a.jsonl'" };
    expect(engine.eventFor({ annotator: 'dave' }, 'job.done', other).error).toBe("EACCES: permission denied, open 'a.jsonl'");
  });

  it('the owner on the server’s machine still gets the full path', async () => {
    await expect(engine.invoke('label.set', { ...label, annotator: 'dave' })).rejects.toThrow(`workspace ${file} is read-only (opened read-only as asked): it cannot be changed`);
  });
});

describe('withoutServerPaths', () => {
  const w = '/srv/team data/w.qpairs';
  it('takes the workspace’s folder out of the reasons a workspace opens read-only (db.ts whyReadonly)', () => {
    expect(withoutServerPaths(`workspace ${w} is read-only (its folder /srv/team data is not writable, so SQLite cannot make w.qpairs-wal and -shm there): it cannot be changed`, w)).toBe(
      'workspace w.qpairs is read-only (its folder is not writable, so SQLite cannot make w.qpairs-wal and -shm there): it cannot be changed',
    );
    expect(withoutServerPaths(`workspace ${w} is read-only (w.qpairs-wal beside it is not writable (…): make it writable too, e.g. chmod u+w '${w}-wal'): it cannot be changed`, w)).toBe(
      "workspace w.qpairs is read-only (w.qpairs-wal beside it is not writable (…): make it writable too, e.g. chmod u+w 'w.qpairs-wal'): it cannot be changed",
    );
    expect(withoutServerPaths('a lock in /srv/team data held by another QPairs', w)).toBe("a lock in the workspace's folder held by another QPairs");
  });
  it('leaves other text alone, and a workspace at the root or in memory', () => {
    expect(withoutServerPaths('pool "open" has no query q9', w)).toBe('pool "open" has no query q9');
    expect(withoutServerPaths('/a/b is x', '/w.qpairs')).toBe('/a/b is x');
    expect(withoutServerPaths('x :memory:', ':memory:')).toBe('x :memory:');
  });
});

describe('an internal error names no server path to a token holder', () => {
  const failing = { hub: new EventHub(), canSee: () => true, invoke: async () => Promise.reject(new Error("ENOENT: no such file or directory, open '/srv/qpairs data/uploads/ab12/x.bin'")) };

  it('a token holder reads the file by its base name; the loopback owner and the log get the path', async () => {
    const logged: string[] = [];
    const withTokens = await startServer({ engine: failing, port: 0, tokens: TOKENS, staticDir: dir, log: (l) => logged.push(l) });
    const loopback = await startServer({ engine: failing, port: 0, staticDir: dir, log: () => {} });
    try {
      const post = async (url: string, token: string | null): Promise<{ status: number; message: string }> => {
        const r = await fetch(`${url}/api/invoke`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-QPairs': '1', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
          body: JSON.stringify({ command: 'workspace.stats', args: {} }),
        });
        return { status: r.status, message: ((await r.json()) as { message: string }).message };
      };
      expect(await post(withTokens.url, TOKENS.alice)).toEqual({ status: 500, message: "internal error: ENOENT: no such file or directory, open 'x.bin'" });
      expect(logged.join('\n')).toContain('/srv/qpairs data/uploads/ab12/x.bin');
      expect(await post(loopback.url, null)).toEqual({ status: 500, message: "internal error: ENOENT: no such file or directory, open '/srv/qpairs data/uploads/ab12/x.bin'" });
    } finally {
      await withTokens.close();
      await loopback.close();
    }
  });

  it('withoutAbsolutePaths: absolute paths by their base names; URLs, relative paths and other text alone', () => {
    expect(withoutAbsolutePaths("EACCES: permission denied, open '/tmp/qpairs-uploads/u1/a.jsonl'")).toBe("EACCES: permission denied, open 'a.jsonl'");
    expect(withoutAbsolutePaths('cannot read C:\\Users\\me\\w.qpairs now')).toBe('cannot read w.qpairs now');
    expect(withoutAbsolutePaths('see http://127.0.0.1:5180/api/invoke and data/x.csv, 3/4 done')).toBe('see http://127.0.0.1:5180/api/invoke and data/x.csv, 3/4 done');
  });
});
