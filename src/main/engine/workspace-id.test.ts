/**
 * A page's queued labels carry the id of the workspace they were given in: a server started again on
 * another workspace at the same address refuses them (nothing saved there), the same workspace
 * opened again takes them.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AppInfo, LabelAck } from '../../shared/contract';
import { Workspace } from '../workspace/workspace';
import { Engine } from './engine';
import { useTeamEngine } from './test-team';

const alice = { annotator: 'alice', local: false };

describe('the workspace’s own id', () => {
  let engine: Engine;
  let dir = '';
  useTeamEngine('qpairs-workspace-id-', (e, d) => ((engine = e), (dir = d)));

  it('app.info gives it; it is kept in the file, the same once opened again', async () => {
    const id = ((await engine.invoke('app.info', {}, alice)) as AppInfo).workspaceId;
    expect(id).toMatch(/^[a-z]{24}$/);
    const again = Engine.open(engine.ws.path, { transport: 'http' });
    try {
      expect(((await again.invoke('app.info', {}, alice)) as AppInfo).workspaceId).toBe(id);
    } finally {
      again.close();
    }
    const other = new Engine(Workspace.create(path.join(dir, 'other.qpairs')), { transport: 'http' });
    try {
      expect(((await other.invoke('app.info', {})) as AppInfo).workspaceId).not.toBe(id);
    } finally {
      other.close();
    }
  });

  it('a label or ruling given in another workspace is refused and not saved; given in this one, or naming none, it is saved', async () => {
    const id = ((await engine.invoke('app.info', {}, alice)) as AppInfo).workspaceId!;
    const pair = { pool: 'open', queryId: 'q2', candidateId: 'c3' };
    const before = engine.ws.labelHistory('open').length;
    await expect(engine.invoke('label.set', { ...pair, annotator: 'alice', value: '5', workspace: 'another-id' }, alice)).rejects.toMatchObject({
      code: 'user-error',
      message: expect.stringMatching(/^not saved: it was given in another workspace than the one open here \(w\.qpairs\)/),
    });
    await expect(engine.invoke('review.settle', { ...pair, judge: 'carol', value: '5', workspace: 'another-id' }, { annotator: 'carol', local: false })).rejects.toThrow(/another workspace/);
    expect(engine.ws.labelHistory('open')).toHaveLength(before);
    const ack = (await engine.invoke('label.set', { ...pair, annotator: 'alice', value: '5', workspace: id }, alice)) as LabelAck;
    expect(ack.seq).not.toBeNull();
    const plain = (await engine.invoke('label.set', { ...pair, annotator: 'alice', value: '6' }, alice)) as LabelAck;
    expect(plain.seq).not.toBeNull();
  });

  it('an undo of a label given in another workspace is refused and undoes nothing; of one given here, or naming none, it undoes', async () => {
    const id = ((await engine.invoke('app.info', {}, alice)) as AppInfo).workspaceId!;
    const pair = { pool: 'open', queryId: 'q2', candidateId: 'c3' };
    const given = (await engine.invoke('label.set', { ...pair, annotator: 'alice', value: '4', workspace: id }, alice)) as LabelAck;
    const events = engine.ws.labelHistory('open').length;
    // A page's undo history from a server on another workspace at the same address (the seq and pair may exist here too).
    await expect(engine.invoke('label.undo', { seq: given.seq!, annotator: 'alice', pair, workspace: 'another-id' }, alice)).rejects.toMatchObject({
      code: 'user-error',
      message: expect.stringMatching(/^not undone: the label was given in another workspace than the one open here \(w\.qpairs\)/),
    });
    expect(engine.ws.labelHistory('open')).toHaveLength(events);
    expect(engine.ws.currentLabels('open', 'alice').find((l) => l.queryId === 'q2' && l.candidateId === 'c3')?.value).toBe('4');
    await engine.invoke('label.undo', { seq: given.seq!, annotator: 'alice', pair, workspace: id }, alice);
    expect(engine.ws.labelHistory('open')).toHaveLength(events + 1);
    const again = (await engine.invoke('label.set', { ...pair, annotator: 'alice', value: '3' }, alice)) as LabelAck;
    await engine.invoke('label.undo', { seq: again.seq!, annotator: 'alice', pair }, alice);
    expect(engine.ws.labelHistory('open')).toHaveLength(events + 3);
  });
});
