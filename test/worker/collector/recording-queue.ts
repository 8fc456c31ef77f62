import {
  eventsOf,
  type QueuedEvent,
  type QueuedMessage,
} from '../../../worker/collector/queued-event';

/**
 * Stands in for EVENTS_QUEUE where a test must see exactly what was queued, or make sending
 * fail: `failCalls` lists the send or sendBatch calls (0-based) that throw.
 */
export function recordingQueue(options: { failCalls?: number[] } = {}) {
  const sent: QueuedMessage[] = [];
  const events: QueuedEvent[] = [];
  const calls: number[] = [];
  function take(bodies: QueuedMessage[]) {
    const index = calls.length;
    calls.push(bodies.length);
    if (options.failCalls?.includes(index)) throw new Error('Queue send failed: test outage');
    sent.push(...bodies);
    events.push(...bodies.flatMap(eventsOf));
  }
  const queue = {
    async send(body: QueuedMessage) {
      take([body]);
    },
    async sendBatch(messages: Iterable<MessageSendRequest<QueuedMessage>>) {
      take([...messages].map((message) => message.body));
    },
  };
  return {
    queue: queue as unknown as Queue<QueuedMessage>,
    /** Every message body queued so far, in order. */
    sent,
    /** Every event queued so far, in order, as the destinations get them. */
    events,
    /** How many messages each send or sendBatch call carried, failed ones included. */
    calls,
    stopFailing: () => {
      options.failCalls = [];
    },
  };
}
