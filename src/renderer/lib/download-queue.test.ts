/**
 * The Export screen's serve-mode downloads (download-queue.ts): offered one at a time, in order, each
 * once the server says the one before has ended (sent, failed, expired); a failed one is offered again
 * by Retry; what the server says of an id becomes the file's state; questions that fail are asked again,
 * less often; stop() ends it all.
 */
import { describe, expect, it } from 'vitest';
import type { DownloadStatus } from '../../shared/gold';
import { clockTime, downloadStateText } from '../screens/exportDownloadsView';
import { DownloadQueue, LAPSE_RECHECK_MS, STALLED_MS, stateFromStatus, type QueuedDownload } from './download-queue';

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

  it('a file still asked for after STALLED_MS while the server answers is said stalled; the next waits, nothing is offered on its own', async () => {
    let clock = 0;
    const server = fakeServer({ a: [ready(), ready(), ready(), ready(), ready(), sent(100)], b: [sent(100)] });
    const q: DownloadQueue = new DownloadQueue(files('a', 'b'), { ...server.deps, now: () => clock, wait: async (ms) => void (clock += ms) }, STALLED_MS / 4);
    await q.run();
    const stalled = server.seen.findIndex((items) => items[0]!.state.kind === 'offered' && items[0]!.state.stalled === true);
    expect(stalled, 'said stalled').toBeGreaterThan(0);
    expect(server.seen[stalled]!.map((i) => i.state.kind)).toEqual(['offered', 'waiting']);
    // Said after the fourth answer (STALLED_MS after it was offered), not before; offered once until then.
    expect(server.log.slice(0, 5)).toEqual(['offer a', 'ask a: ready', 'ask a: ready', 'ask a: ready', 'ask a: ready']);
    expect(server.seen.slice(0, stalled).every((items) => items[0]!.state.kind !== 'offered' || !items[0]!.state.stalled)).toBe(true);
    expect(server.log.filter((l) => l === 'offer a')).toHaveLength(1);
    expect(q.files.map((f) => f.state.kind)).toEqual(['sent', 'sent']);
  });

  it('is not said stalled while the server cannot be reached, and Download again starts its time over', async () => {
    let clock = 0;
    const down = new Error('unreachable');
    const server = fakeServer({ a: [down, down, down, down, down, ready(), ready(), sent(100)] });
    const q: DownloadQueue = new DownloadQueue(files('a'), { ...server.deps, now: () => clock, wait: async (ms) => void (clock += ms) }, 4_000);
    await q.run();
    expect(server.seen.some((items) => items[0]!.state.kind === 'offered' && items[0]!.state.stalled)).toBe(true);
    const again = fakeServer({ a: [ready(), ready(), ready(), sent(100)] });
    let asks = 0;
    const q2: DownloadQueue = new DownloadQueue(files('a'), {
      ...again.deps,
      now: () => clock,
      wait: async (ms) => {
        clock += ms;
        if (++asks === 2) q2.offerAgain('a');
      },
    }, STALLED_MS / 2);
    await q2.run();
    // Stalled at the second answer, had Download again not started its time over at the second pause.
    expect(again.seen.some((items) => items[0]!.state.kind === 'offered' && items[0]!.state.stalled)).toBe(false);
    const unreachable = fakeServer({ a: [down, down, down, down, down, down, sent(100)] });
    await new DownloadQueue(files('a'), { ...unreachable.deps, now: () => clock, wait: async (ms) => void (clock += ms) }, STALLED_MS).run();
    expect(unreachable.seen.some((items) => items[0]!.state.kind === 'offered' && items[0]!.state.stalled)).toBe(false);
  });

  it('once the ids expire by the clock, files not sent turn expired with no question needed; the server, when it answers, wins', async () => {
    const exp = (ids: string[], expiresAt: number) => files(...ids).map((f) => ({ ...f, expiresAt }));
    // a failed, b sent: the run is over. At 1000 the failed one turns expired, though the server cannot be reached.
    const server = fakeServer({ a: [ready(1, 'cut off'), new Error('unreachable')], b: [sent(100)] });
    const q = new DownloadQueue(exp(['a', 'b'], 1_000), server.deps);
    await q.run();
    expect(q.nextExpiry).toBe(1_000);
    q.lapse(999);
    expect(q.files.map((f) => f.state.kind)).toEqual(['failed', 'sent']);
    q.lapse(1_000);
    expect(q.files.map((f) => f.state.kind)).toEqual(['expired', 'sent']);
    expect(q.nextExpiry).toBeUndefined();
    await Promise.resolve();
    expect(server.log.at(-1)).toBe('ask a: error');
    expect(q.files[0]!.state.kind, 'unreachable: the clock stands').toBe('expired');
    await q.retry('a');
    expect(server.log.filter((l) => l.startsWith('offer'))).toEqual(['offer a', 'offer b']);

    // The server still has it (the screen's clock ran ahead): back to failed, looked at again a minute later
    // (then the server has expired it too); Retry fetches it meanwhile.
    let clock = 5_000;
    const ahead = fakeServer({ a: [ready(1, 'cut off'), ready(1, 'cut off'), { state: 'expired', sentBytes: 0, failures: 1, failure: 'cut off' }] });
    const q2 = new DownloadQueue(exp(['a'], 1_000), { ...ahead.deps, now: () => clock });
    await q2.run();
    q2.lapse();
    expect(q2.files[0]!.state.kind).toBe('expired');
    await new Promise((r) => setTimeout(r, 0));
    expect(q2.files[0]!.state).toEqual({ kind: 'failed', why: 'cut off' });
    expect(q2.nextExpiry).toBe(5_000 + LAPSE_RECHECK_MS);
    q2.lapse(5_000 + LAPSE_RECHECK_MS - 1);
    expect(q2.files[0]!.state.kind, 'not again before the minute').toBe('failed');
    clock += LAPSE_RECHECK_MS;
    q2.lapse();
    await new Promise((r) => setTimeout(r, 0));
    expect(q2.files[0]!.state.kind).toBe('expired');
    expect(ahead.log.slice(-2)).toEqual(['ask a: ready', 'ask a: expired']);
    const retried = fakeServer({ a: [ready(1, 'cut off'), ready(1, 'cut off'), ready(1, 'cut off'), sent(100, 1)] });
    const q4 = new DownloadQueue(exp(['a'], 1_000), retried.deps);
    await q4.run();
    q4.lapse(5_000);
    await new Promise((r) => setTimeout(r, 0));
    await q4.retry('a');
    expect(q4.files[0]!.state.kind).toBe('sent');

    // While a file is asked for: it and the ones waiting turn expired; the server's expired confirms it, and nothing after is offered.
    let q3: DownloadQueue | null = null;
    const gone = fakeServer({ a: [ready(), { state: 'expired', sentBytes: 0, failures: 0 }], b: [{ state: 'expired', sentBytes: 0, failures: 0 }] });
    q3 = new DownloadQueue(exp(['a', 'b'], 1_000), { ...gone.deps, wait: async () => q3!.lapse(1_000) });
    await q3.run();
    expect(gone.states()).toContain('expired expired');
    expect(q3.files.map((f) => f.state.kind)).toEqual(['expired', 'expired']);
    expect(gone.log.filter((l) => l.startsWith('offer'))).toEqual(['offer a']);
  });

  it("a page whose clock is minutes off holds the server's expiry on its own clock: it shows and lapses it when the server does", async () => {
    const MIN = 60_000;
    const server = 1_800_000_000_000;
    const expiresAt = server + 15 * MIN;
    // The page's clock 7 minutes behind the server's: told the server's time with the export, the file goes at the page's +15 min.
    let behind = server - 7 * MIN;
    const slow = fakeServer({ a: [ready()] });
    const q: DownloadQueue = new DownloadQueue([{ ...files('a')[0]!, expiresAt }], { ...slow.deps, now: () => behind, serverNow: server, wait: async (): Promise<void> => q.stop() });
    expect(q.files[0]!.expiresAt).toBe(behind + 15 * MIN);
    expect(q.nextExpiry).toBe(behind + 15 * MIN);
    expect(downloadStateText({ ...q.files[0]!, state: { kind: 'offered', stalled: true } })).toContain(`until ${clockTime(behind + 15 * MIN)},`);
    q.lapse(behind + 15 * MIN - 1);
    expect(q.files[0]!.state.kind, 'not before the server lets it go').toBe('waiting');
    behind += 15 * MIN;
    q.lapse();
    expect(q.files[0]!.state.kind, 'when the server lets it go, not 7 minutes later').toBe('expired');

    // The page's clock 7 minutes ahead, the server's time known from its answers only: not expired 7 minutes early.
    const ahead = server + 7 * MIN;
    let polls = 0;
    const fast = fakeServer({ a: [{ state: 'ready', sentBytes: 0, failures: 0, expiresAt, now: server }] });
    // One question, then the pause before the next lasts the rest of the test.
    const q2 = new DownloadQueue([{ ...files('a')[0]!, expiresAt }], { ...fast.deps, now: () => ahead, wait: () => (polls++ ? new Promise<void>(() => {}) : Promise.resolve()) });
    void q2.run();
    await new Promise((r) => setTimeout(r, 0));
    expect(fast.log).toEqual(['offer a', 'ask a: ready']);
    expect(q2.files[0]!.expiresAt).toBe(ahead + 15 * MIN);
    q2.lapse(ahead + 8 * MIN);
    expect(q2.files[0]!.state.kind, "past the server's expiry on the page's clock, not on the server's").toBe('offered');
    q2.lapse(ahead + 15 * MIN);
    expect(q2.files[0]!.state.kind).toBe('expired');
  });

  it('reads a status: ready with no new failure is unchanged', () => {
    expect(stateFromStatus({ id: 'a', state: 'ready', sentBytes: 0, failures: 2, failure: 'x' }, 2)).toBe('unchanged');
    expect(stateFromStatus({ id: 'a', state: 'ready', sentBytes: 0, failures: 3, failure: 'x' }, 2)).toEqual({ kind: 'failed', why: 'x' });
    // Failed for good (its file gone from the server's disk): expired, saying why; an earlier failure's reason is not this one's.
    expect(stateFromStatus({ id: 'a', state: 'expired', sentBytes: 0, failures: 3, failure: 'gone' }, 2)).toEqual({ kind: 'expired', why: 'gone' });
    expect(stateFromStatus({ id: 'a', state: 'expired', sentBytes: 0, failures: 2, failure: 'gone' }, 2)).toEqual({ kind: 'expired' });
  });
});
