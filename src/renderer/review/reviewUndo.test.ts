/**
 * u then U pressed quickly on the Review screen: U found nothing to redo when u's label.undo was not
 * answered yet (a busy server; seen in the end-to-end suite under load), because what u takes back
 * reaches the redo list only with the answer. Redo now waits for the undos under way.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { QPairsClient } from '../../shared/contract';
import { UndoHistory } from '../annotate/history';
import type { LabelQueue } from '../annotate/labelQueue';
import { reviewUndoActions, type UndoableRow } from './reviewUndo';

/** A promise resolved from outside: the server's answer, when the test says. */
function deferred<T>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Review's undo actions for judy, whose ruling on q → c (event 7) is the one to undo, over `client`; what they say is kept. */
function judyUndoing(client: QPairsClient, given: { workspace?: string } = {}, undo = new UndoHistory()) {
  undo.push({ seq: 7, pool: 'p', queryId: 'q', candidateId: 'c', annotator: 'judy', value: '1', review: true, ...given });
  const notices: Array<string | null> = [];
  const errors: Array<string | null> = [];
  const actions = reviewUndoActions<UndoableRow>({
    client,
    settles: { settledForUndo: async () => true } as unknown as LabelQueue,
    undo,
    judge: 'judy',
    pool: 'p',
    queuePool: 'p',
    allRows: [{ key: 'q\u0000c', value: '1', by: 'judy' }],
    storedReason: () => null,
    setReasons: () => {},
    setGiven: () => {},
    showPair: () => {},
    setNotice: (s) => notices.push(s),
    setError: (s) => errors.push(s),
    queuedNotice: () => {},
    load: async () => {},
    workspaceName: 'b.qpairs',
  });
  return { actions, undo, notices, errors };
}

describe("the Review screen's U right after u", () => {
  it('redoes the ruling u took back, though u had no answer yet when U was pressed', async () => {
    const undoAnswer = deferred<{ seq: number }>();
    const calls: Array<{ command: string; args: Record<string, unknown> }> = [];
    const client = {
      invoke: (command: string, args: Record<string, unknown>) => {
        calls.push({ command, args });
        if (command === 'label.undo') return undoAnswer.promise;
        if (command === 'review.settle') return Promise.resolve({ seq: 9, saved: true, record: null });
        return Promise.reject(new Error(`unexpected ${command}`));
      },
    } as unknown as QPairsClient;
    const { actions, notices, errors } = judyUndoing(client);
    const undoing = actions.doUndo();
    const redoing = actions.doRedo(); // U, before label.undo is answered
    await new Promise((r) => setTimeout(r, 10));
    expect(calls.map((c) => c.command)).toEqual(['label.undo']);
    undoAnswer.resolve({ seq: 8 });
    await undoing;
    await redoing;
    expect(notices).not.toContain('Nothing to redo: U gives back what u took back in this session.');
    expect(errors).toEqual([]);
    expect(calls.map((c) => c.command)).toEqual(['label.undo', 'review.settle']);
    expect(calls[1]!.args).toMatchObject({ pool: 'p', judge: 'judy', queryId: 'q', candidateId: 'c', value: '1', ifLatest: 8 });
  });
});

describe("the Review screen's u when the network swallowed the request (serve mode)", () => {
  afterEach(() => vi.useRealTimers());

  it('after 20 s with no answer it says the undo failed for want of an answer, keeps the ruling to undo again, and aborts the request', async () => {
    vi.useFakeTimers();
    const aborted: boolean[] = [];
    const client = {
      transport: 'http',
      // A request that never gets an answer: it ends only when aborted.
      invoke: (_command: string, _args: unknown, o?: { signal?: AbortSignal }) =>
        new Promise((_resolve, reject) => o?.signal?.addEventListener('abort', () => (aborted.push(true), reject(o.signal!.reason)))),
    } as unknown as QPairsClient & { transport: 'http' };
    const { actions, errors, undo } = judyUndoing(client);
    const undoing = actions.doUndo();
    await vi.advanceTimersByTimeAsync(20_000);
    await undoing;
    expect(aborted).toEqual([true]);
    expect(errors).toEqual(['Undo failed: no answer from the server in 20 s']);
    // Put back: u again sends the same undo (the engine answers a repeated one with the undo it saved).
    expect(undo.size('p', 'judy')).toBe(1);
  });
});

describe("the Review screen's u and U name the workspace the ruling was given in", () => {
  it('label.undo and the redo (review.settle) carry it: a server now on another workspace refuses them instead of undoing there', async () => {
    const calls: Array<{ command: string; args: Record<string, unknown> }> = [];
    const client = {
      invoke: async (command: string, args: Record<string, unknown>) => {
        calls.push({ command, args });
        return command === 'label.undo' ? { seq: 8 } : { seq: 9, saved: true, record: null };
      },
    } as unknown as QPairsClient;
    const { actions, errors } = judyUndoing(client, { workspace: 'workspace-a-id' });
    await actions.doUndo();
    await actions.doRedo();
    expect(errors).toEqual([]);
    expect(calls.map((c) => [c.command, c.args.workspace])).toEqual([
      ['label.undo', 'workspace-a-id'],
      ['review.settle', 'workspace-a-id'],
    ]);
  });
});

describe("the Review screen's u after a reload onto another workspace", () => {
  it('undoes the rulings given here, then says once that the other workspace’s were dropped at load — none sent to be refused', async () => {
    const calls: string[] = [];
    const client = {
      invoke: (command: string) => {
        calls.push(command);
        return command === 'label.undo' ? Promise.resolve({ seq: 8 }) : Promise.reject(new Error(`unexpected ${command}`));
      },
    } as unknown as QPairsClient;
    // Two rulings given in workspace A before the reload; the page now loads on B.
    const undo = new UndoHistory();
    for (const seq of [3, 4]) undo.push({ seq, pool: 'p', queryId: 'q', candidateId: `c${seq}`, annotator: 'judy', value: '1', review: true, workspace: 'ws-A' });
    expect(undo.dropOtherWorkspaces('ws-B')).toBe(2);
    const { actions, notices, errors } = judyUndoing(client, { workspace: 'ws-B' }, undo);
    await actions.doUndo();
    expect(notices.at(-1)).toMatch(/^Undone: your label of c for query q/);
    await actions.doUndo();
    expect(notices.at(-1)).toBe(
      "Nothing to undo here: this tab's 2 earlier changes were given in another workspace than the one the server now serves (b.qpairs), so they were dropped from u's history when the page loaded; u acts on changes made here.",
    );
    await actions.doUndo();
    expect(notices.at(-1)).toBe('Nothing to undo: you settled nothing in this session.');
    expect(calls).toEqual(['label.undo']);
    expect(errors).toEqual([]);
  });
});
