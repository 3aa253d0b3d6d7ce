/**
 * A page that goes (reloaded, closed) while its requests wait: the server sees their connections close and
 * stops counting them, so the page that replaces it is not refused for its predecessor's requests — those
 * waiting for a computing slot leave the queue (and never run), those in flight stop counting against the
 * caller's 16. A label the engine is writing when its page goes is still written and kept.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { isCommandName, parseArgs, ContractError, type EventName } from '../../shared/contract';
import { EventHub } from '../engine/events';
import { until, useStaticDir } from './test-serve';
import { startServer, type RunningServer, type ServeEngine } from './server';

/** An engine whose searches and labels are held until the test lets them go (neither heeds the caller's signal, as a write in progress does not). */
class HeldEngine implements ServeEngine {
  readonly hub = new EventHub();
  started: string[] = [];
  written: string[] = [];
  private readonly held: Array<() => void> = [];
  canSee(): boolean {
    return true;
  }
  releaseAll(): void {
    while (this.held.length) this.held.shift()!();
  }
  async invoke(command: unknown, args: unknown): Promise<unknown> {
    if (!isCommandName(command)) throw new ContractError('unknown', 'invalid-argument');
    parseArgs(command, args);
    if (command === 'questions.search') {
      const text = (args as { text: string }).text;
      this.started.push(text);
      await new Promise<void>((r) => this.held.push(r));
      return { text, source: null, results: [] };
    }
    if (command === 'label.set') {
      await new Promise<void>((r) => this.held.push(r));
      this.written.push((args as { candidateId: string }).candidateId);
      return { seq: 1, saved: true, record: null };
    }
    return [];
  }
  emit(event: EventName, payload: unknown): void {
    this.hub.emit(event, payload as never);
  }
}

const staticDir = useStaticDir('qpairs-gone-page-');
const running: RunningServer[] = [];
afterEach(async () => {
  while (running.length) await running.pop()!.close();
});

const headers = { 'Content-Type': 'application/json', 'X-QPairs': '1', Authorization: 'Bearer alice-secret-1' };
function send(s: RunningServer, command: string, args: unknown, signal?: AbortSignal): Promise<number> {
  return fetch(`${s.url}/api/invoke`, { method: 'POST', headers, body: JSON.stringify({ command, args }), ...(signal ? { signal } : {}) }).then(
    async (r) => (await r.arrayBuffer(), r.status),
    () => -1,
  );
}

describe('a page that goes', () => {
  it('leaves no computing request waiting: the next page’s search is queued, not refused, and the gone ones never run', async () => {
    const engine = new HeldEngine();
    const s = await startServer({ engine, port: 0, staticDir: staticDir(), tokens: { alice: 'alice-secret-1' }, busyDelayMs: 0 });
    running.push(s);
    const page = new AbortController();
    // Her first page: one search runs, four wait — her computing slot and queue are full.
    const earlier = ['a', 'b', 'c', 'd', 'e'].map((text) => send(s, 'questions.search', { text }, page.signal));
    await until('her first search runs', () => engine.started.length === 1);
    expect(await send(s, 'questions.search', { text: 'refused' })).toBe(429);
    // She reloads: the first page's connections close.
    page.abort();
    await Promise.all(earlier);
    // The new page's search waits its turn (the gone page's closes may reach the server a moment after its
    // fetches failed here: a search refused before that is sent again, as the page does).
    let next: Promise<number> = Promise.resolve(429);
    await until('the new page’s search is queued, not refused', async () => {
      next = send(s, 'questions.search', { text: 'next' });
      return (await Promise.race([next, new Promise((r) => setTimeout(() => r('waiting'), 100))])) === 'waiting';
    });
    engine.releaseAll();
    await until('the new page’s search runs', () => engine.started.includes('next'));
    engine.releaseAll();
    expect(await next).toBe(200);
    // Of the first page's, only the search already running had started.
    expect(engine.started).toEqual(['a', 'next']);
  });

  it('stops counting its requests in flight, and a label being written when it went is written', async () => {
    const engine = new HeldEngine();
    const s = await startServer({ engine, port: 0, staticDir: staticDir(), tokens: { alice: 'alice-secret-1' }, perCallerRequests: 4, busyDelayMs: 0 });
    running.push(s);
    const page = new AbortController();
    const label = { pool: 'p', queryId: 'q', annotator: 'alice', value: '1' };
    const earlier = ['c1', 'c2', 'c3', 'c4'].map((candidateId) => send(s, 'label.set', { ...label, candidateId }, page.signal));
    await until('her four requests are in flight', async () => (await send(s, 'pool.list', {})) === 429);
    page.abort();
    await Promise.all(earlier);
    // The new page's first read is answered: the gone page's four no longer count.
    await until('a read of the new page is answered', async () => (await send(s, 'pool.list', {})) === 200);
    engine.releaseAll();
    await until('the labels are written', () => engine.written.length === 4);
    expect(engine.written.sort()).toEqual(['c1', 'c2', 'c3', 'c4']);
  });
});
