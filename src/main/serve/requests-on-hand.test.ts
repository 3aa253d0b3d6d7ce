/**
 * A page whose label has had no answer for 20 s asks the server whether it still has the request
 * (GET /api/health?request=ID): a server busy with it (the label waits behind a long write) says so,
 * and the page waits instead of saying it cannot reach the server and sending a second copy. Before,
 * the page could not tell a busy server from an unreachable one.
 */
import { describe, expect, it } from 'vitest';
import { isCommandName, parseArgs, ContractError } from '../../shared/contract';
import { EventHub } from '../engine/events';
import { until, useStaticDir } from './test-serve';
import { startServer, type ServeEngine } from './server';

/** An engine whose label.set waits until the test lets it answer (a label behind a long write). */
class HeldEngine implements ServeEngine {
  readonly hub = new EventHub();
  held: Array<() => void> = [];
  canSee(): boolean {
    return true;
  }
  async invoke(command: unknown, args: unknown): Promise<unknown> {
    if (!isCommandName(command)) throw new ContractError('unknown', 'invalid-argument');
    parseArgs(command, args);
    await new Promise<void>((r) => this.held.push(r));
    return { seq: 1, saved: true, record: null };
  }
}

const staticDir = useStaticDir('qpairs-on-hand-');
const label = JSON.stringify({ command: 'label.set', args: { pool: 'p', queryId: 'q', candidateId: 'c', annotator: 'ann', value: '1' } });
const headers = (token: string, id?: string): Record<string, string> => ({
  'Content-Type': 'application/json',
  'X-QPairs': '1',
  Authorization: `Bearer ${token}`,
  ...(id ? { 'X-QPairs-Request': id } : {}),
});

describe('GET /api/health?request=ID', () => {
  it("says whether the caller's request is on hand: while it is worked on, not before it came or after it was answered, never another caller's", async () => {
    const engine = new HeldEngine();
    const s = await startServer({ engine, port: 0, staticDir: staticDir(), tokens: { ann: 'ann-secret-1', bob: 'bob-secret-1' } });
    const pending = async (token: string, id: string): Promise<unknown> =>
      ((await (await fetch(`${s.url}/api/health?request=${id}`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { pending?: unknown }).pending;
    try {
      expect(await pending('ann-secret-1', 'req1')).toBe(false);
      const answer = fetch(`${s.url}/api/invoke`, { method: 'POST', headers: headers('ann-secret-1', 'req1'), body: label });
      await until('the label is being worked on', () => engine.held.length === 1);
      expect(await pending('ann-secret-1', 'req1')).toBe(true);
      expect(await pending('ann-secret-1', 'req2')).toBe(false);
      // Another person cannot learn of ann's requests.
      expect(await pending('bob-secret-1', 'req1')).toBe(false);
      engine.held[0]!();
      expect((await answer).status).toBe(200);
      expect(await pending('ann-secret-1', 'req1')).toBe(false);
      // Without ?request= (or with an id that is not one), the answer is as before.
      expect(await (await fetch(`${s.url}/api/health`, { headers: { Authorization: 'Bearer ann-secret-1' } })).json()).toEqual({ ok: true, annotator: 'ann' });
      expect(await pending('ann-secret-1', 'no%20such')).toBeUndefined();
    } finally {
      for (const r of engine.held) r();
      await s.close();
    }
  });
});
