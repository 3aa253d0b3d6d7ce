import { describe, expect, it } from 'vitest';
import { ClientError } from '../client/types';
import { historyEntryFor, inWorkspace, nothingLeftNotice, recordSaved, redoLabel, UndoHistory, type RedoArgs } from './history';
import { LabelQueue } from './labelQueue';
import type { LabelOp } from './labelQueue';

const kv = () => {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), removeItem: (k: string) => void m.delete(k) };
};

describe('UndoHistory', () => {
  it('after a reload onto another workspace, drops that workspace\'s entries in one go, and u says so once', () => {
    const s = kv();
    const before = new UndoHistory(s);
    const at = (seq: number, workspace?: string, pool = 'p') => ({ seq, pool, queryId: 'q', candidateId: `c${seq}`, annotator: 'ann', ...(workspace ? { workspace } : {}) });
    before.push(at(1, 'ws-A'));
    before.push(at(2, 'ws-A'));
    before.push(at(3, 'ws-A', 'other'));
    before.push(at(4)); // given before entries named their workspace: kept (the engine does not refuse it)
    before.push(at(5, 'ws-A'));
    before.pushRedo({ ...at(6, 'ws-A'), undoneBy: 9 });
    // The page is reloaded; the server now serves ws-B.
    const h = new UndoHistory(s);
    expect(h.dropOtherWorkspaces('ws-B')).toBe(5);
    h.push(at(7, 'ws-B'));
    // u walks back this workspace's change, then the unnamed one — never one of ws-A, refused one at a time before.
    expect(h.pop('p', 'ann')!.seq).toBe(7);
    expect(h.pop('p', 'ann')!.seq).toBe(4);
    expect(h.pop('p', 'ann')).toBeNull();
    expect(h.popRedo('p', 'ann')).toEqual({ entry: null, lost: false });
    // One notice, in the pool and for the person whose changes went; then the usual words.
    expect(nothingLeftNotice(h, 'p', 'ann', 'u', 'b.qpairs', 'Nothing to undo: no labels given in this session.')).toBe(
      "Nothing to undo here: this tab's 4 earlier changes were given in another workspace than the one the server now serves (b.qpairs), so they were dropped from u's history when the page loaded; u acts on changes made here.",
    );
    expect(nothingLeftNotice(h, 'p', 'ann', 'u', 'b.qpairs', 'Nothing to undo: no labels given in this session.')).toBe('Nothing to undo: no labels given in this session.');
    expect(nothingLeftNotice(h, 'other', 'ann', 'U', null, 'Nothing to redo')).toMatch(/^Nothing to redo here: this tab's 1 earlier change was given in another workspace than the one the server now serves, so it was dropped from U's history/);
    // Dropped for good: another reload finds none of them, and nothing to say.
    const again = new UndoHistory(s);
    expect(again.dropOtherWorkspaces('ws-B')).toBe(0);
    expect(again.size('other', 'ann')).toBe(0);
    expect(again.size('p', 'ann')).toBe(0);
  });

  it('pops the newest entry of the pool and annotator, across queries, and survives a reload', () => {
    const s = kv();
    const h = new UndoHistory(s);
    h.push({ seq: 1, pool: 'p', queryId: 'q1', candidateId: 'a', annotator: 'ann' });
    h.push({ seq: 2, pool: 'p', queryId: 'q2', candidateId: 'b', annotator: 'ann' });
    h.push({ seq: 3, pool: 'other', queryId: 'q9', candidateId: 'c', annotator: 'ann' });
    const reloaded = new UndoHistory(s);
    expect(reloaded.pop('p', 'ann')!.seq).toBe(2);
    expect(reloaded.pop('p', 'ann')!.seq).toBe(1);
    expect(reloaded.pop('p', 'ann')).toBeNull();
    expect(reloaded.size('other', 'ann')).toBe(1);
  });

  it('takes back a note change when the label kept its value, with the note before it; never an undo\'s own note', () => {
    const op = (o: Partial<LabelOp>): LabelOp => ({ id: 1, state: 'saving', attempts: 1, pool: 'p', queryId: 'q', candidateId: 'c', annotator: 'ann', value: '1', ...o });
    const pair = { pool: 'p', queryId: 'q', candidateId: 'c', annotator: 'ann' };
    expect(historyEntryFor(op({}), { seq: 7 })).toEqual({ seq: 7, ...pair, value: '1' });
    expect(historyEntryFor(op({ note: 'why', noteBefore: null }), { seq: null, noteChanged: true })).toEqual({ seq: 0, ...pair, note: { before: null, after: 'why' } });
    expect(historyEntryFor(op({ note: '', noteBefore: 'old' }), { seq: null, noteChanged: true })).toEqual({ seq: 0, ...pair, note: { before: 'old', after: null } });
    expect(historyEntryFor(op({ note: 'same' }), { seq: null, noteChanged: false })).toBeNull();
    expect(historyEntryFor(op({ note: 'old', undone: { seq: 0, ...pair, note: { before: 'old', after: 'new' }, undoneBy: 0 } }), { seq: null, noteChanged: true })).toBeNull();
    // A cleared label took its note along: undoing the clear puts back both.
    expect(historyEntryFor(op({ value: null, noteBefore: 'why' }), { seq: 8, noteChanged: true })).toEqual({ seq: 8, ...pair, value: null, note: { before: 'why', after: null } });
    const s = kv();
    new UndoHistory(s).push({ seq: 0, ...pair, note: { before: 'old' } });
    expect(new UndoHistory(s).pop('p', 'ann')).toEqual({ seq: 0, ...pair, note: { before: 'old' } });
  });

  it('redo gives back what undo took, newest first, until a new change ends it; then says it was lost, once; it survives a reload', () => {
    const s = kv();
    const h = new UndoHistory(s);
    const pair = { pool: 'p', queryId: 'q', annotator: 'ann' };
    h.push({ seq: 1, ...pair, candidateId: 'a', value: '1' });
    h.push({ seq: 2, ...pair, candidateId: 'b', value: '0' });
    h.pushRedo({ ...h.pop('p', 'ann')!, undoneBy: 3 });
    h.pushRedo({ ...h.pop('p', 'ann')!, undoneBy: 4 });
    const reloaded = new UndoHistory(s);
    const first = reloaded.popRedo('p', 'ann');
    expect(first.entry).toMatchObject({ seq: 1, candidateId: 'a', undoneBy: 4 });
    // The redo's own label keeps the rest of the redo history.
    reloaded.push({ seq: 5, ...pair, candidateId: 'a', value: '1' }, { keepRedo: true });
    expect(reloaded.popRedo('p', 'ann').entry).toMatchObject({ seq: 2, undoneBy: 3 });
    expect(reloaded.popRedo('p', 'ann')).toEqual({ entry: null, lost: false });
    // Undo, then a new label: the undone one cannot be redone, and redo says why (once).
    reloaded.pushRedo({ ...reloaded.pop('p', 'ann')!, undoneBy: 6 });
    reloaded.pushRedo({ seq: 9, pool: 'other', queryId: 'q', candidateId: 'z', annotator: 'ann', undoneBy: 10 });
    reloaded.push({ seq: 7, ...pair, candidateId: 'c', value: '0' });
    expect(reloaded.popRedo('p', 'ann')).toEqual({ entry: null, lost: true });
    expect(reloaded.popRedo('p', 'ann')).toEqual({ entry: null, lost: false });
    // Another pool's redo is its own.
    expect(reloaded.popRedo('other', 'ann').entry).toMatchObject({ seq: 9 });
    // An undo put back (refused) keeps the redo history.
    reloaded.pushRedo({ seq: 11, ...pair, candidateId: 'd', undoneBy: 12 });
    reloaded.putBack({ seq: 7, ...pair, candidateId: 'c' });
    expect(reloaded.popRedo('p', 'ann').entry).toMatchObject({ seq: 11 });
  });

  it('redoLabel sends the undone label with what the pair must still hold, records it as a redo, and keeps the entry only when the server was unreachable', async () => {
    const pair = { pool: 'p', queryId: 'q', candidateId: 'c', annotator: 'judy' };
    const h = new UndoHistory(kv());
    h.pushRedo({ seq: 1, ...pair, candidateId: 'later', value: '1', undoneBy: 2 });
    const sent: RedoArgs[] = [];
    // A ruling undone with the reason it was given with: both come back, and the rest of the redo history stays.
    const ruling = { seq: 3, ...pair, value: '0', note: { before: null, after: 'same question' }, review: true as const, undoneBy: 4 };
    expect(await redoLabel(ruling, h, async (a) => (sent.push(a), { seq: 5, saved: true, record: null, noteChanged: true }))).toBeNull();
    expect(sent).toEqual([{ value: '0', note: 'same question', ifNote: null, ifLatest: 4 }]);
    expect(h.pop('p', 'judy')).toEqual({ seq: 5, ...pair, value: '0', note: { before: null, after: 'same question' }, review: true });
    expect(h.popRedo('p', 'judy').entry).toMatchObject({ candidateId: 'later' });
    // A label without a note sends no note; Annotate's entry stays Annotate's.
    expect(await redoLabel({ seq: 6, ...pair, value: null, undoneBy: 7 }, h, async (a) => (sent.push(a), { seq: 8, saved: true, record: null }))).toBeNull();
    expect(sent[1]).toEqual({ value: null, ifLatest: 7 });
    expect(h.pop('p', 'judy')).toEqual({ seq: 8, ...pair, value: null });
    // Refused (the pair changed since the undo): said, and the entry is gone.
    const refused = await redoLabel({ seq: 9, ...pair, value: '1', undoneBy: 10 }, h, async () => {
      throw new ClientError('its label changed since the undo', 'user-error');
    });
    expect(refused).toBe('Redo refused: its label changed since the undo');
    expect(h.popRedo('p', 'judy')).toEqual({ entry: null, lost: false });
    // Unreachable: said, and U can try again.
    const failed = await redoLabel({ seq: 9, ...pair, value: '1', undoneBy: 10 }, h, async () => {
      throw new ClientError('server unreachable', 'transport');
    });
    expect(failed).toBe('Redo not confirmed: server unreachable. Press U again once the server answers.');
    expect(h.popRedo('p', 'judy').entry).toMatchObject({ seq: 9, undoneBy: 10 });
    expect(h.size('p', 'judy')).toBe(0);
  });

  it('an undo\'s op leaves its entry for redo only once the engine took it: a refused undo leaves nothing to redo', async () => {
    const h = new UndoHistory(kv());
    const pair = { pool: 'p', queryId: 'q', candidateId: 'c', annotator: 'judy' };
    let refuse = true;
    const q = new LabelQueue({
      send: async () => {
        if (refuse) throw new ClientError('pair q → c is not a disagreement', 'user-error');
        return { seq: null, saved: true, record: null, noteChanged: true };
      },
      onSaved: (op, ack) => recordSaved(h, op, ack, { review: true }),
    });
    const undone = { seq: 0, ...pair, note: { before: 'first', after: 'second' }, review: true as const, undoneBy: 0 };
    const op = q.enqueue({ ...pair, value: '1', note: 'first', noteBefore: 'second', undone });
    await q.idle();
    expect(q.ops()[0]).toMatchObject({ state: 'failed' });
    expect(h.popRedo('p', 'judy')).toEqual({ entry: null, lost: false });
    // Retried and taken: now U can give the reason again; the undo's own note is no step of undo.
    refuse = false;
    q.retry(op.id);
    await q.idle();
    expect(h.popRedo('p', 'judy').entry).toEqual(undone);
    expect(h.size('p', 'judy')).toBe(0);
  });
});

describe('undos under way (runUndo) and redo (afterUndos)', () => {
  it('afterUndos resolves once every undo begun so far is over, a failed one included', async () => {
    const h = new UndoHistory();
    const order: string[] = [];
    let answerFirst!: () => void;
    const first = h.runUndo(() => new Promise<void>((r) => (answerFirst = r)).then(() => void order.push('first undo')));
    const second = h.runUndo(async () => {
      order.push('second undo');
      throw new Error('refused');
    });
    const waited = h.afterUndos().then(() => void order.push('redo'));
    await expect(second).rejects.toThrow('refused');
    await new Promise((r) => setTimeout(r, 5));
    expect(order).toEqual(['second undo']);
    answerFirst();
    await first;
    await waited;
    expect(order).toEqual(['second undo', 'first undo', 'redo']);
  });
});

describe('the workspace a change was given in', () => {
  it('its history entry keeps it (also once the page labels in another), and an undo\'s op of a note names it, not the one open now', async () => {
    const h = new UndoHistory(kv());
    let open = 'workspace-a-id';
    const sent: Array<string | undefined> = [];
    const q = new LabelQueue({ workspace: () => open, send: async (op) => (sent.push(op.workspace), { seq: sent.length, saved: true, record: null, noteChanged: true }), onSaved: (op, ack) => recordSaved(h, op, ack) });
    q.enqueue({ pool: 'p', queryId: 'q', candidateId: 'c', annotator: 'ann', value: '1', note: 'why', noteBefore: null });
    await q.idle();
    const entry = h.pop('p', 'ann')!;
    expect(entry).toMatchObject({ seq: 1, workspace: 'workspace-a-id' });
    // The page was reloaded on a server now serving workspace b: the undo of that note still names a.
    open = 'workspace-b-id';
    q.enqueue({ pool: 'p', queryId: 'q', candidateId: 'c', annotator: 'ann', value: '1', note: '', noteBefore: 'why', undone: { ...entry, undoneBy: 0 }, ...inWorkspace(entry) });
    q.enqueue({ pool: 'p', queryId: 'q', candidateId: 'd', annotator: 'ann', value: '1' });
    await q.idle();
    expect(sent).toEqual(['workspace-a-id', 'workspace-a-id', 'workspace-b-id']);
    // A redo of a label event sends it too.
    const redone: RedoArgs[] = [];
    await redoLabel({ ...entry, undoneBy: 4 }, h, async (args) => (redone.push(args), { seq: 5, saved: true, record: null }));
    expect(redone[0]).toMatchObject({ ifLatest: 4, workspace: 'workspace-a-id' });
  });
});
