/**
 * The app and serve mode (Engine.open) finish an undo that a crash or kill stopped partway as a background job,
 * not in the open: the engine answers at once, reads are answered between the job's chunks, its progress says
 * what it is, imports (and another undo) are refused until it is done, and the owner's notices follow it.
 */
import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Engine } from './engine';
import { ContractError, type AppInfo, type EventPayloads, type ImportUndoReport, type JobProgress, type WorkspaceStats } from '../../shared/contract';
import { jobDone } from './test-team';
import { importTuning } from './work';
import { FINISHING_UNDO } from '../../shared/undo-finishing';
import { SEED_QUESTIONS, workspaceWithKilledUndo } from './test-undo';

let dir: string;
let file: string;
let corpus: string;

beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-undo-finish-'));
  ({ file, corpus } = await workspaceWithKilledUndo(dir));
});

afterEach(() => {
  importTuning.chunkMs = undefined;
  rmSync(dir, { recursive: true, force: true });
});

describe('an undo a crash or kill stopped partway, opened by the app or serve mode', () => {
  it('is finished as a background job: answers meanwhile, imports refused until done, its progress and notices said', async () => {
    const engine = Engine.open(file, { transport: 'http' });
    try {
      // The open left it: nothing more is undone until the job runs (before, the open finished it before answering anything).
      const atOpen = (await engine.invoke('workspace.stats', {})) as WorkspaceStats;
      expect(atOpen.questions).toBeGreaterThan(SEED_QUESTIONS);
      const info = (await engine.invoke('app.info', {})) as AppInfo;
      expect(info.notices).toContainEqual({
        kind: 'import-undoing',
        message: expect.stringMatching(
          /^Finishing the undo of the questions-jsonl import of wrong\.jsonl started \S+, whose undo was interrupted \(its process is gone\), in the background \([\d,]+ of [\d,]+ rows and journal entries done when it began; .*imports are refused until it is done\.$/,
        ),
      });
      const progress: JobProgress[] = [];
      engine.on('job.progress', (p) => progress.push(p));
      const jobId = engine.finishInterruptedUndo();
      expect(jobId).not.toBeNull();
      const done = jobDone(engine, jobId!);
      let finished = false;
      void done.then(() => (finished = true));

      const refused = await engine.invoke('import.start', { format: 'questions-jsonl', sources: [{ path: corpus }] }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ContractError);
      expect((refused as Error).message).toMatch(/^the undo of the questions-jsonl import of wrong\.jsonl started \S+, which a crash or kill had stopped partway, is being finished in the background .*: wait for it to finish, then import$/);
      const undoAgain = await engine.invoke('import.undo', {}).catch((e: unknown) => e);
      expect((undoAgain as Error).message).toMatch(/is being finished in the background .*: it undoes that import/);

      // Reads are answered between its chunks: some see the import partly undone.
      const seen: number[] = [];
      while (!finished) {
        seen.push(((await engine.invoke('workspace.stats', {})) as WorkspaceStats).questions);
        await new Promise((r) => setImmediate(r));
      }
      expect(seen.some((n) => n > SEED_QUESTIONS && n < atOpen.questions)).toBe(true);

      const d = await done;
      expect(d).toMatchObject({ kind: 'undo', ok: true });
      expect((d.report as ImportUndoReport).rowsChanged).toEqual({ questions: -20_000 });
      expect(progress.filter((p) => p.jobId === jobId).map((p) => p.message)).toContain(FINISHING_UNDO);
      expect(engine.ws.questionCount()).toBe(SEED_QUESTIONS);
      expect(await engine.invoke('import.undoable', {})).toBeNull();
      const after = ((await engine.invoke('app.info', {})) as AppInfo).notices;
      // Titled as what happened: the undo was interrupted and is finished (it read "Interrupted import undone", of an import that had finished).
      expect(after.map((n) => n.kind)).toEqual(['undo-finished']);
      expect(after[0]!.message).toMatch(/^Finished undoing the questions-jsonl import of wrong\.jsonl started \S+, whose undo was interrupted \(its process is gone\): undid /);
      // Imports are taken again.
      const { jobId: again } = (await engine.invoke('import.start', { format: 'questions-jsonl', sources: [{ path: corpus }] })) as { jobId: string };
      expect((await jobDone(engine, again)).ok).toBe(true);
    } finally {
      engine.close();
    }
  });

  it('cancelled, it stands stopped partway as a cancelled undo does: Undo last import finishes it', async () => {
    const engine = Engine.open(file, { transport: 'http' });
    try {
      const jobId = engine.finishInterruptedUndo()!;
      const off = engine.on('job.progress', (p) => {
        if (p.jobId === jobId) {
          off();
          void engine.invoke('job.cancel', { jobId });
        }
      });
      expect(await jobDone(engine, jobId)).toMatchObject({ ok: false, cancelled: true });
      expect(await engine.invoke('import.undoable', {})).toMatchObject({ partlyUndone: true });
      const notices = ((await engine.invoke('app.info', {})) as AppInfo).notices;
      expect(notices.map((n) => n.kind)).toEqual(['undo-partway']);
      expect(notices[0]!.message).toMatch(/is partly undone: its undo stopped partway, and undoing the last import again finishes it/);
      const { jobId: again } = (await engine.invoke('import.undo', {})) as { jobId: string };
      expect(await jobDone(engine, again)).toMatchObject({ ok: true });
      expect(engine.ws.questionCount()).toBe(SEED_QUESTIONS);
    } finally {
      engine.close();
    }
  });
});

describe('an interrupted undo of labels, finished in the background', () => {
  it('tells an annotator of the pool open to her that it changed (the event names the pools it wrote to)', async () => {
    const labelsDir = mkdtempSync(path.join(os.tmpdir(), 'qpairs-undo-finish-labels-'));
    try {
      const { file: labelsFile } = await workspaceWithKilledUndo(labelsDir, 'w.qpairs', 'labels');
      const engine = Engine.open(labelsFile, { transport: 'http' });
      try {
        const alice = { annotator: 'alice', local: false };
        const told: Array<EventPayloads['workspace.changed']> = [];
        engine.hub.on('workspace.changed', (change) => {
          if (engine.canSee(alice, 'workspace.changed', change)) told.push(engine.eventFor(alice, 'workspace.changed', change));
        });
        const jobId = engine.finishInterruptedUndo();
        expect((await jobDone(engine, jobId!)).ok).toBe(true);
        // Her pool lost the 20 people's labels: she is told, naming it (before, the event named no pool and she heard nothing).
        expect(told).toEqual([{ what: 'import', pools: ['open'] }]);
      } finally {
        engine.close();
      }
    } finally {
      rmSync(labelsDir, { recursive: true, force: true });
    }
  });
});
