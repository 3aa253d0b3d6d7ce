/**
 * When the server is back, the label outboxes send what waits now instead of after their backoff: when the live
 * connection (the event stream) opens again, and when the browser says it is back online. After a reconnect or
 * an `online` event, a label still on its way was likely sent into the broken connection: it is sent again too
 * (retryNow lost; the engine takes a label once, engine/label-stamps.ts).
 */
import type { AppClient } from '../client/types';
import type { LabelQueue } from './labelQueue';

type Outbox = Pick<LabelQueue, 'retryNow'>;

/** Wires `queues` to the connection and the window's `online` event; `onReconnect` runs when the stream opens again after closing. Returns the unwiring. */
export function retryWhenBack(client: Pick<AppClient, 'onConnection'>, queues: Outbox[], win: Pick<Window, 'addEventListener' | 'removeEventListener'>, onReconnect?: () => void): () => void {
  let last: string | null = null;
  const off = client.onConnection((s) => {
    if (s === 'open') {
      const again = last === 'closed';
      for (const q of queues) q.retryNow({ lost: again });
      if (again) onReconnect?.();
    }
    last = s;
  });
  const online = (): void => {
    for (const q of queues) q.retryNow({ lost: true });
  };
  win.addEventListener('online', online);
  return () => {
    off();
    win.removeEventListener('online', online);
  };
}
