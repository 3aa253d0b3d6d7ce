/**
 * The download store (downloads.ts): an id is taken once and its file removed when sent, given back
 * when its transfer was cut off; an id not fetched expires (its file removed); clear() removes the store's folder; a crashed server's folder
 * (its process gone) is removed by the next store, a live one's kept.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DOWNLOAD_TTL_MS, DownloadStore, sweepStaleDownloads } from './downloads';

let base: string;
beforeEach(() => {
  base = mkdtempSync(path.join(os.tmpdir(), 'qpairs-dlstore-'));
});
afterEach(() => {
  vi.useRealTimers();
  rmSync(base, { recursive: true, force: true });
});

/** A store's export folder holding files `names`, given one download each. */
function exportOf(store: DownloadStore, names: string[]): { folder: string; ids: string[] } {
  const folder = store.folder();
  const files = names.map((n) => {
    writeFileSync(path.join(folder, n), n);
    return { path: path.join(folder, n), name: n, bytes: n.length };
  });
  return { folder, ids: store.add(folder, files.map((f) => ({ owner: 'token:carol', name: f.name, files: [f], zip: false }))) };
}

describe('DownloadStore', () => {
  it('takes an id once; its file goes when sent, the export folder with its last one', () => {
    const store = new DownloadStore(base);
    const { folder, ids } = exportOf(store, ['a.qrels', 'a.qrels.datasheet.md']);
    expect(new Set(ids).size).toBe(2);
    expect(store.peek(ids[0]!)?.owner).toBe('token:carol');
    const first = store.take(ids[0]!)!;
    expect(store.take(ids[0]!)).toBeUndefined();
    expect(store.peek(ids[0]!)).toBeUndefined();
    first.sent();
    expect(readdirSync(folder)).toEqual(['a.qrels.datasheet.md']);
    store.take(ids[1]!)!.sent();
    expect(existsSync(folder)).toBe(false);
    store.clear();
  });

  it('expires an id not fetched within its time, removing its file', () => {
    vi.useFakeTimers();
    const store = new DownloadStore(base);
    const { folder, ids } = exportOf(store, ['b.csv']);
    vi.advanceTimersByTime(DOWNLOAD_TTL_MS - 1);
    expect(store.peek(ids[0]!)).toBeDefined();
    vi.advanceTimersByTime(1);
    expect(store.peek(ids[0]!)).toBeUndefined();
    expect(store.take(ids[0]!)).toBeUndefined();
    expect(existsSync(folder)).toBe(false);
    store.clear();
  });

  it('gives an id back when its transfer was cut off, until it expires or the store is cleared', () => {
    vi.useFakeTimers();
    const store = new DownloadStore(base);
    const { folder, ids } = exportOf(store, ['d.jsonl', 'd.jsonl.datasheet.md']);
    const cut = store.take(ids[0]!)!;
    cut.unsent();
    cut.sent(); // the first of the two counts
    expect(readdirSync(folder).sort()).toEqual(['d.jsonl', 'd.jsonl.datasheet.md']);
    // Given back with the time it had left, not a new one.
    vi.advanceTimersByTime(DOWNLOAD_TTL_MS - 1);
    const again = store.take(ids[0]!)!;
    vi.advanceTimersByTime(1);
    again.unsent();
    expect(store.peek(ids[0]!), 'expired while it was being sent').toBeUndefined();
    expect(store.take(ids[1]!), 'expired').toBeUndefined();
    expect(existsSync(folder), 'both files gone, and their folder').toBe(false);
    const other = exportOf(store, ['e.csv']);
    const taken = store.take(other.ids[0]!)!;
    store.clear();
    taken.unsent();
    expect(store.peek(other.ids[0]!)).toBeUndefined();
    expect(existsSync(other.folder)).toBe(false);
  });

  it('tells what became of each id: ready, sending with its bytes, sent, given back with why, expired; forgotten a while after it ended', () => {
    vi.useFakeTimers();
    const store = new DownloadStore(base);
    const exported = Date.now();
    const { ids } = exportOf(store, ['f.jsonl', 'f.jsonl.datasheet.md', 'g.csv']);
    const [one, two, three] = ids as [string, string, string];
    const expiresAt = exported + DOWNLOAD_TTL_MS;
    expect(store.status(one)).toEqual({ id: one, owner: 'token:carol', state: 'ready', sentBytes: 0, failures: 0, expiresAt });
    const first = store.take(one)!;
    expect(store.status(one)?.state).toBe('sending');
    first.progress(5);
    expect(store.status(one)).toMatchObject({ state: 'sending', sentBytes: 5 });
    first.sent();
    first.progress(7); // after the end: no change
    expect(store.status(one)).toMatchObject({ state: 'sent', sentBytes: 5, failures: 0 });
    const cut = store.take(two)!;
    cut.progress(3);
    cut.unsent('the connection closed before the end');
    expect(store.status(two)).toMatchObject({ state: 'ready', failures: 1, failure: 'the connection closed before the end' });
    store.take(two)!.unsent();
    expect(store.status(two)).toMatchObject({ state: 'ready', failures: 2, failure: 'the transfer was cut off', expiresAt });
    vi.advanceTimersByTime(DOWNLOAD_TTL_MS - 1);
    expect(store.status(one)?.state, 'sent: remembered for the time an id lasts').toBe('sent');
    expect(store.status(two)?.state).toBe('ready');
    vi.advanceTimersByTime(1);
    expect(store.status(one)).toBeUndefined();
    expect(store.status(two)).toMatchObject({ state: 'expired', failures: 2 });
    expect(store.status(three)?.state).toBe('expired');
    vi.advanceTimersByTime(DOWNLOAD_TTL_MS);
    expect(store.status(two)).toBeUndefined();
    expect(store.status('x'.repeat(32))).toBeUndefined();
    const gone = exportOf(store, ['k.csv']);
    store.take(gone.ids[0]!)!.unsent('the server could not read the file (ENOENT)', true);
    expect(store.status(gone.ids[0]!), 'lost: not given back').toMatchObject({ state: 'expired', failures: 1, failure: 'the server could not read the file (ENOENT)' });
    expect(store.peek(gone.ids[0]!)).toBeUndefined();
    expect(existsSync(gone.folder)).toBe(false);
    const late = exportOf(store, ['h.csv']);
    store.clear();
    expect(store.status(late.ids[0]!), 'the server stopped: forgotten').toBeUndefined();
  });

  it('clear() removes every download and the store folder', () => {
    const store = new DownloadStore(base);
    const { ids } = exportOf(store, ['c.jsonl']);
    store.clear();
    expect(store.peek(ids[0]!)).toBeUndefined();
    expect(readdirSync(base)).toEqual([]);
  });

  it("removes a crashed server's folder when the next store opens, and keeps a running one's", () => {
    const dead = path.join(base, '999999999-0123456789abcdef');
    const live = path.join(base, `${process.pid}-fedcba9876543210`);
    for (const d of [dead, live]) {
      mkdirSync(path.join(d, 'x'), { recursive: true });
      writeFileSync(path.join(d, 'x', 'p.jsonl'), '{}\n');
    }
    const store = new DownloadStore(base);
    store.folder();
    expect(existsSync(dead)).toBe(false);
    expect(existsSync(live)).toBe(true);
    store.clear();
    expect(sweepStaleDownloads(base)).toEqual([]);
    expect(readdirSync(base)).toEqual([path.basename(live)]);
  });
});
