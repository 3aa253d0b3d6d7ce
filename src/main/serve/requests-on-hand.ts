/**
 * The requests the server has on hand (received, not yet answered), by the id a page gave each one
 * (header X-QPairs-Request). A page whose request has had no answer for a while asks
 * `GET /api/health?request=ID`: answered off the engine's path (a label waiting behind a long write
 * does not hold it up), it tells a server that is merely busy with the request ("pending": keep
 * waiting, sending it again would only queue a second copy behind the first) from one that never
 * got it or lost it (send it again). Ids are kept per caller: nobody learns of another's requests.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export const REQUEST_ID_HEADER = 'x-qpairs-request';
const ID = /^[A-Za-z0-9_-]{1,64}$/;

export class RequestsOnHand {
  private readonly held = new Map<string, number>();

  /** Notes `req` (when it carries an id) until its response closes. */
  track(caller: string, req: IncomingMessage, res: ServerResponse): void {
    const id = req.headers[REQUEST_ID_HEADER];
    if (typeof id !== 'string' || !ID.test(id)) return;
    const key = `${caller}\u0000${id}`;
    this.held.set(key, (this.held.get(key) ?? 0) + 1);
    res.once('close', () => {
      const n = (this.held.get(key) ?? 1) - 1;
      if (n > 0) this.held.set(key, n);
      else this.held.delete(key);
    });
  }

  /** Whether `caller`'s request `id` is on hand; undefined when no (valid) id is asked about. */
  has(caller: string, id: string | null): boolean | undefined {
    if (id === null || !ID.test(id)) return undefined;
    return this.held.has(`${caller}\u0000${id}`);
  }
}
