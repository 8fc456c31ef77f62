import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { vi } from 'vitest';
import { createQueueHandler } from '../../../worker/collector/consumer/queue-handler';
import { eventsOf, type QueuedMessage } from '../../../worker/collector/queued-event';
import { fakeEndpoint } from './fake-endpoint';
import { NOW } from './fixtures';

/** A message as the queue hands it over: the same id on every delivery, attempts counting up. */
export interface Delivery {
  id: string;
  body: QueuedMessage | unknown;
  attempts?: number;
}

export function asDeliveries(messages: readonly QueuedMessage[], attempts = 1): Delivery[] {
  return messages.map((body) => ({
    id: `msg-${eventsOf(body)[0]?.event.insert_id}`,
    body,
    attempts,
  }));
}

/** The events queue of wrangler.toml; the consumer treats any queue but a dead letter one so. */
const EVENTS_QUEUE = 'geofunnel-events';

/**
 * The consumer of worker/index.ts with `endpoint` as its fetch, run on one batch against this
 * test's real EVENTS_DB; returns what it acked and retried (getQueueResult).
 */
export function consumer(
  bindings: Partial<Cloudflare.Env> = {},
  endpoint: ReturnType<typeof fakeEndpoint> = fakeEndpoint(),
) {
  const handler = createQueueHandler({ fetch: endpoint.fetch, now: () => NOW });
  return {
    endpoint,
    async run(deliveries: readonly Delivery[], queue: string = EVENTS_QUEUE) {
      const batch = createMessageBatch(
        queue,
        deliveries.map((delivery) => ({
          id: delivery.id,
          timestamp: new Date(NOW),
          attempts: delivery.attempts ?? 1,
          body: delivery.body,
        })),
      );
      // getQueueResult (0.15) reports which messages were retried but not the delay asked for.
      const delays = new Map<string, number | undefined>();
      for (const message of batch.messages) {
        const retry = message.retry.bind(message);
        vi.spyOn(message, 'retry').mockImplementation((options) => {
          delays.set(message.id, options?.delaySeconds);
          retry(options);
        });
      }
      const ctx = createExecutionContext();
      await handler(batch, { ...env, ...bindings }, ctx);
      const result = await getQueueResult(batch, ctx);
      return {
        acked: [...result.explicitAcks].sort(),
        retried: result.retryMessages.map((retry: { msgId: string }) => ({
          id: retry.msgId,
          delaySeconds: delays.get(retry.msgId),
        })),
      };
    },
  };
}
