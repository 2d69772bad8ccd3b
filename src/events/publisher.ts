/**
 * The one internal way to publish events: hands them to the EventHub Durable Object after the
 * response (waitUntil), so publishing never slows or fails a request.
 */
import type { DomainEvent, EventPublisher } from './events';

export const EVENT_HUB_NAME = 'global';

export function createEventPublisher(
  hub: DurableObjectNamespace<import('../../durable-objects/event-hub').EventHub>,
  defer: (work: Promise<unknown>) => void,
): EventPublisher {
  return {
    publish(...events: DomainEvent[]) {
      if (events.length === 0) return;
      const timestamp = new Date().toISOString();
      const stub = hub.get(hub.idFromName(EVENT_HUB_NAME));
      defer(stub.publish(events.map((e) => ({ ...e, timestamp }))));
    },
  };
}
