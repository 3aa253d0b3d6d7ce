/**
 * Issue 23, items 6 and 7 on the wire: a caller's computing commands run one at a time, a few wait,
 * the rest get 429 with Retry-After — while another caller's labels are answered in between; a full
 * disk is a 507 with a plain message; no stack trace ever goes over the wire.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { isCommandName, parseArgs, ContractError, type EventName } from '../../shared/contract';
import { EventHub } from '../engine/events';
import { FairUse, BusyError } from './fair-use';
import { until, useStaticDir } from './test-serve';
import { startServer, type RunningServer, type ServeCaller, type ServeEngine } from './server';

/**
 * A fake engine whose searches are held until the test lets each one go (`releaseOne`), like a
 * long BM25 query, so the test states by order what happens while a search runs; labels answer
 * at once.
 */
class SlowEngine implements ServeEngine {
  readonly hub = new EventHub();
  /** Searches started and ended, in order. */
  started = 0;
  ended = 0;
  inFlight = 0;
  maxInFlight = 0;
  fail: Error | null = null;
  private readonly held: Array<() => void> = [];
  private open = false;
  canSee(): boolean {
    return true;
  }
  /** Lets the oldest held search end. */
  releaseOne(): void {
    this.held.shift()?.();
  }
  /** Lets every search, held or later, end. */
  releaseAll(): void {
    this.open = true;
    while (this.held.length) this.held.shift()!();
  }
  async invoke(command: unknown, args: unknown, _ctx?: ServeCaller): Promise<unknown> {
    if (!isCommandName(command)) throw new ContractError('unknown', 'invalid-argument');
    parseArgs(command, args);
    if (this.fail) throw this.fail;
    if (command === 'questions.search') {
      // Waits rather than blocks: the test's client shares this event loop (the benchmark,
      // scripts/bench/fair-use.ts, floods a real server from another process and measures times).
      this.started++;
      this.inFlight++;
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
      if (!this.open) await new Promise<void>((r) => this.held.push(r));
      this.inFlight--;
      this.ended++;
      return { text: 'x', source: null, results: [] };
    }
    return { seq: 1, saved: true, record: null };
  }
  emit(event: EventName, payload: unknown): void {
    this.hub.emit(event, payload as never);
  }
}

const staticDir = useStaticDir('qpairs-fair-');
const running: RunningServer[] = [];
afterEach(async () => {
  while (running.length) await running.pop()!.close();
});

const TOKENS = { alice: 'alice-secret-1', bob: 'bob-secret-22' };
async function serve(engine: SlowEngine): Promise<RunningServer> {
  const s = await startServer({ engine, port: 0, staticDir: staticDir(), tokens: TOKENS, busyDelayMs: 200 });
  running.push(s);
  return s;
}
async function call(s: RunningServer, who: keyof typeof TOKENS, command: string, args: unknown): Promise<{ status: number; body: any; retryAfter: string | null; ms: number }> {
  const t0 = performance.now();
  const r = await fetch(`${s.url}/api/invoke`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-QPairs': '1', Authorization: `Bearer ${TOKENS[who]}` },
    body: JSON.stringify({ command, args }),
  });
  return { status: r.status, body: await r.json(), retryAfter: r.headers.get('retry-after'), ms: performance.now() - t0 };
}

describe('fair use per caller', () => {
  it('FairUse: one runs, four wait, the sixth is refused; the queue drains in order', async () => {
    const f = new FairUse(1, 4);
    const releases = await Promise.all([f.enter('a')]);
    const waiting = [1, 2, 3, 4].map(() => f.enter('a'));
    expect(f.load('a')).toEqual({ running: 1, waiting: 4 });
    await expect(f.enter('a')).rejects.toBeInstanceOf(BusyError);
    // Another caller is not held up by a's queue.
    (await f.enter('b'))();
    releases[0]!();
    for (const w of waiting) (await w)();
    await new Promise((r) => setImmediate(r));
    expect(f.load('a')).toEqual({ running: 0, waiting: 0 });
  });

  it('a flood of searches from one token: one runs at a time, four queue, the rest get a held 429 with Retry-After; another token’s labels go between', async () => {
    const engine = new SlowEngine();
    const s = await serve(engine);
    const flood = Array.from({ length: 32 }, () => call(s, 'alice', 'questions.search', { text: 'x'.repeat(10_000) }));
    let settled = 0;
    for (const f of flood) void f.then(() => settled++, () => settled++);
    // Her first search runs (held), four wait, and the other 27 are refused (each after its hold).
    await until('27 of the flood are answered', () => settled === 27);
    expect(engine).toMatchObject({ started: 1, ended: 0, inFlight: 1 });
    // Bob labels between two of her searches: each label is answered while her search runs and the
    // rest of her queue waits, not after it; only then does the test let her next search go.
    for (let i = 0; i < 5; i++) {
      const label = call(s, 'bob', 'label.set', { pool: 'p', queryId: 'q', candidateId: 'c', annotator: 'bob', value: '1' });
      let answered = false;
      void label.then(() => (answered = true), () => (answered = true));
      try {
        await until(`label ${i + 1} is answered while her search ${i + 1} runs`, () => answered);
      } finally {
        if (!answered) engine.releaseAll();
      }
      expect((await label).status).toBe(200);
      expect(engine).toMatchObject({ started: i + 1, ended: i, inFlight: 1 });
      engine.releaseOne();
      if (i < 4) await until(`her search ${i + 2} starts`, () => engine.started === i + 2);
    }
    const done = await Promise.all(flood);
    const ok = done.filter((r) => r.status === 200).length;
    const busy = done.filter((r) => r.status === 429);
    // They all arrived while her first search ran: 1 runs and 4 wait, the others are turned away.
    // Never two of hers at the same time.
    expect(engine.maxInFlight).toBe(1);
    expect(engine.ended).toBe(5);
    expect(ok).toBe(5);
    expect(busy).toHaveLength(27);
    for (const b of busy) {
      expect(b.retryAfter).toBe('1');
      expect(b.body.code).toBe('busy');
      expect(b.ms).toBeGreaterThanOrEqual(190); // held, so a client resending at once cannot spin the server
    }
  });
});

describe('errors over the wire', () => {
  it('a full disk answers 507 with a plain message; labeling resumes once it is gone', async () => {
    const engine = new SlowEngine();
    const s = await serve(engine);
    engine.fail = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    const r = await call(s, 'bob', 'label.set', { pool: 'p', queryId: 'q', candidateId: 'c', annotator: 'bob', value: '1' });
    expect(r.status).toBe(507);
    expect(r.body).toEqual({ code: 'storage-full', message: expect.stringMatching(/disk is full: nothing was saved/) });
    engine.fail = null;
    expect((await call(s, 'bob', 'label.set', { pool: 'p', queryId: 'q', candidateId: 'c', annotator: 'bob', value: '1' })).status).toBe(200);
  });

  it('an internal error carries no stack trace', async () => {
    const engine = new SlowEngine();
    const s = await serve(engine);
    const e = new TypeError('cannot read properties of undefined');
    e.stack = `TypeError: cannot read properties of undefined\n    at setLabel (/srv/qpairs/out/main/index.js:1234:5)\n    at Engine.invoke (/srv/qpairs/out/main/index.js:99:1)`;
    engine.fail = e;
    const r = await call(s, 'bob', 'label.set', { pool: 'p', queryId: 'q', candidateId: 'c', annotator: 'bob', value: '1' });
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ code: 'internal', message: 'internal error: cannot read properties of undefined' });
    const multi = new Error('first line\n    at secret (/srv/x.js:1:1)');
    engine.fail = multi;
    const r2 = await call(s, 'bob', 'label.set', { pool: 'p', queryId: 'q', candidateId: 'c', annotator: 'bob', value: '1' });
    expect(JSON.stringify(r2.body)).not.toMatch(/\bat \w+ \(|\/srv\//);
  });
});
