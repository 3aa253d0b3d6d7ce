/**
 * Re-importing a file the workspace already holds as it is (a run, a corpus) writes no rows: the app
 * is then told nothing changed — no `workspace.changed`, the live metrics kept — while the imports
 * audit still records it, marked unchanged. Before, every such import announced a change to every
 * client (each refetched its screens) and rebuilt the live evaluations.
 */
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Engine } from './engine';
import { engineOn, useFreshEngine } from './test-engine';
import { jobDone } from './test-team';

let dir: string;
let engine: Engine;

const file = (name: string, text: string): string => {
  const f = path.join(dir, name);
  writeFileSync(f, text);
  return f;
};

const QUESTIONS = ['q1', 'q2', 'c1', 'c2', 'c3'].map((id) => JSON.stringify({ id, title: `title ${id}`, body: `body ${id}` })).join('\n') + '\n';
const RUN = ['q1 Q0 c1 1 3 bm', 'q1 Q0 c2 2 2 bm', 'q2 Q0 c3 1 5 bm', 'q2 Q0 c1 2 1 bm'].join('\n') + '\n';

useFreshEngine('qpairs-import-unchanged-', (d) => engineOn(d), (e, d) => {
  engine = e;
  dir = d;
});

async function appImport(args: Record<string, unknown>): Promise<{ ok: boolean; report: Record<string, unknown> | null }> {
  const { jobId } = (await engine.invoke('import.start', args)) as { jobId: string };
  const done = await jobDone(engine, jobId);
  if (!done.ok) throw new Error(JSON.stringify(done));
  return { ok: done.ok, report: (done as { result?: Record<string, unknown> }).result ?? null };
}

describe('an unchanged re-import', () => {
  it('announces no change and keeps the live metrics; the audit records it as unchanged', async () => {
    const questions = file('corpus.jsonl', QUESTIONS);
    const run = file('bm.run', RUN);
    expect((await appImport({ format: 'questions-jsonl', sources: [{ path: questions }] })).ok).toBe(true);
    engine.ws.createPool({ name: 'p', scheme: 'binary', blind: false });
    engine.ws.addPoolQuery('p', 'q1', ['c1', 'c2']);
    engine.ws.addPoolQuery('p', 'q2', ['c3', 'c1']);
    expect((await appImport({ format: 'trec-run', sources: [{ path: run }], pool: 'p' })).ok).toBe(true);
    await engine.invoke('label.set', { pool: 'p', queryId: 'q1', candidateId: 'c1', annotator: 'ann', value: '1' });
    await engine.invoke('eval.pool', { pool: 'p', annotator: 'ann' });
    const stats = engine.liveEvaluations.stats;
    const rebuilds = stats.rebuilds;
    const changes: string[] = [];
    const off = engine.on('workspace.changed', (c) => changes.push(c.what));
    const imports = engine.ws.listImports().length;

    for (const args of [
      { format: 'trec-run', sources: [{ path: run }], pool: 'p' },
      { format: 'questions-jsonl', sources: [{ path: questions }] },
    ]) {
      const r = await appImport(args);
      expect(r.ok).toBe(true);
      await engine.invoke('eval.pool', { pool: 'p', annotator: 'ann' });
    }
    off();
    expect(changes).toEqual([]);
    expect(stats.rebuilds).toBe(rebuilds);
    const audit = engine.ws.listImports().slice(imports);
    expect(audit.map((i) => [i.format, (i.report as { unchanged?: boolean }).unchanged])).toEqual([
      ['trec-run', true],
      ['questions-jsonl', true],
    ]);

    // A run file that changes one score is a change: announced, and the metrics rebuilt.
    const changed = file('bm2.run', RUN.replace('q2 Q0 c1 2 1 bm', 'q2 Q0 c1 2 4 bm'));
    const after: string[] = [];
    const off2 = engine.on('workspace.changed', (c) => after.push(c.what));
    expect((await appImport({ format: 'trec-run', sources: [{ path: changed }], pool: 'p', update: true })).ok).toBe(true);
    off2();
    await engine.invoke('eval.pool', { pool: 'p', annotator: 'ann' });
    expect(after).toEqual(['import']);
    expect(stats.rebuilds).toBe(rebuilds + 1);
    expect((engine.ws.listImports().at(-1)!.report as { unchanged?: boolean }).unchanged).toBeUndefined();
  });
});
