/**
 * `import.undoable` and `import.undo` through the engine: the owner undoes the last finished import
 * as a job (kind `undo`) with progress, in chunks; a cancel stops it partway, the next undo finishing it;
 * afterwards the BM25 index answers without the import's questions, every client is told
 * (`workspace.changed`), the audit records the undo, and the same import cannot be undone twice.
 */
import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Engine } from './engine';
import { Workspace } from '../workspace/workspace';
import { ContractError, type BrowseSearch, type ImportUndoReport, type JobDone, type JobProgress } from '../../shared/contract';
import { jobDone } from './test-team';

let dir: string;
let engine: Engine;
let corpus: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-undo-'));
  const ws = Workspace.create(path.join(dir, 'w.qpairs'));
  ws.transaction(() => {
    for (let i = 0; i < 30; i++) ws.upsertQuestion({ id: `s${i}`, source: 'seed', title: `seed question ${i}`, body: 'about undo' });
  });
  engine = new Engine(ws, { transport: 'http' });
  corpus = path.join(dir, 'wrong.jsonl');
  writeFileSync(corpus, Array.from({ length: 20_000 }, (_, i) => JSON.stringify({ id: `n${i}`, title: `zebra question ${i}`, body: `zebra body ${i}` })).join('\n'));
});

afterEach(() => {
  engine.close();
  rmSync(dir, { recursive: true, force: true });
});

async function importWrong(): Promise<void> {
  const { jobId } = (await engine.invoke('import.start', { format: 'questions-jsonl', sources: [{ path: corpus }] })) as { jobId: string };
  expect((await jobDone(engine, jobId)).ok).toBe(true);
}

describe('undo the last import through the engine', () => {
  it('names the import, undoes it as a job, rebuilds the index, tells every client, and refuses a second undo', async () => {
    expect(await engine.invoke('import.undoable', {})).toBeNull();
    await importWrong();
    expect(await engine.invoke('import.undoable', {})).toMatchObject({ what: 'questions-jsonl import of wrong.jsonl' });
    expect(((await engine.invoke('questions.search', { text: 'zebra', limit: 5 })) as BrowseSearch).results).toHaveLength(5);
    const changed: string[] = [];
    const progress: JobProgress[] = [];
    engine.on('workspace.changed', (e) => changed.push(e.what));
    engine.on('job.progress', (p) => progress.push(p));

    const { jobId } = (await engine.invoke('import.undo', {})) as { jobId: string };
    const done = await jobDone(engine, jobId);
    expect(done.error).toBeUndefined();
    expect(done).toMatchObject({ kind: 'undo', ok: true });
    const report = done.report as ImportUndoReport;
    expect(report).toMatchObject({ what: 'questions-jsonl import of wrong.jsonl', kept: 0, skipped: 0, failed: 0 });
    expect(report.lines[0]).toMatch(/^undid the questions-jsonl import of wrong\.jsonl started /);
    expect(progress.some((p) => p.jobId === jobId && p.kind === 'undo')).toBe(true);
    expect(changed).toContain('import');
    expect(engine.ws.questionCount()).toBe(30);
    expect(((await engine.invoke('questions.search', { text: 'zebra', limit: 5 })) as BrowseSearch).results).toEqual([]);
    expect(engine.ws.listImports().map((i) => i.format)).toEqual(['undo']);
    expect(await engine.invoke('import.undoable', {})).toBeNull();
    const again = await engine.invoke('import.undo', {}).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(ContractError);
    expect((again as Error).message).toMatch(/^there is no import to undo/);
  });

  it('an undo naming an import that is no longer the last one is refused, and nothing is undone', async () => {
    await importWrong();
    const named = (await engine.invoke('import.undoable', {})) as { started: string };
    // Another import comes in meanwhile (another tab): its journal replaces the one named.
    const other = path.join(dir, 'other.jsonl');
    writeFileSync(other, JSON.stringify({ id: 'o1', title: 'other', body: 'other' }) + '\n');
    const { jobId } = (await engine.invoke('import.start', { format: 'questions-jsonl', sources: [{ path: other }] })) as { jobId: string };
    await jobDone(engine, jobId);
    const refused = await engine.invoke('import.undo', { started: named.started }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ContractError);
    expect((refused as Error).message).toMatch(/^the last import is now the questions-jsonl import of other\.jsonl started .*: nothing was undone$/);
    expect(engine.ws.questionCount()).toBe(20_031);
  });

  it('an undo asked for while an import runs is refused at once, naming the import: the import goes on, and is the one undone after', async () => {
    // No import before it: the answer was "there is no import to undo…" (the running one holds the journal).
    const first = path.join(dir, 'first.jsonl');
    writeFileSync(first, Array.from({ length: 20_000 }, (_, i) => JSON.stringify({ id: `f${i}`, title: `first ${i}`, body: `body ${i}` })).join('\n'));
    const importing = (await engine.invoke('import.start', { format: 'questions-jsonl', sources: [{ path: first }] })) as { jobId: string };
    const refusedFirst = await engine.invoke('import.undo', {}).catch((e: unknown) => e);
    expect(refusedFirst).toBeInstanceOf(ContractError);
    expect((refusedFirst as Error).message).toMatch(/^an import is running \(questions-jsonl import of first\.jsonl, started \d{4}-\S+Z\): wait for it to finish or cancel it, then undo$/);
    expect((await jobDone(engine, importing.jobId)).ok).toBe(true);

    // With an import before it: the undo waited, then refused to undo the newer import ("the last import is now …").
    const other = path.join(dir, 'running.jsonl');
    writeFileSync(other, Array.from({ length: 20_000 }, (_, i) => JSON.stringify({ id: `r${i}`, title: `running ${i}`, body: `body ${i}` })).join('\n'));
    const running = (await engine.invoke('import.start', { format: 'questions-jsonl', sources: [{ path: other }] })) as { jobId: string };
    const refused = await engine.invoke('import.undo', {}).catch((e: unknown) => e);
    expect((refused as Error).message).toMatch(/^an import is running \(questions-jsonl import of running\.jsonl, started .*\): wait for it to finish or cancel it, then undo$/);
    expect((await jobDone(engine, running.jobId)).ok).toBe(true);
    expect(engine.ws.questionCount()).toBe(40_030);

    // Once it is over, the undo undoes the import that ran.
    const { jobId } = (await engine.invoke('import.undo', {})) as { jobId: string };
    expect(await jobDone(engine, jobId)).toMatchObject({ ok: true, report: { what: 'questions-jsonl import of running.jsonl' } });
    expect(engine.ws.questionCount()).toBe(20_030);
  });

  it('undoing a gold labels import opens its pool to annotators again (it was closed while it held imported labels)', async () => {
    engine.ws.transaction(() => {
      engine.ws.ensureAnnotator('alice', 'annotator');
      engine.ws.createPool({ name: 'P', scheme: 'binary', blind: true });
      engine.ws.addPoolQuery('P', 's0', ['s1', 's2', 's3']);
    });
    const alice = { annotator: 'alice', local: false };
    const label = (c: string): Promise<unknown> => engine.invoke('label.set', { pool: 'P', queryId: 's0', candidateId: c, annotator: 'alice', value: '1' }, alice);
    await label('s1');
    const gold = path.join(dir, 'gold.jsonl');
    writeFileSync(gold, JSON.stringify({ query_id: 's0', candidate_id: 's2', annotator: 'gold', label: '1' }) + '\n');
    const { jobId: imported } = (await engine.invoke('import.start', { format: 'labels-jsonl', sources: [{ path: gold }], pool: 'P' })) as { jobId: string };
    expect((await jobDone(engine, imported)).ok).toBe(true);
    await expect(label('s2')).rejects.toThrow(/no pool named "P"/);
    const { jobId } = (await engine.invoke('import.undo', {})) as { jobId: string };
    expect(await jobDone(engine, jobId)).toMatchObject({ ok: true, report: { rowsChanged: { labels: -1 } } });
    // Before: still closed, until the server restarted (its cache had the pool holding imported labels).
    await expect(label('s3')).resolves.toMatchObject({ seq: expect.any(Number) });
  });

  it('an annotator\'s undo of her label names its pair: after an import\'s undo moved her own event numbers, it is refused, not done on another pair', async () => {
    engine.ws.transaction(() => {
      engine.ws.ensureAnnotator('alice', 'annotator');
      engine.ws.createPool({ name: 'P', scheme: 'binary', blind: true });
      engine.ws.addPoolQuery('P', 's0', ['s1', 's2', 's3', 's4', 's5', 's6', 's7']);
    });
    await engine.invoke('pool.assign', { pool: 'P', annotators: ['alice'] });
    const alice = { annotator: 'alice', local: false };
    // Three of her earlier labels come in from a file: her events 1-3.
    const earlier = path.join(dir, 'alice.jsonl');
    writeFileSync(earlier, ['s1', 's2', 's3'].map((c) => JSON.stringify({ query_id: 's0', candidate_id: c, annotator: 'alice', label: '1' })).join('\n') + '\n');
    const { jobId: imported } = (await engine.invoke('import.start', { format: 'labels-jsonl', sources: [{ path: earlier }], pool: 'P' })) as { jobId: string };
    expect((await jobDone(engine, imported)).ok).toBe(true);
    const acks = new Map<string, number>();
    for (const c of ['s4', 's5', 's6', 's7']) acks.set(c, ((await engine.invoke('label.set', { pool: 'P', queryId: 's0', candidateId: c, annotator: 'alice', value: '1' }, alice)) as { seq: number }).seq);
    expect([...acks.values()]).toEqual([4, 5, 6, 7]);
    const { jobId } = (await engine.invoke('import.undo', {})) as { jobId: string };
    expect((await jobDone(engine, jobId)).ok).toBe(true);
    // Her page undoes her label of s4 (event 4 when acknowledged; her 4th event is now the one on s7).
    const undo = engine.invoke('label.undo', { seq: acks.get('s4')!, annotator: 'alice', pair: { pool: 'P', queryId: 's0', candidateId: 's4' } }, alice);
    await expect(undo).rejects.toThrow(/is not your label of s0 → s4 in pool "P" any more .*nothing was undone/);
    // Before: it cleared her label of s7.
    expect(engine.ws.currentLabels('P', 'alice').map((l) => l.candidateId).sort()).toEqual(['s4', 's5', 's6', 's7']);
  });

  it('a cancelled undo stops between chunks: the import is partly undone, an import is refused saying so, and the next undo finishes it', async () => {
    await importWrong();
    const { jobId } = (await engine.invoke('import.undo', {})) as { jobId: string };
    const cancelled = new Promise<void>((resolve) => {
      const off = engine.on('job.progress', (p) => {
        if (p.jobId === jobId && p.done > 0 && p.done < p.total) {
          off();
          void engine.invoke('job.cancel', { jobId }).then(() => resolve());
        }
      });
    });
    const done: JobDone = await jobDone(engine, jobId);
    await cancelled;
    expect(done).toMatchObject({ ok: false, cancelled: true });
    expect(await engine.invoke('import.undoable', {})).toEqual({ what: 'questions-jsonl import of wrong.jsonl', started: expect.any(String), partlyUndone: true });
    const other = path.join(dir, 'other.jsonl');
    writeFileSync(other, JSON.stringify({ id: 'o1', title: 'other', body: 'other' }) + '\n');
    const { jobId: importId } = (await engine.invoke('import.start', { format: 'questions-jsonl', sources: [{ path: other }] })) as { jobId: string };
    const refused = await jobDone(engine, importId);
    expect(refused.error).toMatch(/the undo of the questions-jsonl import of wrong\.jsonl started \S+ stopped partway and that import is partly undone: undo the last import again to finish it, then import/);
    const { jobId: again } = (await engine.invoke('import.undo', {})) as { jobId: string };
    const finished = await jobDone(engine, again);
    expect(finished.ok).toBe(true);
    expect((finished.report as ImportUndoReport).rowsChanged).toEqual({ questions: -20_000 });
    expect(engine.ws.questionCount()).toBe(30);
    expect(await engine.invoke('import.undoable', {})).toBeNull();
  });
});
