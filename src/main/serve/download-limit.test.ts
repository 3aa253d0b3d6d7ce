/**
 * Fair use of export downloads (GET /api/download/ID): a caller's downloads send a few at a time
 * (perCallerDownloads), others wait their turn (perCallerDownloadQueue), beyond that a held 429 — and
 * they are counted apart from her /api/invoke requests, so a long download never refuses her labels.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../engine/engine';
import { teamEngine } from '../engine/test-team';
import { Workspace } from '../workspace/workspace';
import type { AnnotatorInvitation } from '../../shared/contract';
import { startServer, type RunningServer } from './server';
import { openUploadStore } from './uploads';
import { until } from './test-serve';

let dir: string;
let engine: Engine;
let server: RunningServer;
let carol: string;
let dave: string;

beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-download-limit-'));
  teamEngine(dir).close();
  engine = new Engine(Workspace.open(path.join(dir, 'w.qpairs')), { transport: 'http', downloadBase: path.join(dir, 'downloads') });
  carol = ((await engine.invoke('annotator.invite', { name: 'carol', role: 'judge' })) as AnnotatorInvitation).token;
  dave = ((await engine.invoke('annotator.invite', { name: 'dave', role: 'judge' })) as AnnotatorInvitation).token;
  server = await startServer({
    engine,
    port: 0,
    requireTokens: true,
    staticDir: dir,
    uploads: openUploadStore({}),
    perCallerRequests: 1,
    perCallerDownloads: 1,
    perCallerDownloadQueue: 0,
    busyDelayMs: 10,
  });
});
afterEach(async () => {
  await server?.close();
  await engine.jobs.idle();
  engine.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Downloads of carol's (or `owner`'s), each a file bigger than a socket's buffers hold: one read does not finish it. */
function bigDownloads(n: number, owner = 'token:carol'): string[] {
  const folder = engine.downloads.folder();
  const bytes = 64 * 1024 * 1024;
  return engine.downloads.add(
    folder,
    Array.from({ length: n }, (_, i) => {
      const file = path.join(folder, `big${i}-${owner.slice(6)}.jsonl`);
      writeFileSync(file, Buffer.alloc(bytes, 0x61));
      return { owner, name: `big${i}.jsonl`, files: [{ path: file, name: `big${i}.jsonl`, bytes }], zip: false };
    }),
  );
}

function get(token: string, id: string, signal?: AbortSignal): Promise<Response> {
  return fetch(`${server.url}/api/download/${id}`, { headers: { Authorization: `Bearer ${token}` }, signal });
}

describe('export downloads, per caller', () => {
  it('beyond her downloads sending and waiting: a held 429 that takes no id; her labels are not refused meanwhile; a download cut off frees its turn', async () => {
    const [a, b] = bigDownloads(2);
    const [other] = bigDownloads(1, 'token:dave');
    const stop = new AbortController();
    const first = await get(carol, a!, stop.signal);
    expect(first.status).toBe(200);
    await first.body!.getReader().read();
    // Her second download while the first one sends: refused (Retry-After), its id left as it was.
    const second = await get(carol, b!);
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).toBe('1');
    expect((await second.json()).message).toContain('too many requests at once');
    expect(engine.downloads.peek(b!)).toBeDefined();
    // Another caller's download is his own turn.
    const his = await get(dave, other!);
    expect(his.status).toBe(200);
    await his.body!.cancel();
    // Her commands are counted apart (perCallerRequests 1: the download is not one of them).
    const stats = await fetch(`${server.url}/api/invoke`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-QPairs': '1', Authorization: `Bearer ${carol}` },
      body: JSON.stringify({ command: 'workspace.stats', args: {} }),
    });
    expect(stats.status).toBe(200);
    // The first one cut off (its id given back): her turn is free again.
    stop.abort();
    await until('the first id is given back', () => engine.downloads.peek(a!) !== undefined);
    const again = await get(carol, b!);
    expect(again.status).toBe(200);
    expect((await again.arrayBuffer()).byteLength).toBe(64 * 1024 * 1024);
  });

  it('one beyond those sending waits its turn and is sent once a turn is free', async () => {
    await server.close();
    server = await startServer({ engine, port: 0, requireTokens: true, staticDir: dir, uploads: openUploadStore({}), perCallerDownloads: 1, perCallerDownloadQueue: 1, busyDelayMs: 10 });
    const [a, b, c] = bigDownloads(3);
    const stop = new AbortController();
    const first = await get(carol, a!, stop.signal);
    expect(first.status).toBe(200);
    await first.body!.getReader().read();
    // Two more: one waits (it cannot be answered while the first sends), the other is refused.
    const later = [get(carol, b!), get(carol, c!)];
    const refused = await Promise.race(later);
    expect(refused.status).toBe(429);
    stop.abort();
    const [one, two] = await Promise.all(later);
    const waited = one === refused ? two! : one!;
    expect(waited.status).toBe(200);
    expect((await waited.arrayBuffer()).byteLength).toBe(64 * 1024 * 1024);
  });
});
