/**
 * The Export screen's serve-mode downloads (download-queue.ts): offered one at a time, in order, each
 * once the server says the one before has ended (sent, failed, expired); a failed one is offered again
 * by Retry; what the server says of an id becomes the file's state; questions that fail are asked again,
 * less often; stop() ends it all.
 */
import { describe, expect, it } from 'vitest';
import type { DownloadStatus } from '../../shared/gold';
import { DownloadQueue, stateFromStatus, type QueuedDownload } from './download-queue';

type Answer = Omit<DownloadStatus, 'id'> | Error;
const ready = (failures = 0, failure?: string): Answer => ({ state: 'ready', sentBytes: 0, failures, ...(failure ? { failure } : {}) });
const sending = (sentBytes: number): Answer => ({ state: 'sending', sentBytes, failures: 0 });
const sent = (bytes: number, failures = 0): Answer => ({ state: 'sent', sentBytes: bytes, failures });

/**
 * A fake server: each id answers its scripted statuses in turn, one per question (the last one again once
 * they run out). Records what was offered, each question, each pause and each state seen.
 */
function fakeServer(script: Record<string, Answer[]>) {
  const log: string[] = [];
  const waits: number[] = [];
  const seen: Array<readonly QueuedDownload[]> = [];
  const deps = {
    offer: (d: { id: string }) => log.push(`offer ${d.id}`),
    status: async (ids: string[]): Promise<DownloadStatus[]> => {
      return ids.map((id) => {
        const answers = script[id]!;
        const a = answers.length > 1 ? answers.shift()! : answers[0]!;
        log.push(`ask ${id}: ${a instanceof Error ? 'error' : a.state}`);
        if (a instanceof Error) throw a;
        return { id, ...a };
      });
    },
    wait: async (ms: number) => void waits.push(ms),
    onChange: (items: readonly QueuedDownload[]) => seen.push(items),
  };
  const states = (): string[] => seen.map((items) => items.map((i) => i.state.kind).join(' '));
  return { deps, log, waits, seen, states };
}

const files = (...ids: string[]) => ids.map((id) => ({ id, name: `${id}.jsonl`, bytes: 100 }));

describe('DownloadQueue', () => {
  it('offers one file at a time, in order, the next once the server says the one before has ended', async () => {
    const server = fakeServer({
      a: [ready(), sending(40), sending(100), sent(100)],
      b: [ready(1, 'the connection closed before the end (10 of 100 bytes sent)')],
      c: [sent(100)],
    });
    const q = new DownloadQueue(files('a', 'b', 'c'), server.deps);
    await q.run();
    expect(server.log).toEqual(['offer a', 'ask a: ready', 'ask a: sending', 'ask a: sending', 'ask a: sent', 'offer b', 'ask b: ready', 'offer c', 'ask c: sent']);
    // Never two at once: each state change has at most one file offered or being sent, and none after it has begun.
    expect(server.states()).toEqual([
      'waiting waiting waiting',
      'offered waiting waiting',
      'sending waiting waiting',
      'sending waiting waiting',
      'sent waiting waiting',
      'sent offered waiting',
      'sent failed waiting',
      'sent failed offered',
      'sent failed sent',
    ]);
    expect(server.seen[3]![0]!.state).toEqual({ kind: 'sending', sentBytes: 100 });
    expect(q.files[1]!.state).toEqual({ kind: 'failed', why: 'the connection closed before the end (10 of 100 bytes sent)' });
  });

  it('Retry offers a failed file again, and it fails again only when the server counts another failure', async () => {
    const server = fakeServer({ a: [ready(1, 'cut off'), ready(1, 'cut off'), ready(1, 'cut off'), sending(5), sent(100, 1)] });
    const q = new DownloadQueue(files('a'), server.deps);
    await q.run();
    expect(q.files[0]!.state.kind).toBe('failed');
    await q.retry('a');
    expect(q.files[0]!.state.kind).toBe('sent');
    expect(server.log).toEqual(['offer a', 'ask a: ready', 'offer a', 'ask a: ready', 'ask a: ready', 'ask a: sending', 'ask a: sent']);
  });

  it('an id the server no longer has, or expired, is expired: Retry does not offer it', async () => {
    const server = fakeServer({ a: [{ state: 'unknown', sentBytes: 0, failures: 0 }], b: [{ state: 'expired', sentBytes: 0, failures: 1, failure: 'cut off' }] });
    const q = new DownloadQueue(files('a', 'b'), server.deps);
    await q.run();
    expect(q.files.map((f) => f.state.kind)).toEqual(['expired', 'expired']);
    await q.retry('a');
    await q.retry('b');
    expect(server.log.filter((l) => l.startsWith('offer'))).toEqual(['offer a', 'offer b']);
  });

  it('asks again when a question fails, less often each time (at most every 5 s), then as often as before', async () => {
    const down = new Error('unreachable');
    const server = fakeServer({ a: [down, down, down, down, down, down, ready(), sent(100)] });
    await new DownloadQueue(files('a'), server.deps, 400).run();
    expect(server.waits).toEqual([400, 800, 1600, 3200, 5000, 5000, 5000, 400]);
    expect(server.log.at(-1)).toBe('ask a: sent');
  });

  it('Download again asks the browser again only while the file is offered and not begun', async () => {
    const server = fakeServer({ a: [ready(), ready(), sent(100)] });
    const q: DownloadQueue = new DownloadQueue(files('a'), { ...server.deps, wait: async () => void q.offerAgain('a') });
    await q.run();
    expect(server.log).toEqual(['offer a', 'offer a', 'ask a: ready', 'offer a', 'ask a: ready', 'offer a', 'ask a: sent']);
    q.offerAgain('a');
    expect(server.log.at(-1)).toBe('ask a: sent');
  });

  it('stop() ends it: nothing more is offered, asked or told', async () => {
    const server = fakeServer({ a: [ready(), sent(100)], b: [sent(100)] });
    const q: DownloadQueue = new DownloadQueue(files('a', 'b'), { ...server.deps, wait: async () => q.stop() });
    await q.run();
    expect(server.log).toEqual(['offer a']);
    expect(server.states()).toEqual(['waiting waiting', 'offered waiting']);
  });

  it('reads a status: ready with no new failure is unchanged', () => {
    expect(stateFromStatus({ id: 'a', state: 'ready', sentBytes: 0, failures: 2, failure: 'x' }, 2)).toBe('unchanged');
    expect(stateFromStatus({ id: 'a', state: 'ready', sentBytes: 0, failures: 3, failure: 'x' }, 2)).toEqual({ kind: 'failed', why: 'x' });
    // Failed for good (its file gone from the server's disk): expired, saying why; an earlier failure's reason is not this one's.
    expect(stateFromStatus({ id: 'a', state: 'expired', sentBytes: 0, failures: 3, failure: 'gone' }, 2)).toEqual({ kind: 'expired', why: 'gone' });
    expect(stateFromStatus({ id: 'a', state: 'expired', sentBytes: 0, failures: 2, failure: 'gone' }, 2)).toEqual({ kind: 'expired' });
  });
});
