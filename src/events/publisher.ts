/**
 * The one internal way to publish events: hands them to the EventHub Durable Object after the
 * response (waitUntil), so publishing never slows or fails a request.
 */
import type { Defer } from '../lib/deferred-work';
import type { NamedObjects } from '../lib/named-objects';
import type { DomainEvent, EventPublisher, PublishedEvent } from './events';

export const EVENT_HUB_NAME = 'global';

/** The EventHub Durable Object as publishers see it (durable-objects/event-hub.ts implements it). */
export interface EventHubRpc {
  publish(events: PublishedEvent[]): Promise<number[]>;
}

export function createEventPublisher(hub: NamedObjects<EventHubRpc>, defer: Defer): EventPublisher {
  return {
    publish(...events: DomainEvent[]) {
      if (events.length === 0) return;
      const timestamp = new Date().toISOString();
      const stub = hub.get(hub.idFromName(EVENT_HUB_NAME));
      defer(() => stub.publish(events.map((e) => ({ ...e, timestamp }))));
    },
  };
}
