/**
 * Test fixture: a small pool p of 4 queries (q0…q3) × 4 candidates (c<i>-0…c<i>-3), two on the
 * query's topic and two on others, with no labels; `label` gives gold labels.
 */
import { beforeEach } from 'vitest';
import { scratchWorkspaces } from '../workspace/scratch-workspaces';
import type { Workspace } from '../workspace/workspace';

const TOPICS = ['printer driver install', 'wifi network password', 'python package version', 'disk partition resize'];

export function addLivePool(ws: Workspace): void {
  ws.createPool({ name: 'p', scheme: 'binary' });
  TOPICS.forEach((t, i) => {
    ws.upsertQuestion({ id: `q${i}`, source: 's', title: `how to fix ${t}`, body: `my ${t} does not work after the update` });
    for (let j = 0; j < 4; j++) {
      const other = TOPICS[(i + j) % TOPICS.length]!;
      ws.upsertQuestion({ id: `c${i}-${j}`, source: 's', title: `${other} problem ${j}`, body: `trouble with ${other} again, tried rebooting` });
    }
    ws.addPoolQuery('p', `q${i}`, [0, 1, 2, 3].map((j) => `c${i}-${j}`));
  });
}

/** Gold labels for query q<i>: similar for the candidates listed, not similar for the others. */
export function labelLiveQuery(ws: Workspace, i: number, similar: readonly number[]): void {
  for (let j = 0; j < 4; j++) {
    ws.addLabel({ pool: 'p', queryId: `q${i}`, candidateId: `c${i}-${j}`, annotator: 'gold', value: similar.includes(j) ? '1' : '0', origin: 'test' });
  }
}

/**
 * Registers the hooks: before each test a new workspace `w.qpairs` holding pool p (addLivePool) in a scratch folder
 * named `<prefix>…`, handed to `use`; after it, the workspace closed and the folder removed (scratchWorkspaces).
 */
export function livePoolEachTest(prefix: string, use: (ws: Workspace) => void): void {
  const scratch = scratchWorkspaces(prefix);
  beforeEach(() => {
    const ws = scratch.fresh('w');
    addLivePool(ws);
    use(ws);
  });
}
