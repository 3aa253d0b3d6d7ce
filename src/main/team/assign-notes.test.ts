/**
 * An assignment naming someone the workspace does not know adds them as a new annotator: it used to
 * do so in silence (`qpairs assign --annotators alcie,bob` made "alcie", and the pool waited on her).
 * Now pool.assign and `qpairs assign` say who was added, and whom a typo most likely meant.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { assignPool } from '../gold';
import { runCli } from '../cli/test-cli';
import { scratchWorkspaces } from '../workspace/scratch-workspaces';
import { assignmentNotes } from './assign-notes';
import { knownPeople } from './new-person';

const scratch = scratchWorkspaces('qpairs-assign-notes-');

describe('assigning a name the workspace does not know', () => {
  it('says it is added as a new annotator, with the known person it most likely meant', () => {
    const ws = scratch.fresh('w');
    ws.createPool({ name: 'p' });
    ws.addPoolQuery('p', 'q', ['c']);
    for (const n of ['alice', 'bob']) ws.ensureAnnotator(n);
    const known = knownPeople(ws);
    assignPool(ws, 'p', ['alcie', 'bob', 'zed'], null);
    expect(assignmentNotes(ws, ['alcie', 'bob', 'zed'], known)).toEqual([
      'alcie was not a person of this workspace and is added as a new annotator (did you mean alice? then assign again with alice).',
      'zed was not a person of this workspace and is added as a new annotator.',
    ]);
    // Known names, assigned again, need no note; nor does a typo of someone assigned in the same list.
    const again = knownPeople(ws);
    assignPool(ws, 'p', ['alice', 'bob'], null);
    expect(assignmentNotes(ws, ['alice', 'bob'], again)).toEqual([]);
    assignPool(ws, 'p', ['alice', 'alicee'], null);
    expect(assignmentNotes(ws, ['alice', 'alicee'], again)).toEqual(['alicee was not a person of this workspace and is added as a new annotator.']);
  });

  it('qpairs assign prints the note', async () => {
    const ws = scratch.fresh('c');
    ws.createPool({ name: 'p' });
    ws.addPoolQuery('p', 'q', ['c']);
    ws.ensureAnnotator('alice');
    ws.close();
    const r = await runCli('assign', path.join(scratch.dir, 'c.qpairs'), '--pool', 'p', '--annotators', 'alcie,bob');
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('note: alcie was not a person of this workspace and is added as a new annotator (did you mean alice? then assign again with alice).\n');
    expect(r.out).toContain('note: bob was not a person of this workspace and is added as a new annotator.\n');
  });
});
