/**
 * The label outbox: every label the annotator gives goes here first and is sent to the engine
 * one at a time, in order. Nothing is dropped silently:
 *  - a transport failure (server unreachable) keeps the label queued and retries with backoff;
 *  - an engine refusal (bad value, forbidden, …) marks it "failed" and keeps it visible until
 *    the user retries or dismisses it, or a later label of the same pair is saved (it is outdated then);
 *    one refused as a late copy (LABEL_SUPERSEDED: the page's later label of the pair was taken) is dropped quietly;
 *  - unsaved labels are mirrored to storage (the app uses sessionStorage: per tab), so a reload
 *    re-sends them.
 * Re-sending a label the engine already stored is harmless (the engine skips unchanged values).
 * A request with no answer after `stallMs` is asked about (`onHand`): while the server says it has it (busy: a
 * label waits behind a long write), it is waited for, the op marked `busy`; otherwise (or when the connection comes
 * back while it is on its way) it is treated as lost in transport and sent again. Each label carries a stamp (the
 * page's id, its place in the outbox) so the engine takes it once and refuses the stalled copy should it arrive after
 * a newer label of the pair (engine/label-stamps.ts).
 */
import type { CommandArgs, LabelAck } from '../../shared/contract';
import { newRequestId, stallMessage, stallVerdict } from '../client/stall';
import { ClientError, isTransportError, type AppClient } from '../client/types';
import { LABEL_SUPERSEDED } from '../../shared/labels';
import type { KV } from '../lib/storage';
import type { RedoEntry } from './historyEntry';
import { ackOfResent } from './resentAck';

/** A label.set call's pair, annotator and value (the contract's), with what the outbox keeps beside them. */
export interface LabelInput extends Pick<CommandArgs<'label.set'>, 'pool' | 'queryId' | 'candidateId' | 'annotator' | 'value'> {
  /** Issue 24: the note sent with the label (text sets it, '' removes it); omitted: left as it is. */
  note?: string;
  /** Not sent: the pair's note before this op changed it (what undo puts back). */
  noteBefore?: string | null;
  /**
   * Not sent: set on an undo's op only (undo does not take such an op back in turn): what it takes
   * back, for redo (U) once the op is saved — an undo the engine refuses took nothing back, so it
   * leaves nothing to redo.
   */
  undone?: RedoEntry;
  /** Not sent: this op is a redo's (undo takes it back; it leaves the rest of the redo history). */
  redoing?: boolean;
  /** Sent with a redo's note: the note the undo left, so the engine refuses the redo once it changed since (label.set/review.settle ifNote). */
  ifNote?: string | null;
  /**
   * The workspace it was given in (app.info workspaceId; the queue sets it, an undo's or a redo's op names the undone
   * change's): the engine refuses it in another.
   */
  workspace?: string;
  /** Not sent: the pair's label the page showed when this one was given (what tells a resent label's "unchanged" answer apart, resentAck.ts). */
  valueBefore?: string | null;
  /** Sent with a judge's ruling (review.settle ifRuling): the ruling Review showed on the pair, null for none; the engine refuses it when another judge ruled otherwise since. */
  ifRuling?: { judge: string; value: string } | null;
  /** The page and this label's place in its outbox (the queue sets it): the engine takes it once, never after a later one of the pair. */
  stamp?: { tab: string; n: number };
}

export type OpState = 'pending' | 'saving' | 'retrying' | 'failed';

export interface LabelOp extends LabelInput {
  id: number;
  state: OpState;
  attempts: number;
  error?: string;
  /**
   * An earlier send of it may have been saved: it failed in transport (the answer may be what was lost), or the
   * page was reloaded while it was on its way. Its answer is then read by ackOfResent (resentAck.ts).
   */
  maybeSaved?: boolean;
  /** On its way, with no answer for `stallMs`, and the server says it has it: the server is busy, not out of reach. */
  busy?: boolean;
  /**
   * Its last send was given up on for want of an answer (stallMs; the server did not say it had it): the server may be
   * out of reach, or too busy to answer even that (a long synchronous step) — unlike a send that could not reach it.
   */
  unanswered?: boolean;
}

export interface LabelQueueOptions {
  /**
   * Sends one label; `signal` aborts it once the queue gave up on it (stallMs, retryNow lost): its connection is freed.
   * `requestId` names this send (what `onHand` is asked about).
   */
  send: (op: LabelInput, signal: AbortSignal, requestId: string) => Promise<LabelAck>;
  /** Whether the server still has send `requestId` on hand (AppClient.onHand); absent: a stalled send is taken as lost. */
  onHand?: AppClient['onHand'];
  storage?: KV;
  storageKey?: string;
  /** Backoff for transport failures, ms (the last one repeats). */
  retryDelays?: number[];
  onSaved?: (op: LabelOp, ack: LabelAck) => void;
  /**
   * The workspace labels are given in now (app.info workspaceId): each label keeps the one it was given in, so one
   * still queued when the server comes back on another workspace is refused there, not saved into it.
   */
  workspace?: () => string | null;
  /** A send with no answer after this many ms is taken as lost in transport (retried); omitted: it is waited for. */
  stallMs?: number;
  /** This page's id in the labels' stamps (default: a random one, new on every load). */
  tab?: string;
}

/** A random page id (crypto.getRandomValues works on a plain-HTTP page too, unlike randomUUID). */
function newTabId(): string {
  return Array.from(globalThis.crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, '0')).join('');
}

export const pairKey = (pool: string, annotator: string, queryId: string, candidateId: string): string =>
  `${pool}\u0000${annotator}\u0000${queryId}\u0000${candidateId}`;

/**
 * Whether saving `newer` leaves nothing of the refused `older` (given before it) to save: the same pair, and
 * `older`'s note (if it set one) set again by `newer`.
 */
function supersedes(newer: LabelOp, older: LabelOp): boolean {
  return (
    older.state === 'failed' &&
    pairKey(older.pool, older.annotator, older.queryId, older.candidateId) === pairKey(newer.pool, newer.annotator, newer.queryId, newer.candidateId) &&
    (older.note === undefined || newer.note !== undefined)
  );
}

export class LabelQueue {
  private queue: LabelOp[] = [];
  private nextId = 1;
  private running = false;
  private listeners = new Set<() => void>();
  private idleWaiters: Array<() => void> = [];
  private wake: (() => void) | null = null;
  private readonly delays: number[];
  private stopped = false;
  private v = 0;
  private saved = 0;
  private last: LabelOp | null = null;
  private readonly tab: string;
  private nextN = 1;
  /** Gives up on the send on its way now (the connection came back: its answer may never come). */
  private cut: (() => void) | null = null;
  /** The send just given up on is sent again at once, not after the backoff. */
  private hurry = false;

  constructor(private readonly opts: LabelQueueOptions) {
    this.delays = opts.retryDelays ?? [1000, 2000, 4000, 8000, 15000];
    this.tab = opts.tab ?? newTabId();
    const saved = this.load();
    if (saved.length) {
      this.queue = saved.map((o) => ({ ...o, id: this.nextId++, state: o.state === 'failed' ? 'failed' : 'pending', attempts: 0, ...(o.state === 'saving' ? { maybeSaved: true } : {}) }));
      this.changed();
      this.pump();
    }
  }

  /** Queues a label (given in `input.workspace`, else the one labels are given in now); returns the queued op. */
  enqueue(input: LabelInput): LabelOp {
    const workspace = input.workspace ?? this.opts.workspace?.();
    const op: LabelOp = { ...input, ...(workspace ? { workspace } : {}), stamp: this.newStamp(), id: this.nextId++, state: 'pending', attempts: 0 };
    this.queue.push(op);
    this.changed();
    this.pump();
    return op;
  }

  /** Re-queues a failed op (or nudges a retrying one to go now). */
  retry(id: number): void {
    const op = this.queue.find((o) => o.id === id);
    if (!op) return;
    if (op.state === 'failed') {
      // Move it to the back so it stays in order after anything given meanwhile.
      this.queue = this.queue.filter((o) => o !== op);
      // Given again now: after anything given meanwhile in the engine's eyes too (a new stamp).
      this.queue.push({ ...op, state: 'pending', error: undefined, stamp: this.newStamp() });
      this.changed();
      this.pump();
    } else if (op.state === 'retrying') this.wake?.();
  }

  /** Drops a failed op the user gave up on. */
  dismiss(id: number): void {
    const op = this.queue.find((o) => o.id === id);
    if (!op || op.state !== 'failed') return;
    this.queue = this.queue.filter((o) => o !== op);
    this.changed();
  }

  /**
   * Retries every transport-waiting op now (e.g. when the connection comes back). `lost`: the label on its way
   * may have been sent into the broken connection, so it is given up on and sent again at once too.
   */
  retryNow(opts: { lost?: boolean } = {}): void {
    if (opts.lost && this.cut) {
      this.hurry = true;
      this.cut();
    }
    this.wake?.();
  }

  /** The workspace labels are given in now (the `workspace` option's), null when unknown. */
  givenIn(): string | null {
    return this.opts.workspace?.() ?? null;
  }

  ops(): readonly LabelOp[] {
    return this.queue;
  }

  /** The newest unsaved op for a pair, if any. */
  latestFor(key: string): LabelOp | undefined {
    for (let i = this.queue.length - 1; i >= 0; i--) {
      const o = this.queue[i]!;
      if (pairKey(o.pool, o.annotator, o.queryId, o.candidateId) === key) return o;
    }
    return undefined;
  }

  counts(): { unsaved: number; failed: number; retrying: number; busy: number; unanswered: number } {
    let failed = 0;
    let retrying = 0;
    let busy = 0;
    let unanswered = 0;
    for (const o of this.queue) {
      if (o.state === 'failed') failed++;
      else if (o.state === 'retrying') {
        retrying++;
        if (o.unanswered) unanswered++;
      } else if (o.state === 'saving' && o.busy) busy++;
    }
    return { unsaved: this.queue.length - failed, failed, retrying, busy, unanswered };
  }

  /** Resolves when nothing is waiting to be sent (failed ops do not count). */
  idle(): Promise<void> {
    if (!this.queue.some((o) => o.state !== 'failed')) return Promise.resolve();
    return new Promise((r) => this.idleWaiters.push(r));
  }

  /**
   * Before an undo: waits (up to `ms`) for the labels just given to be saved, telling the user
   * through `notice`; false when some are still unsaved (the undo must not run yet).
   */
  async settledForUndo(notice: (text: string) => void, ms = 4000): Promise<boolean> {
    if (this.counts().unsaved === 0) return true;
    notice('Saving the labels just given before undoing…');
    await Promise.race([this.idle(), new Promise((r) => setTimeout(r, ms))]);
    if (this.counts().unsaved === 0) return true;
    notice('Cannot undo yet: labels are still waiting to be saved.');
    return false;
  }

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => {
      this.listeners.delete(fn);
    };
  };

  stop(): void {
    this.stopped = true;
    this.wake?.();
  }

  /** Increases on every change (for useSyncExternalStore). */
  version = (): number => this.v;

  /** How many labels were saved since the page loaded. */
  savedCount(): number {
    return this.saved;
  }

  /** The label (or note) saved last since the page loaded, if any. */
  lastSaved(): LabelOp | null {
    return this.last;
  }

  private changed(): void {
    this.v++;
    this.persist();
    for (const fn of [...this.listeners]) fn();
    if (!this.queue.some((o) => o.state !== 'failed')) {
      const w = this.idleWaiters;
      this.idleWaiters = [];
      for (const r of w) r();
    }
  }

  private async pump(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (;;) {
        if (this.stopped) return;
        const op = this.queue.find((o) => o.state === 'pending' || o.state === 'retrying');
        if (!op) return;
        op.state = 'saving';
        op.unanswered = undefined;
        op.attempts++;
        this.changed();
        try {
          const ack = await this.answerOf(op, (signal, requestId) => this.opts.send({
            pool: op.pool,
            queryId: op.queryId,
            candidateId: op.candidateId,
            annotator: op.annotator,
            value: op.value,
            ...(op.note !== undefined ? { note: op.note } : {}),
            ...(op.ifNote !== undefined ? { ifNote: op.ifNote } : {}),
            ...(op.workspace ? { workspace: op.workspace } : {}),
            ...(op.stamp ? { stamp: op.stamp } : {}),
            ...(op.ifRuling !== undefined ? { ifRuling: op.ifRuling } : {}),
          }, signal, requestId));
          // A refused label given before this one on the same pair is outdated now: listed on, it would show its older
          // value as the pair's, and its Retry would write that value over this one.
          op.busy = undefined;
          const at = this.queue.indexOf(op);
          this.queue = this.queue.filter((o, i) => o !== op && !(i < at && supersedes(op, o)));
          this.saved++;
          this.last = op;
          this.opts.onSaved?.(op, op.maybeSaved ? ackOfResent(op, ack) : ack);
          this.changed();
        } catch (e) {
          op.busy = undefined;
          if (isTransportError(e)) {
            op.state = 'retrying';
            op.maybeSaved = true;
            op.error = (e as Error).message;
            this.changed();
            const now = this.hurry;
            this.hurry = false;
            if (!now) await this.sleep(this.delays[Math.min(op.attempts - 1, this.delays.length - 1)] ?? 5000);
          } else if (e instanceof ClientError && e.reason === LABEL_SUPERSEDED) {
            // A late copy: this page gave the pair a later label, which the engine took first (a copy of this one was
            // taken before it; a tab duplicated with its outbox sends the same labels). Already superseded: nothing to
            // save, nothing failed; listed, its Retry would write the older value over the newer one.
            this.queue = this.queue.filter((o) => o !== op);
            this.changed();
          } else {
            op.state = 'failed';
            op.error = (e as Error)?.message ?? String(e);
            this.changed();
          }
        }
      }
    } finally {
      this.running = false;
    }
  }

  private newStamp(): { tab: string; n: number } {
    return { tab: this.tab, n: this.nextN++ };
  }

  /**
   * The send's answer, or a transport failure once it stalled (stallMs) and the server does not have it on hand, or
   * it was given up on (retryNow lost). While the server has it on hand, `op` is marked busy and the answer waited for.
   */
  private answerOf(op: LabelOp, send: (signal: AbortSignal, requestId: string) => Promise<LabelAck>): Promise<LabelAck> {
    const abort = new AbortController();
    const requestId = newRequestId();
    const sent = send(abort.signal, requestId);
    // A late answer (or failure) of a send given up on is ignored: the op was sent again.
    sent.catch(() => {});
    return new Promise<LabelAck>((resolve, reject) => {
      const ms = this.opts.stallMs;
      let done = false;
      let stall: ReturnType<typeof setTimeout> | null = null;
      const stalled = async (after: number): Promise<void> => {
        const verdict = await stallVerdict(this.opts.onHand, requestId);
        if (done) return;
        if (verdict !== 'busy') {
          op.unanswered = true;
          return fail(`${stallMessage(after, verdict)}; sending it again`);
        }
        // The server has it: busy, not out of reach. Sending it again would queue a second copy behind the first.
        if (!op.busy) {
          op.busy = true;
          this.changed();
        }
        stall = setTimeout(() => void stalled(after), after);
      };
      if (ms !== undefined) stall = setTimeout(() => void stalled(ms), ms);
      const cut = (): void => fail('the connection came back while it was on its way; sending it again');
      const settle = (): boolean => {
        if (done) return false;
        done = true;
        if (stall) clearTimeout(stall);
        if (this.cut === cut) this.cut = null;
        return true;
      };
      function fail(why: string): void {
        if (!settle()) return;
        reject(new ClientError(why, 'transport'));
        // A stalled request would hold one of the browser's few connections to the server until the OS gave up.
        abort.abort();
      }
      this.cut = cut;
      sent.then(
        (ack) => settle() && resolve(ack),
        (e: unknown) => settle() && reject(e),
      );
    });
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(done, ms);
      function done(): void {
        clearTimeout(t);
        resolve();
      }
      this.wake = () => {
        this.wake = null;
        done();
      };
    });
  }

  private persist(): void {
    const s = this.opts.storage;
    if (!s) return;
    const key = this.opts.storageKey ?? 'qpairs.labelOutbox';
    try {
      if (this.queue.length === 0) s.removeItem(key);
      else s.setItem(key, JSON.stringify(this.queue.map(({ id: _id, attempts: _a, busy: _b, unanswered: _u, ...rest }) => rest)));
    } catch {
      /* storage full: the in-memory queue still holds everything */
    }
  }

  private load(): Array<LabelInput & { state: OpState; error?: string; maybeSaved?: boolean }> {
    const s = this.opts.storage;
    if (!s) return [];
    try {
      const raw = s.getItem(this.opts.storageKey ?? 'qpairs.labelOutbox');
      const v = raw ? (JSON.parse(raw) as unknown) : [];
      return Array.isArray(v) ? v.filter((o) => o && typeof o.pool === 'string' && typeof o.queryId === 'string' && typeof o.candidateId === 'string' && typeof o.annotator === 'string') : [];
    } catch {
      return [];
    }
  }
}
