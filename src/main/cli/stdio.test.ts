/**
 * A reader that goes away (`qpairs eval W --pool P | head -1`) ends the output quietly: the command
 * finishes with its own exit code and no EPIPE stack trace. The pipe's reading end is closed before
 * the child writes anything, so every write it makes meets EPIPE.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dataset } from '../../../tests/datasets';
import { runCli } from './test-cli';

const root = path.resolve(import.meta.dirname, '../../..');
const qpairs = path.join(root, 'bin/qpairs.mjs');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-stdio-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `qpairs ARGS` with its standard output closed by the reader at once. */
async function withClosedStdout(...args: string[]): Promise<{ code: number | null; signal: string | null; err: string }> {
  const child = spawn(process.execPath, [qpairs, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.destroy();
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
  return { code, signal, err };
}

describe('a closed standard output', () => {
  it('ends eval and stats quietly, exit 0', async () => {
    const w = path.join(dir, 'w.qpairs');
    expect((await runCli('init', w)).code).toBe(0);
    const imp = await runCli('import', w, '--format', 'askubuntu-pool', dataset('askubuntu/dev.txt'));
    expect(imp.code, imp.err).toBe(0);
    expect(await withClosedStdout('eval', w, '--pool', 'dev')).toEqual({ code: 0, signal: null, err: '' });
    expect(await withClosedStdout('eval', w, '--pool', 'dev', '--json')).toEqual({ code: 0, signal: null, err: '' });
    expect(await withClosedStdout('stats', w)).toEqual({ code: 0, signal: null, err: '' });
  });
});

describe('a slow reader of standard output', () => {
  it('gets the whole of `corpus export W -`: a full pipe is waited on, not an EAGAIN error that cut the output short', async () => {
    const w = path.join(dir, 'w.qpairs');
    expect((await runCli('init', w)).code).toBe(0);
    const imp = await runCli('import', w, '--format', 'stackexchange', dataset('stackexchange-cstheory-meta'));
    expect(imp.code, imp.err).toBe(0);
    const file = path.join(dir, 'c.tsv');
    expect((await runCli('corpus', 'export', w, '--format', 'tsv', file)).code).toBe(0);
    const whole = readFileSync(file, 'utf8');
    // About 840 KB: several times what a pipe or socket holds while nobody reads it.
    expect(whole.length).toBeGreaterThan(500_000);
    const child = spawn(process.execPath, [qpairs, 'corpus', 'export', w, '--format', 'tsv', '-'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let err = '';
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout!.pause();
    // The reader waits a second before reading: the writer fills the pipe meanwhile.
    await new Promise((r) => setTimeout(r, 1000));
    child.stdout!.on('data', (d: Buffer) => chunks.push(d));
    child.stdout!.resume();
    // Never left behind: a writer that stalls is stopped, and the test fails on its exit.
    const stop = setTimeout(() => child.kill(), 20_000);
    const [code] = (await once(child, 'close')) as [number | null];
    clearTimeout(stop);
    expect({ code, err }).toEqual({ code: 0, err: '' });
    expect(Buffer.concat(chunks).toString('utf8')).toBe(whole);
  });
});
