/**
 * An acknowledged label survives a crash: serve mode is killed with SIGKILL in the middle of a
 * burst of labeling; every label the server acknowledged must be in the workspace afterwards, and
 * reopening resumes at the first unfinished query.
 */
import { describe, it, expect } from 'vitest';
import { spawn, execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Workspace } from '../../src/main/workspace/workspace';
import { Engine } from '../../src/main/engine/engine';
import { sharedData } from '../shared-data';
import type { QueryView } from '../../src/shared/contract';

const root = path.resolve(import.meta.dirname, '../..');
const qpairs = path.join(root, 'bin/qpairs.mjs');

describe('durability', () => {
  it('loses no acknowledged label when the server is killed with SIGKILL mid-burst', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-dur-'));
    const w = path.join(dir, 'd.qpairs');
    let child: ReturnType<typeof spawn> | null = null;
    try {
      execFileSync(process.execPath, [qpairs, 'init', w]);
      execFileSync(process.execPath, [qpairs, 'import', w, '--format', 'semeval', '--pool', 'dev', sharedData('semeval2016-task3/SemEval2016-Task3-CQA-QL-dev.xml')]);
      const ws0 = Workspace.open(w);
      const pairs = ws0.poolQueries('dev').flatMap((q) => q.candidates.map((c) => ({ q: q.queryId, c })));
      ws0.close();

      child = spawn(process.execPath, [qpairs, 'serve', w, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
      const server = child;
      const url = await new Promise<string>((resolve, reject) => {
        let buf = '';
        server.stdout!.on('data', (d: Buffer) => {
          buf += d.toString();
          const m = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(buf);
          if (m) resolve(m[1]!);
        });
        server.stderr!.on('data', (d: Buffer) => (buf += d.toString()));
        server.on('exit', (code) => reject(new Error(`serve exited early (${code}): ${buf}`)));
        setTimeout(() => reject(new Error(`serve did not start: ${buf}`)), 20_000);
      });

      const acked: Array<{ q: string; c: string; value: string; seq: number }> = [];
      let killed = false;
      const values = ['PerfectMatch', 'Relevant', 'Irrelevant'];
      let next = 0;
      // Four concurrent labelers; kill -9 once 150 labels are acknowledged, requests still in flight.
      const worker = async (): Promise<void> => {
        while (!killed && next < pairs.length) {
          const i = next++;
          const { q, c } = pairs[i]!;
          const value = values[i % 3]!;
          try {
            const res = await fetch(`${url}/api/invoke`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-qpairs': '1' },
              body: JSON.stringify({ command: 'label.set', args: { pool: 'dev', queryId: q, candidateId: c, annotator: 'ann', value } }),
            });
            if (!res.ok) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
            const ack = (await res.json()) as { seq: number; saved: boolean };
            if (ack.saved && ack.seq) acked.push({ q, c, value, seq: ack.seq });
            if (acked.length >= 150 && !killed) {
              killed = true;
              server.kill('SIGKILL');
            }
          } catch (e) {
            if (!killed) throw e;
          }
        }
      };
      await Promise.all([worker(), worker(), worker(), worker()]);
      if (server.exitCode === null && server.signalCode === null) await once(server, 'exit');
      expect(killed).toBe(true);
      expect(acked.length).toBeGreaterThanOrEqual(150);

      const ws = Workspace.open(w);
      const current = new Map(ws.currentLabels('dev', 'ann').map((l) => [`${l.queryId}|${l.candidateId}`, l.value]));
      const lost = acked.filter((a) => current.get(`${a.q}|${a.c}`) !== a.value);
      expect(lost).toEqual([]);
      // Reopening resumes at the first query this annotator has not finished.
      const engine = new Engine(ws, { transport: 'http' });
      const view = (await engine.invoke('annotate.query', { pool: 'dev', annotator: 'ann' })) as QueryView;
      const queries = ws.poolQueries('dev');
      const firstUnfinished = queries.findIndex((q) => q.candidates.some((c) => !current.has(`${q.queryId}|${c}`)));
      expect(view.index).toBe(firstUnfinished);
      engine.close();
    } finally {
      if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
