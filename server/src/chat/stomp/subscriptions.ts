import { CLOSE, StompError } from './errors.js';

type AckMode = 'auto' | 'client' | 'client-individual';

export interface Subscription {
  id: string;
  destination: string;
  ack: AckMode;
}

/** The ack header of a SUBSCRIBE (spec default `auto`); an unknown mode is a protocol error. */
export function parseAckMode(value: string | undefined): AckMode {
  const ack = value ?? 'auto';
  if (ack !== 'auto' && ack !== 'client' && ack !== 'client-individual') {
    throw new StompError(`Unknown ack mode ${ack}`, undefined, CLOSE.protocol);
  }
  return ack;
}

/** A session's subscriptions by id, in the order they were made. */
export class Subscriptions {
  private readonly byId = new Map<string, Subscription>();

  /** A second SUBSCRIBE with an id in use is a protocol error. */
  assertFree(id: string): void {
    if (this.byId.has(id))
      throw new StompError(`Subscription id ${id} is already in use`, undefined, CLOSE.protocol);
  }

  add(subscription: Subscription): void {
    this.byId.set(subscription.id, subscription);
  }

  remove(id: string): void {
    this.byId.delete(id);
  }

  /** Whether any subscription listens to `destination`. */
  listensTo(destination: string): boolean {
    for (const s of this.byId.values()) if (s.destination === destination) return true;
    return false;
  }

  /** The subscriptions on `destination`, in the order they were made. */
  *on(destination: string): Generator<Subscription> {
    for (const sub of this.byId.values()) if (sub.destination === destination) yield sub;
  }

  clear(): void {
    this.byId.clear();
  }
}
