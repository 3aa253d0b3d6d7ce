/**
 * A read-only served workspace refuses changes without telling a remote caller where it lies: a
 * token holder (annotator or owner) reads the workspace by its base name, never the server's path;
 * the desktop/loopback owner (the engine's local caller) and the CLI still get the full path.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../engine/engine';
import { teamEngine } from '../engine/test-team';
import { Workspace } from '../workspace/workspace';
import { startServer, type RunningServer } from './server';
import { withoutServerPaths } from '../engine/server-paths';

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
