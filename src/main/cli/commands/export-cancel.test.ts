import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli as run } from '../test-cli';
import { WRITE_CHUNK_BYTES } from '../../export/write';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-cli-export-cancel-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A workspace with pool p whose jsonl export (query and candidate texts on every row) is several write chunks long. */
async function bigPool(): Promise<string> {
  const w = path.join(dir, 'w.qpairs');
  expect((await run('init', w)).code).toBe(0);
  const body = 'shared words about disks and servers '.repeat(600); // ~22 KB a question
  const rows = Array.from({ length: 60 }, (_, i) => JSON.stringify({ id: `q${i}`, title: `question ${i} disks`, body: `${body} ${i}` }));
  const file = path.join(dir, 'q.jsonl');
  writeFileSync(file, rows.join('\n') + '\n');
  expect((await run('import', w, '--format', 'questions-jsonl', file)).code).toBe(0);
  const queries = path.join(dir, 'queries.txt');
  writeFileSync(queries, 'q0 q1 q2 q3 q4\n');
  const r = await run('pool', 'create', w, '--name', 'p', '--queries', queries, '--depth', '20');
  expect(r.code, r.err).toBe(0);
  return w;
}

describe('qpairs export, cancelled', () => {
  it('Ctrl-C while the files are written removes the temporary file, writes no OUT and exits 130 (it left .OUT.PID.HEX.tmp behind)', async () => {
    const w = await bigPool();
    const out = path.join(dir, 'out', 'p.jsonl');
    mkdirSync(path.dirname(out));
    // The handler the export installs is what a real SIGINT runs: call it alone (the test runner's own
    // SIGINT handlers are left out), once the export has written its first chunk.
    const before = new Set(process.listeners('SIGINT'));
    const running = run('export', w, '--pool', 'p', '--format', 'jsonl', out);
    // The rendering is awaited (compute.ts): turn the event loop until the first chunk is written, one chunk a turn.
    for (let i = 0; i < 10_000 && !readdirSync(path.dirname(out)).some((f) => f.endsWith('.tmp')); i++) await new Promise((r) => setImmediate(r));
    expect(readdirSync(path.dirname(out)).some((f) => f.endsWith('.tmp')), 'the export is writing').toBe(true);
    const added = process.listeners('SIGINT').filter((l) => !before.has(l));
    expect(added.length, 'export listens for Ctrl-C while it writes').toBeGreaterThan(0);
    for (const l of added) (l as (s: NodeJS.Signals) => void)('SIGINT');
    const r = await running;
    expect(r.code, r.err).toBe(130);
    expect(r.err).toMatch(/qpairs export: cancelled; nothing was written/);
    expect(r.out).toBe('');
    expect(readdirSync(path.dirname(out))).toEqual([]);
    // Node's default comes back once the command has ended.
    expect(process.listeners('SIGINT').filter((l) => !before.has(l))).toEqual([]);
  });

  it('an export not interrupted writes its files whole, and listens for Ctrl-C no longer', async () => {
    const w = await bigPool();
    const out = path.join(dir, 'p.jsonl');
    const before = process.listeners('SIGINT').length;
    const r = await run('export', w, '--pool', 'p', '--format', 'jsonl', out);
    expect(r.code, r.err).toBe(0);
    const { statSync, readFileSync } = await import('node:fs');
    expect(statSync(out).size, 'more than one chunk, so the first test is mid-write').toBeGreaterThan(2 * WRITE_CHUNK_BYTES);
    expect(readFileSync(out, 'utf8').trim().split('\n')).toHaveLength(100);
    expect(existsSync(`${out}.datasheet.md`)).toBe(true);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(process.listeners('SIGINT').length).toBe(before);
  });
});
