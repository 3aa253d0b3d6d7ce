/**
 * `qpairs export` says its progress on stderr, a line per stage where stderr is no terminal (a log,
 * a pipe; a bar on a terminal), and a Ctrl-C during the datasheet's agreement bootstrap stops it with
 * nothing written (exit 130). It printed nothing for the whole ~23 s of a 40,000-pair export, and a
 * Ctrl-C before the writing ended the process on the spot.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { assignPool } from '../../gold';
import { Workspace } from '../../workspace/workspace';
import { main } from '../index';
import { runCli as run } from '../test-cli';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-cli-export-progress-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A pool of `queries` queries × 10 candidates, every pair labeled by x, y and z. */
function labeledPool(queries: number): string {
  const w = path.join(dir, 'w.qpairs');
  const ws = Workspace.create(w);
  let s = 3;
  const rnd = (): number => ((s = (s * 1103515245 + 12345) % 2 ** 31), s / 2 ** 31);
  ws.transaction(() => {
    for (let i = 0; i < queries * 11; i++) ws.upsertQuestion({ id: `q${i}`, source: 't', title: `t${i}`, body: `b${i}` });
    ws.createPool({ name: 'p', scheme: 'binary' });
    for (let q = 0; q < queries; q++) ws.addPoolQuery('p', `q${q * 11}`, Array.from({ length: 10 }, (_, c) => `q${q * 11 + c + 1}`));
    assignPool(ws, 'p', ['x', 'y', 'z'], null);
    for (let q = 0; q < queries; q++) {
      for (let c = 1; c <= 10; c++) {
        for (const a of ['x', 'y', 'z']) ws.addLabel({ pool: 'p', queryId: `q${q * 11}`, candidateId: `q${q * 11 + c}`, annotator: a, value: rnd() < 0.4 ? '1' : '0', origin: 't' });
      }
    }
  });
  ws.close();
  return w;
}

describe('qpairs export, progress', () => {
  it('prints a line per stage on stderr, the bootstrap with its resamples, and the result on stdout', async () => {
    const w = labeledPool(20);
    const out = path.join(dir, 'p.qrels');
    const r = await run('export', w, '--pool', 'p', '--format', 'qrels', out);
    expect(r.code, r.err).toBe(0);
    expect(r.err.trim().split('\n')).toEqual([
      "export: reading the pool's labels…",
      'export: rendering the files…',
      // 3 annotator pairs' kappa CIs and the 6 pool-level statistics, 1000 resamples each.
      "export: the datasheet's agreement bootstrap (9,000 resamples)…",
      'export: writing the files…',
    ]);
    expect(r.out).toMatch(/^exported pool p \(qrels/);
  });

  it('says nothing on stderr with --json (the result is the one JSON on stdout)', async () => {
    const w = labeledPool(5);
    const r = await run('export', w, '--pool', 'p', '--format', 'qrels', path.join(dir, 'p.qrels'), '--json');
    expect(r.code, r.err).toBe(0);
    expect(r.err).toBe('');
    expect(JSON.parse(r.out)).toMatchObject({ pool: 'p', format: 'qrels' });
  });

  it('Ctrl-C during the agreement bootstrap: exit 130, "cancelled; nothing was written", no file', async () => {
    const w = labeledPool(300);
    const outDir = path.join(dir, 'out');
    mkdirSync(outDir);
    const before = new Set(process.listeners('SIGINT'));
    let err = '';
    let stdout = '';
    const code = await main(['export', w, '--pool', 'p', '--format', 'csv', path.join(outDir, 'p.csv')], {
      log: (s) => (stdout += s + '\n'),
      err: (s) => {
        err += s + '\n';
        // What a real SIGINT runs: the handlers the command installed (the test runner's own are left out).
        if (s.includes('agreement bootstrap')) for (const l of process.listeners('SIGINT').filter((x) => !before.has(x))) (l as (s: NodeJS.Signals) => void)('SIGINT');
      },
    });
    expect(err).toContain("export: the datasheet's agreement bootstrap");
    expect(code, err).toBe(130);
    expect(err).toContain('qpairs export: cancelled; nothing was written');
    expect(err).not.toContain('writing the files');
    expect(stdout).toBe('');
    expect(readdirSync(outDir)).toEqual([]);
    expect(process.listeners('SIGINT').filter((l) => !before.has(l))).toEqual([]);
  });
});
