import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotFoundError } from '../errors';
import { openUploadStore, sweepStaleUploads, UploadQuotaError, UploadTooLargeError } from './uploads';

let base: string;
beforeEach(() => {
  base = mkdtempSync(path.join(os.tmpdir(), 'qpairs-uploads-test-'));
});
afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

const body = (bytes: number, chunk = 100): Readable =>
  Readable.from(Array.from({ length: Math.ceil(bytes / chunk) }, (_, i) => Buffer.alloc(Math.min(chunk, bytes - i * chunk), 97)));
const DEAD_PID = 999_999_999; // above any pid_max

describe('upload stores', () => {
  it('each server instance has its own directory under the base', async () => {
    const a = openUploadStore({ baseDir: base });
    const b = openUploadStore({ baseDir: base });
    expect(a.dir).not.toBe(b.dir);
    expect(path.dirname(a.dir)).toBe(base);
    expect(path.basename(a.dir)).toMatch(new RegExp(`^${process.pid}-[a-f0-9]{16}$`));
    const up = await a.receive(body(10), '../x.csv', 1000);
    expect(a.path(up.uploadId).startsWith(a.dir + path.sep)).toBe(true);
    expect(path.basename(a.path(up.uploadId))).toBe('x.csv');
    expect(() => b.path(up.uploadId)).toThrow(NotFoundError);
    a.clear();
    expect(existsSync(a.dir)).toBe(false);
    expect(existsSync(b.dir)).toBe(true);
    await expect(a.receive(body(10), 'late.csv', 1000)).rejects.toThrow(/stopping/);
    b.clear();
  });

  it('refuses uploads over the total quota, arriving ones included, and frees it on remove', async () => {
    const s = openUploadStore({ baseDir: base, quotaBytes: 1000 });
    const first = await s.receive(body(600), 'a.xml', 10_000);
    expect(s.heldBytes).toBe(600);
    const refused = await s.receive(body(600), 'b.xml', 10_000).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(UploadQuotaError);
    expect((refused as Error).message).toMatch(/^b\.xml: refused, the uploads kept by this server would exceed their total quota of 1000 bytes \(600 bytes held by other uploads\)/);
    expect(s.heldBytes).toBe(600);
    expect(readdirSync(s.dir)).toEqual([first.uploadId]); // the partial upload is gone
    expect(() => s.checkRoom(401, 'c.xml')).toThrow(UploadQuotaError);
    expect(() => s.checkRoom(400, 'c.xml')).not.toThrow();

    // Two at once: the bytes still arriving count.
    s.remove(first.uploadId);
    expect(s.heldBytes).toBe(0);
    const slow = new Readable({ read() {} });
    const p1 = s.receive(slow, 'slow.xml', 10_000);
    slow.push(Buffer.alloc(700, 97));
    await new Promise((r) => setImmediate(r));
    await expect(s.receive(body(400), 'fast.xml', 10_000)).rejects.toBeInstanceOf(UploadQuotaError);
    slow.push(null);
    expect((await p1).size).toBe(700);
    // the per-upload cap still applies, with its own error
    await expect(s.receive(body(301), 'c.xml', 200)).rejects.toBeInstanceOf(UploadTooLargeError);
    s.clear();
  });

  it('removes directories of servers that are gone when a store opens', () => {
    const dead = path.join(base, `${DEAD_PID}-deadbeefdeadbeef`);
    const alive = path.join(base, `${process.ppid}-aaaaaaaaaaaaaaaa`);
    const mine = path.join(base, `${process.pid}-bbbbbbbbbbbbbbbb`);
    const other = path.join(base, 'not-ours');
    for (const d of [dead, alive, mine, other]) {
      mkdirSync(path.join(d, 'u1'), { recursive: true });
      writeFileSync(path.join(d, 'u1', 'f.xml'), 'x');
    }
    const s = openUploadStore({ baseDir: base });
    expect(existsSync(dead)).toBe(false);
    for (const d of [alive, mine, other, s.dir]) expect(existsSync(d)).toBe(true);
    s.clear();
  });

  it('sweeps upload directories of older versions after a day', () => {
    const legacy = path.join(base, 'tmp');
    const old = path.join(legacy, 'qpairs-uploads-AbC123');
    const fresh = path.join(legacy, 'qpairs-uploads-XyZ789');
    mkdirSync(old, { recursive: true });
    mkdirSync(fresh, { recursive: true });
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000);
    utimesSync(old, twoDaysAgo, twoDaysAgo);
    expect(sweepStaleUploads(path.join(base, 'none'), legacy)).toEqual([old]);
    expect(existsSync(fresh)).toBe(true);
  });
});
