/**
 * Test fixture (not used by the app): a workspace where each person's labels and each ranker's
 * scores carry values no one else's do, so a leak can be found by searching a response's text.
 */
import path from 'node:path';
import { Workspace } from '../workspace/workspace';
import type { JobDone } from '../../shared/contract';
import { Engine } from './engine';
import { useFreshEngine } from './test-engine';

/** Values only bob, carol (judge), gold and the rankers use: finding one in alice's traffic is a leak. */
export const MARKERS = { bob: '7771', judge: '8882', gold: '9993', score: '4242.' };

/** Notes (issue 24): alice's own, and bob's and the judge's, which alice must never receive (on any pool). */
export const NOTES = { alice: 'alice thinks q1 c1 is close', bob: `bob's private note ${MARKERS.bob}`, judge: `the judge's reason ${MARKERS.judge}` };

/**
 * Pools "sealed" (blind) and "open" (not blind), scheme graded, queries q1 and q2 with candidates
 * c1–c3; alice labels 1, bob 7771, gold 9993, the judge carol 8882 (on c1 and c2); runs "secretrun"
 * and "otherrun" score around 4242; alice, bob and carol each have a note on q1 → c1 (NOTES). Annotators: alice, bob (annotator), carol (judge), dave (owner).
 */
export function teamEngine(dir: string, transport: 'http' | 'electron' = 'http'): Engine {
  const ws = Workspace.create(path.join(dir, 'w.qpairs'));
  ws.transaction(() => {
    for (const id of ['q1', 'q2', 'c1', 'c2', 'c3']) ws.upsertQuestion({ id, source: 'test', title: `title of ${id}`, body: `body of ${id} about laptops` });
    ws.ensureAnnotator('alice', 'annotator');
    ws.ensureAnnotator('bob', 'annotator');
    ws.ensureAnnotator('carol', 'judge');
    ws.ensureAnnotator('dave', 'owner');
    for (const [name, blind] of [
      ['sealed', true],
      ['open', false],
    ] as const) {
      ws.createPool({ name, scheme: 'graded', blind });
      const secret = ws.ensureRun(name, 'secretrun', 'test');
      const other = ws.ensureRun(name, 'otherrun', 'test');
      let k = 0;
      for (const q of ['q1', 'q2']) {
        ws.addPoolQuery(name, q, ['c1', 'c2', 'c3']);
        for (const c of ['c1', 'c2', 'c3']) {
          ws.setRunScore(secret, q, c, 4242 + ++k / 8);
          ws.setRunScore(other, q, c, 4242 - k / 8);
          ws.addLabel({ pool: name, queryId: q, candidateId: c, annotator: 'alice', value: '1', origin: 'test' });
          ws.addLabel({ pool: name, queryId: q, candidateId: c, annotator: 'bob', value: MARKERS.bob, origin: 'test' });
          ws.addLabel({ pool: name, queryId: q, candidateId: c, annotator: 'gold', value: MARKERS.gold, origin: 'test' });
          if (c !== 'c3') ws.addLabel({ pool: name, queryId: q, candidateId: c, annotator: 'carol', value: MARKERS.judge, origin: 'test' });
        }
      }
      ws.setLabelNote({ pool: name, queryId: 'q1', candidateId: 'c1', annotator: 'alice', note: NOTES.alice });
      ws.setLabelNote({ pool: name, queryId: 'q1', candidateId: 'c1', annotator: 'bob', note: NOTES.bob });
      ws.setLabelNote({ pool: name, queryId: 'q1', candidateId: 'c1', annotator: 'carol', note: NOTES.judge });
    }
  });
  return new Engine(ws, { transport });
}

/** useFreshEngine (test-engine.ts) with teamEngine's workspace. */
export function useTeamEngine(prefix: string, use: (engine: Engine, dir: string) => void): void {
  useFreshEngine(prefix, (dir) => teamEngine(dir), use);
}

/** Resolves with a job's `job.done` event (subscribe before the job can finish: right after starting it). */
export function jobDone(engine: Engine, jobId: string): Promise<JobDone> {
  return new Promise((resolve) => {
    const off = engine.on('job.done', (d) => {
      if (d.jobId === jobId) {
        off();
        resolve(d);
      }
    });
  });
}

/**
 * A serve-mode engine (transport http) on a new workspace FILE, whose uploads are the files `uploads`
 * maps their ids to (as the server's upload store resolves them).
 */
export function servedEngine(file: string, uploads: ReadonlyMap<string, string>): Engine {
  return new Engine(Workspace.create(file), {
    transport: 'http',
    resolveUpload: (id) => {
      const f = uploads.get(id);
      if (!f) throw new Error(`upload ${id} not found`);
      return f;
    },
  });
}
