/**
 * A full disk never leaves a short file presented as whole. On Linux a write(2) that runs out of
 * space writes what fits and returns that count, without an error (only the next write fails
 * with ENOSPC): `qpairs export W --pool P --format jsonl OUT` onto a nearly full disk wrote
 * OUT.datasheet.md cut at 4096 bytes and said "exported". Here node:fs's writeSync behaves as on
 * such a disk (a byte budget; a write past it is cut short, the next one fails with ENOSPC).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import * as fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** Bytes the "disk" still takes, and the most one write(2) takes (Infinity: no limit). */
const disk = { free: Infinity, perWrite: Infinity };

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  const writeSync = (fd: number, data: string | NodeJS.ArrayBufferView, ...rest: unknown[]): number => {
    if (disk.free === Infinity && disk.perWrite === Infinity) return (real.writeSync as (...a: unknown[]) => number)(fd, data, ...rest);
    const bytes =
      typeof data === 'string'
        ? Buffer.from(data, 'utf8')
        : Buffer.from(data.buffer, data.byteOffset + ((rest[0] as number | undefined) ?? 0), (rest[1] as number | undefined) ?? data.byteLength - ((rest[0] as number | undefined) ?? 0));
    if (bytes.length > 0 && disk.free <= 0) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    const n = Math.min(bytes.length, disk.free, disk.perWrite);
    disk.free -= n;
    return real.writeSync(fd, bytes, 0, n);
  };
  return { ...real, writeSync, default: { ...real, writeSync } };
});

const { writeFilesAtomic } = await import('./write');
const { main } = await import('../cli/index');
const { Workspace } = await import('../workspace/workspace');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-disk-full-'));
  disk.free = disk.perWrite = Infinity;
});
afterEach(() => {
  disk.free = disk.perWrite = Infinity;
  rmSync(dir, { recursive: true, force: true });
});

describe('a full disk during an export', () => {
  it('fails the export and leaves neither a short file nor a temporary one', () => {
    const data = path.join(dir, 'p.jsonl');
    const sheet = path.join(dir, 'p.jsonl.datasheet.md');
    // The data file fits; the datasheet gets 100 of its 5000 bytes.
    disk.free = 3000 + 100;
    expect(() =>
      writeFilesAtomic([
        { path: data, content: 'd'.repeat(3000) },
        { path: sheet, content: 's'.repeat(5000) },
      ]),
    ).toThrow(/ENOSPC/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('writes whole files when one write takes only part of the data but the disk has room', () => {
    const f = path.join(dir, 'p.jsonl');
    const text = 'é'.repeat(5000) + '\n';
    disk.perWrite = 1000;
    writeFilesAtomic([{ path: f, content: text }]);
    expect(readFileSync(f, 'utf8')).toBe(text);
  });

  it('qpairs export --format hf-dataset: a full disk fails and leaves no folder it made (it left OUT/data/ behind, empty)', async () => {
    const w = path.join(dir, 'W.qpairs');
    const ws = Workspace.create(w);
    for (const id of ['q', 'c1', 'c2']) ws.upsertQuestion({ id, source: 's', title: `title ${id}`, body: 'body '.repeat(40) });
    ws.createPool({ name: 'p', scheme: 'binary' });
    ws.addPoolQuery('p', 'q', ['c1', 'c2']);
    ws.addLabel({ pool: 'p', queryId: 'q', candidateId: 'c1', annotator: 'gold', value: '1', origin: 'test' });
    ws.close();
    const quiet = { log: () => {}, err: () => {} };
    const out = path.join(dir, 'sets', 'hf');
    let err = '';
    disk.free = 500;
    const code = await main(['export', w, '--pool', 'p', '--format', 'hf-dataset', out], { log: () => {}, err: (s) => (err += s) });
    disk.free = Infinity;
    expect(code).toBe(1);
    expect(err).toMatch(/ENOSPC/);
    // Said as a write that failed, naming the file — the streamed data file (line-sink.ts) failed as an internal error, with a stack trace.
    expect(err.endsWith(`qpairs export: cannot write ${path.join(out, 'data', 'pairs.jsonl')}: no space left on the disk (ENOSPC); nothing was written`), err).toBe(true);
    expect(existsSync(path.join(dir, 'sets'))).toBe(false);
    // A folder that was there before stays, as it was.
    fs.mkdirSync(out, { recursive: true });
    disk.free = 500;
    expect(await main(['export', w, '--pool', 'p', '--format', 'hf-dataset', out], quiet)).toBe(1);
    disk.free = Infinity;
    expect(readdirSync(out)).toEqual([]);
    // With room, the same export is written.
    expect(await main(['export', w, '--pool', 'p', '--format', 'hf-dataset', out], quiet)).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['README.md', 'data']);
  });

  it('qpairs corpus export: a full disk fails and leaves no OUT', async () => {
    const w = path.join(dir, 'W.qpairs');
    const ws = Workspace.create(w);
    ws.close();
    const q = path.join(dir, 'q.jsonl');
    fs.writeFileSync(q, Array.from({ length: 50 }, (_, i) => JSON.stringify({ id: `q${i}`, title: `title ${i}`, body: 'body '.repeat(40) })).join('\n') + '\n');
    const quiet = { log: () => {}, err: () => {} };
    expect(await main(['import', w, '--format', 'questions-jsonl', q], quiet)).toBe(0);
    const out = path.join(dir, 'corpus.tsv');
    disk.free = 500;
    let err = '';
    const code = await main(['corpus', 'export', w, '--format', 'tsv', out], { log: () => {}, err: (s) => (err += s) });
    disk.free = Infinity;
    expect(code).toBe(1);
    expect(err).toMatch(/ENOSPC/);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.includes('corpus'))).toEqual([]);
  });
});
