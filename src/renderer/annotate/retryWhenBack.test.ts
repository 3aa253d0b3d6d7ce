import { describe, expect, it, vi } from 'vitest';
import type { LabelAck } from '../../shared/contract';
import { ClientError, type ConnectionState } from '../client/types';
import { LabelQueue } from './labelQueue';
import { retryWhenBack } from './retryWhenBack';

const fakeClient = () => {
  let fn: ((s: ConnectionState) => void) | null = null;
  return {
    onConnection: (f: (s: ConnectionState) => void) => {
      fn = f;
      f('connecting');
      return () => {
        fn = null;
      };
    },
    set: (s: ConnectionState) => fn?.(s),
  };
};

describe('retryWhenBack', () => {
  it('a label waiting out its backoff is sent as soon as the browser is back online', async () => {
    vi.useFakeTimers();
    try {
      let offline = true;
      const sent: string[] = [];
      const q = new LabelQueue({
        retryDelays: [15_000],
        send: async (op): Promise<LabelAck> => {
          sent.push(op.candidateId);
          if (offline) throw new ClientError('cannot reach the QPairs server (Failed to fetch)', 'transport');
          return { seq: 1, saved: true, record: null };
        },
      });
      const win = new EventTarget();
      const client = fakeClient();
      const unwire = retryWhenBack(client, [q], win);
      q.enqueue({ pool: 'p', queryId: 'q', candidateId: 'a', annotator: 'ann', value: '1' });
      await vi.advanceTimersByTimeAsync(0);
      expect(q.ops()[0]!.state).toBe('retrying');
      offline = false;
      await vi.advanceTimersByTimeAsync(1000);
      expect(sent).toEqual(['a']);
      win.dispatchEvent(new Event('online'));
      await vi.advanceTimersByTimeAsync(0);
      expect(sent).toEqual(['a', 'a']);
      expect(q.ops()).toHaveLength(0);
      unwire();
    } finally {
      vi.useRealTimers();
    }
  });

  it('the stream opening again (after closing) retries and gives up on a send on its way; the first open only retries', () => {
    const calls: Array<{ lost?: boolean }> = [];
    const queue = { retryNow: (o: { lost?: boolean } = {}) => void calls.push(o) };
    const win = new EventTarget();
    const client = fakeClient();
    let reconnects = 0;
    const unwire = retryWhenBack(client, [queue, queue], win, () => reconnects++);
    client.set('open');
    expect(calls).toEqual([{ lost: false }, { lost: false }]);
    client.set('closed');
    client.set('open');
    expect(calls.slice(2)).toEqual([{ lost: true }, { lost: true }]);
    expect(reconnects).toBe(1);
    win.dispatchEvent(new Event('online'));
    expect(calls.slice(4)).toEqual([{ lost: true }, { lost: true }]);
    unwire();
    win.dispatchEvent(new Event('online'));
    client.set('open');
    expect(calls).toHaveLength(6);
  });
});
