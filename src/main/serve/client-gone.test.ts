/**
 * A client that goes away cancels the work it asked for (an export of a large pool, an agreement
 * report): that is the server doing as asked, not a fault. The server logged it as `internal error in
 * export.write: CancelledError: computation cancelled` with a stack trace, which the log says to
 * report, each time a judge closed the Export screen or a script's request timed out.
 */
import { describe, expect, it } from 'vitest';
import { isCommandName, parseArgs, ContractError, type EventName } from '../../shared/contract';
import { CancelledError } from '../errors';
import { EventHub } from '../engine/events';
import { until, useStaticDir } from './test-serve';
import { startServer, type ServeCaller, type ServeEngine } from './server';

/** An engine whose export runs until its caller's signal stops it, as compute.ts does; any other command fails as asked. */
class CancellableEngine implements ServeEngine {
  readonly hub = new EventHub();
  exportStarted = false;
  fail: Error | null = null;
  canSee(): boolean {
    return true;
  }
  async invoke(command: unknown, args: unknown, ctx?: ServeCaller & { signal?: AbortSignal }): Promise<unknown> {
    if (!isCommandName(command)) throw new ContractError('unknown', 'invalid-argument');
    parseArgs(command, args);
    if (this.fail) throw this.fail;
    this.exportStarted = true;
    return new Promise((_, reject) => ctx?.signal?.addEventListener('abort', () => reject(new CancelledError('computation cancelled'))));
  }
  emit(event: EventName, payload: unknown): void {
    this.hub.emit(event, payload as never);
  }
}

const staticDir = useStaticDir('qpairs-client-gone-');

const headers = { 'Content-Type': 'application/json', 'X-QPairs': '1', Authorization: 'Bearer judy-secret-1' };
const exportCall = JSON.stringify({ command: 'export.write', args: { pool: 'p', format: 'jsonl' } });

describe('a client that goes away', () => {
  it('cancels its export, and the log says so in one line, not as an internal error', async () => {
    const engine = new CancellableEngine();
    const logged: string[] = [];
    const s = await startServer({ engine, port: 0, staticDir: staticDir(), tokens: { judy: 'judy-secret-1' }, log: (l) => logged.push(l) });
    try {
      const client = new AbortController();
      const answer = fetch(`${s.url}/api/invoke`, { method: 'POST', headers, body: exportCall, signal: client.signal }).catch(() => 'gone');
      await until('the export runs', () => engine.exportStarted);
      client.abort();
      expect(await answer).toBe('gone');
      await until('the server logs the cancel', () => logged.some((l) => l.includes('export.write')));
      const lines = logged.filter((l) => l.includes('export.write'));
      expect(lines).toEqual(['export.write cancelled: the client went away']);

      // A cancel the client did not ask for (its connection is still open) is still answered, and logged as before.
      engine.fail = new CancelledError('computation cancelled');
      const r = await fetch(`${s.url}/api/invoke`, { method: 'POST', headers, body: exportCall });
      expect(r.status).toBe(500);
      expect(logged.filter((l) => l.startsWith('internal error in export.write: CancelledError'))).toHaveLength(1);
    } finally {
      await s.close();
    }
  });
});
