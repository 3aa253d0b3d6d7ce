import type { EventName, EventPayloads } from '../../shared/contract';

type Listener<E extends EventName> = (payload: EventPayloads[E]) => void;

/** A tiny typed event hub; transports subscribe with onAny to forward every event. */
export class EventHub {
  private readonly listeners = new Map<EventName, Set<Listener<EventName>>>();
  private readonly any = new Set<(event: EventName, payload: unknown) => void>();

  on<E extends EventName>(event: E, fn: Listener<E>): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(fn as Listener<EventName>);
    return () => set!.delete(fn as Listener<EventName>);
  }

  onAny(fn: (event: EventName, payload: unknown) => void): () => void {
    this.any.add(fn);
    return () => this.any.delete(fn);
  }

  emit<E extends EventName>(event: E, payload: EventPayloads[E]): void {
    for (const fn of this.listeners.get(event) ?? []) fn(payload as never);
    for (const fn of this.any) fn(event, payload);
  }
}
