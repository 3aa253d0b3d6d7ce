import { describe, expect, it, vi } from 'vitest';
import type { LabelAck } from '../../shared/contract';
import { LABEL_SUPERSEDED } from '../../shared/labels';
import { ClientError } from '../client/types';
import { LabelQueue, pairKey, type LabelInput } from './labelQueue';
import type { KV } from '../lib/storage';

const memory = (): KV & { data: Map<string, string> } => {
  const data = new Map<string, string>();
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v), removeItem: (k) => void data.delete(k) };
};
const ack = (seq: number): LabelAck => ({ seq, saved: true, record: null });
const L = (candidateId: string, value: string | null = '1'): LabelInput => ({ pool: 'p', queryId: 'q', candidateId, annotator: 'ann', value });
const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 0));

describe('LabelQueue', () => {
  it('sends labels one at a time, in order, and reports them saved', async () => {
    const sent: string[] = [];
    let seq = 0;
    const saved: number[] = [];
    const q = new LabelQueue({
      send: async (op) => {
        sent.push(`${op.candidateId}=${op.value}`);
        await tick();
        return ack(++seq);
      },
      onSaved: (_op, a) => saved.push(a.seq!),
    });
    q.enqueue(L('a', '1'));
    q.enqueue(L('b', '0'));
    q.enqueue(L('a', '0'));
    expect(q.counts().unsaved).toBe(3);
    expect(q.latestFor(pairKey('p', 'ann', 'q', 'a'))!.value).toBe('0');
    await q.idle();
    expect(sent).toEqual(['a=1', 'b=0', 'a=0']);
    expect(saved).toEqual([1, 2, 3]);
    expect(q.ops()).toHaveLength(0);
    expect(q.savedCount()).toBe(3);
    expect(q.lastSaved()).toMatchObject({ candidateId: 'a', value: '0' });
  });

  it('a label whose answer was lost after the engine saved it: the "unchanged" answer to its resend names the event saved, for undo', async () => {
    let lost = true;
    const saved: Array<number | null> = [];
    const q = new LabelQueue({
      retryDelays: [5],
      send: async () => {
        if (lost) {
          lost = false;
          throw new ClientError('the connection broke while reading the answer', 'transport');
        }
        return { seq: null, latest: 4, saved: true, record: null };
      },
      onSaved: (_op, a) => saved.push(a.seq),
    });
    q.enqueue({ ...L('a', '1'), valueBefore: null });
    await q.idle();
    expect(saved).toEqual([4]);
    // Sent once and answered "unchanged": the pair had that label already, nothing to undo.
    q.enqueue({ ...L('b', '1'), valueBefore: '1' });
    await q.idle();
    q.enqueue({ ...L('c', '1'), valueBefore: null });
    await q.idle();
    expect(saved).toEqual([4, null, null]);
  });

  it('a label on its way when the page was reloaded may have been saved: its resend reads the answer so', async () => {
    const storage = memory();
    storage.setItem('qpairs.labelOutbox', JSON.stringify([{ ...L('a', '1'), valueBefore: '0', state: 'saving' }]));
    const saved: Array<number | null> = [];
    const q = new LabelQueue({ storage, send: async () => ({ seq: null, latest: 3, saved: true, record: null }), onSaved: (_op, a) => saved.push(a.seq) });
    await q.idle();
    expect(saved).toEqual([3]);
  });

  it('each label keeps the workspace it was given in and is sent with it, also after a reload', async () => {
    let workspace: string | null = 'A';
    const sent: Array<string | undefined> = [];
    const storage = memory();
    const q = new LabelQueue({ storage, workspace: () => workspace, send: async (op) => (sent.push(op.workspace), new Promise<LabelAck>(() => {})) });
    q.enqueue(L('a'));
    workspace = 'B';
    q.enqueue(L('b'));
    await tick();
    expect(sent).toEqual(['A']);
    const again: Array<string | undefined> = [];
    const reloaded = new LabelQueue({ storage, workspace: () => 'C', send: async (op) => (again.push(op.workspace), ack(1)) });
    await reloaded.idle();
    expect(again).toEqual(['A', 'B']);
  });

  it('keeps a label queued through transport failures and retries it (in order)', async () => {
    let down = 2;
    const sent: string[] = [];
    const q = new LabelQueue({
      retryDelays: [5],
      send: async (op) => {
        if (down-- > 0) throw new ClientError('cannot reach the server', 'transport');
        sent.push(op.candidateId);
        return ack(sent.length);
      },
    });
    q.enqueue(L('a'));
    q.enqueue(L('b'));
    await tick();
    expect(q.ops()[0]!.state).toBe('retrying');
    expect(q.counts()).toMatchObject({ unsaved: 2, retrying: 1 });
    await q.idle();
    expect(sent).toEqual(['a', 'b']);
  });

  it('marks engine refusals failed (visible), moves on, and retries on request', async () => {
    let refuse = true;
    const q = new LabelQueue({
      send: async (op) => {
        if (op.candidateId === 'bad' && refuse) throw new ClientError('"7" is not a label of the binary scheme', 'user-error');
        return ack(1);
      },
    });
    q.enqueue(L('bad', '7'));
    q.enqueue(L('good'));
    await q.idle();
    expect(q.ops()).toHaveLength(1);
    expect(q.ops()[0]).toMatchObject({ candidateId: 'bad', state: 'failed', error: expect.stringMatching(/not a label/) });
    expect(q.counts()).toEqual({ unsaved: 0, failed: 1, retrying: 0, busy: 0, unanswered: 0 });
    refuse = false;
    q.retry(q.ops()[0]!.id);
    await q.idle();
    expect(q.ops()).toHaveLength(0);
  });

  it('a refused label is dropped once a later label of the same pair is saved (its Retry would write the older value over it); a refused note is kept', async () => {
    let refuse = true;
    const sent: string[] = [];
    const q = new LabelQueue({
      send: async (op) => {
        if (refuse) throw new ClientError('the disk is full', 'user-error');
        sent.push(`${op.candidateId}=${op.value}`);
        return ack(1);
      },
    });
    q.enqueue(L('a', '1'));
    q.enqueue(L('b', '1'));
    q.enqueue({ ...L('c', '1'), note: 'same question, other words' });
    await q.idle();
    expect(q.counts()).toEqual({ unsaved: 0, failed: 3, retrying: 0, busy: 0, unanswered: 0 });
    refuse = false;
    q.enqueue(L('a', '0'));
    q.enqueue(L('c', '0'));
    await q.idle();
    expect(sent).toEqual(['a=0', 'c=0']);
    // a's older "1" is gone (the pair shows the saved "0"); b was not labeled again; c's note is still to save.
    expect(q.ops().map((o) => `${o.candidateId}=${o.value}`)).toEqual(['b=1', 'c=1']);
    expect(q.latestFor(pairKey('p', 'ann', 'q', 'a'))).toBeUndefined();
  });

  it('mirrors unsaved labels to storage and re-sends them after a reload', async () => {
    const storage = memory();
    const q1 = new LabelQueue({ storage, send: () => new Promise<LabelAck>(() => {}) }); // never answers: the page "dies"
    q1.enqueue(L('a', '1'));
    q1.enqueue(L('b', null));
    expect(JSON.parse(storage.data.get('qpairs.labelOutbox')!)).toHaveLength(2);
    q1.stop();
    const send = vi.fn(async () => ack(9));
    const q2 = new LabelQueue({ storage, send });
    await q2.idle();
    expect(send.mock.calls.map((c) => (c as unknown as [LabelInput])[0].candidateId)).toEqual(['a', 'b']);
    expect((send.mock.calls[1] as unknown as [LabelInput])[0].value).toBeNull();
    expect(storage.data.has('qpairs.labelOutbox')).toBe(false);
  });

  it('notifies subscribers and can drop a failed label on request', async () => {
    const q = new LabelQueue({ send: async () => Promise.reject(new ClientError('forbidden', 'forbidden')) });
    const seen = vi.fn();
    q.subscribe(seen);
    q.enqueue(L('a'));
    await q.idle();
    expect(seen).toHaveBeenCalled();
    const v = q.version();
    q.dismiss(q.ops()[0]!.id);
    expect(q.ops()).toHaveLength(0);
    expect(q.version()).toBeGreaterThan(v);
  });

  it('sends what the engine reads of an op and nothing the page keeps: a redo\'s ifNote goes with its note', async () => {
    const sent: LabelInput[] = [];
    const q = new LabelQueue({ tab: 'tab-under-test', send: async (op) => (sent.push(op), ack(1)) });
    q.enqueue({ ...L('a'), note: 'again', noteBefore: 'before', redoing: true, ifNote: null });
    q.enqueue({ ...L('b'), note: 'kept', ifNote: 'kept before' });
    q.enqueue({ ...L('c'), note: '', noteBefore: 'x', undone: { seq: 0, pool: 'p', queryId: 'q', candidateId: 'c', annotator: 'ann', note: { before: 'x', after: null }, undoneBy: 0 } });
    await q.idle();
    expect(sent).toEqual([
      { ...L('a'), note: 'again', ifNote: null, stamp: { tab: 'tab-under-test', n: 1 } },
      { ...L('b'), note: 'kept', ifNote: 'kept before', stamp: { tab: 'tab-under-test', n: 2 } },
      { ...L('c'), note: '', stamp: { tab: 'tab-under-test', n: 3 } },
    ]);
  });
});

describe('LabelQueue: a send that gets no answer (stallMs)', () => {
  type Sent = { candidateId: string; value: string | null; stamp?: { tab: string; n: number }; signal: AbortSignal; answer: (a: LabelAck) => void };
  const stalling = () => {
    const sent: Sent[] = [];
    const saved: Array<number | null> = [];
    const q = new LabelQueue({
      stallMs: 20_000,
      retryDelays: [1000],
      tab: 'tab-under-test',
      send: (op, signal) => new Promise<LabelAck>((answer) => sent.push({ candidateId: op.candidateId, value: op.value, stamp: op.stamp, signal, answer })),
      onSaved: (_op, a) => saved.push(a.seq),
    });
    return { q, sent, saved };
  };

  it('is taken as lost after stallMs and sent again with the same stamp; a newer label of the pair gets a later one; the stalled answer is ignored', async () => {
    vi.useFakeTimers();
    try {
      const { q, sent, saved } = stalling();
      q.enqueue({ ...L('a', '1'), valueBefore: null });
      q.enqueue({ ...L('a', '0'), valueBefore: '1' });
      await vi.advanceTimersByTimeAsync(19_999);
      expect(sent).toHaveLength(1);
      expect(q.ops()[0]!.state).toBe('saving');
      await vi.advanceTimersByTimeAsync(1);
      // Before: "saving…" until the OS gave up. Now a transport failure, retried with backoff, maybe saved.
      expect(q.ops()[0]).toMatchObject({ state: 'retrying', maybeSaved: true, error: 'no answer from the server in 20 s; sending it again' });
      // Its request is aborted (it would hold one of the browser's few connections to the server).
      expect(sent[0]!.signal.aborted).toBe(true);
      await vi.advanceTimersByTimeAsync(1000);
      expect(sent).toHaveLength(2);
      expect(sent[1]!.stamp).toEqual(sent[0]!.stamp);
      sent[1]!.answer({ seq: null, latest: 7, saved: true, record: null });
      await vi.advanceTimersByTimeAsync(0);
      expect(sent).toHaveLength(3);
      expect(sent[2]!.value).toBe('0');
      expect(sent[2]!.stamp!.tab).toBe(sent[0]!.stamp!.tab);
      expect(sent[2]!.stamp!.n).toBeGreaterThan(sent[0]!.stamp!.n);
      // The stalled first send answers at last: ignored (the op was saved by its resend).
      sent[0]!.answer({ seq: 99, saved: true, record: null });
      sent[2]!.answer(ack(8));
      await vi.advanceTimersByTimeAsync(0);
      expect(saved).toEqual([7, 8]);
      expect(q.ops()).toHaveLength(0);
      expect(sent.map((x) => x.signal.aborted)).toEqual([true, false, false]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('retryNow({ lost: true }) (the connection came back) gives up on the send on its way and sends it again at once', async () => {
    vi.useFakeTimers();
    try {
      const { q, sent, saved } = stalling();
      q.enqueue(L('a', '1'));
      await vi.advanceTimersByTimeAsync(5000);
      expect(sent).toHaveLength(1);
      q.retryNow({ lost: true });
      await vi.advanceTimersByTimeAsync(0);
      // No backoff, no stall wait: sent again now, same stamp.
      expect(sent).toHaveLength(2);
      expect(sent[1]!.stamp).toEqual(sent[0]!.stamp);
      sent[1]!.answer(ack(3));
      await vi.advanceTimersByTimeAsync(0);
      expect(saved).toEqual([3]);
      // Nothing on its way: retryNow({ lost: true }) sends nothing twice.
      q.retryNow({ lost: true });
      await vi.advanceTimersByTimeAsync(60_000);
      expect(sent).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a refused label retried by the user gets a new stamp (it is given after what was given meanwhile)', async () => {
    const stamps: Array<{ tab: string; n: number } | undefined> = [];
    let refuse = true;
    const q = new LabelQueue({
      tab: 'tab-under-test',
      send: async (op) => {
        stamps.push(op.stamp);
        if (refuse) {
          refuse = false;
          throw new ClientError('forbidden', 'forbidden');
        }
        return ack(stamps.length);
      },
    });
    const op = q.enqueue(L('a', '1'));
    await tick();
    q.enqueue(L('b', '1'));
    await q.idle();
    q.retry(q.ops()[0]!.id);
    await q.idle();
    expect(op.stamp).toEqual({ tab: 'tab-under-test', n: 1 });
    expect(stamps).toEqual([{ tab: 'tab-under-test', n: 1 }, { tab: 'tab-under-test', n: 2 }, { tab: 'tab-under-test', n: 3 }]);
  });

  it('a label restored after a reload keeps its stamp; the new page stamps with its own id', async () => {
    const storage = memory();
    const first = new LabelQueue({ tab: 'page-one-id', storage, send: () => new Promise<LabelAck>(() => {}) });
    first.enqueue(L('a', '1'));
    first.stop();
    const stamps: Array<{ tab: string; n: number } | undefined> = [];
    const second = new LabelQueue({ tab: 'page-two-id', storage, send: async (op) => (stamps.push(op.stamp), ack(stamps.length)) });
    second.enqueue(L('b', '1'));
    await second.idle();
    expect(stamps).toEqual([{ tab: 'page-one-id', n: 1 }, { tab: 'page-two-id', n: 1 }]);
  });
});

describe('LabelQueue: a server busy with the label (onHand)', () => {
  it('no answer after stallMs but the server says it has the request: waited for (busy), not sent again, saved once it answers', async () => {
    vi.useFakeTimers();
    try {
      const sent: Array<{ requestId: string; signal: AbortSignal; answer: (a: LabelAck) => void }> = [];
      const asked: string[] = [];
      const saved: Array<number | null> = [];
      const q = new LabelQueue({
        stallMs: 20_000,
        retryDelays: [1000],
        send: (_op, signal, requestId) => new Promise<LabelAck>((answer) => sent.push({ requestId, signal, answer })),
        // The server has the request on hand (a label waiting behind a long write).
        onHand: async (id) => (asked.push(id), sent.some((s) => s.requestId === id)),
        onSaved: (_op, a) => saved.push(a.seq),
      });
      q.enqueue(L('a', '1'));
      await vi.advanceTimersByTimeAsync(20_000);
      expect(asked).toEqual([sent[0]!.requestId]);
      // Before: taken as lost ("cannot reach"), aborted and sent again into a server that had it.
      expect(q.ops()[0]).toMatchObject({ state: 'saving', busy: true });
      expect(q.counts()).toEqual({ unsaved: 1, failed: 0, retrying: 0, busy: 1, unanswered: 0 });
      await vi.advanceTimersByTimeAsync(60_000);
      expect(sent).toHaveLength(1);
      expect(sent[0]!.signal.aborted).toBe(false);
      expect(asked.length).toBe(4);
      sent[0]!.answer(ack(5));
      await vi.advanceTimersByTimeAsync(0);
      expect(saved).toEqual([5]);
      expect(q.counts()).toEqual({ unsaved: 0, failed: 0, retrying: 0, busy: 0, unanswered: 0 });
      await vi.advanceTimersByTimeAsync(60_000);
      expect(asked.length).toBe(4);
    } finally {
      vi.useRealTimers();
    }
  });

  it('the server answers but has no such request (lost on the way), or does not answer: sent again, as before', async () => {
    vi.useFakeTimers();
    try {
      for (const held of [false, null]) {
        const sent: Array<{ signal: AbortSignal; answer: (a: LabelAck) => void }> = [];
        const q = new LabelQueue({ stallMs: 20_000, retryDelays: [1000], send: (_op, signal) => new Promise<LabelAck>((answer) => sent.push({ signal, answer })), onHand: async () => held });
        q.enqueue(L('a', '1'));
        await vi.advanceTimersByTimeAsync(20_000);
        expect(q.ops()[0]).toMatchObject({ state: 'retrying', busy: undefined });
        expect(q.ops()[0]!.error).toBe(
          held === false ? 'no answer from the server in 20 s: it answers, but the request never reached it (or its answer was lost); sending it again' : 'no answer from the server in 20 s; sending it again',
        );
        expect(sent[0]!.signal.aborted).toBe(true);
        // Given up on for want of an answer, not for failing to reach the server: the top bar says so.
        expect(q.counts()).toMatchObject({ retrying: 1, unanswered: 1 });
        await vi.advanceTimersByTimeAsync(1000);
        expect(sent).toHaveLength(2);
        expect(q.counts()).toMatchObject({ retrying: 0, unanswered: 0 });
        q.stop();
      }
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('LabelQueue: a late copy refused as superseded (LABEL_SUPERSEDED)', () => {
  it('is dropped quietly, not listed as not saved (with a Retry that would write the older value back)', async () => {
    // A tab duplicated with its outbox: the other tab sent both labels already, so the engine refuses this copy of the first.
    const sent: string[] = [];
    const saved: string[] = [];
    const q = new LabelQueue({
      send: async (op) => {
        sent.push(`${op.candidateId}=${op.value}`);
        if (op.note !== undefined) throw new ClientError('not saved: a label given after this one on q → a (from the same page) was saved first; this one arrived late and is outdated', 'user-error', 422, LABEL_SUPERSEDED);
        return { seq: null, latest: 9, saved: true, record: null };
      },
      onSaved: (op) => saved.push(`${op.candidateId}=${op.value}`),
    });
    q.enqueue({ ...L('a', '1'), note: 'why' });
    q.enqueue(L('a', '0'));
    await q.idle();
    expect(sent).toEqual(['a=1', 'a=0']);
    expect(saved).toEqual(['a=0']);
    expect(q.ops()).toEqual([]);
    expect(q.counts()).toEqual({ unsaved: 0, failed: 0, retrying: 0, busy: 0, unanswered: 0 });
  });

  it('any other refusal is still listed as not saved', async () => {
    const q = new LabelQueue({ send: async () => Promise.reject(new ClientError('pool "p" is closed', 'user-error', 422)) });
    q.enqueue(L('a', '1'));
    await q.idle();
    expect(q.ops()).toMatchObject([{ state: 'failed', error: 'pool "p" is closed' }]);
  });
});

describe('LabelQueue: a send that could not reach the server', () => {
  it('is retrying, not unanswered (the top bar says it cannot reach the engine)', async () => {
    const q = new LabelQueue({ stallMs: 20_000, retryDelays: [60_000], send: async () => Promise.reject(new ClientError('cannot reach the QPairs server (Failed to fetch)', 'transport')) });
    q.enqueue(L('a', '1'));
    await tick();
    await tick();
    expect(q.counts()).toEqual({ unsaved: 1, failed: 0, retrying: 1, busy: 0, unanswered: 0 });
    q.stop();
  });
});
