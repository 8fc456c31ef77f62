import type { QueuedEvent } from '../../../worker/collector/queued-event';

/**
 * Stands in for EVENTS_QUEUE where a test must see exactly what was queued, or make sending
 * fail: `failCalls` lists the sendBatch calls (0-based) that throw.
 */
export function recordingQueue(options: { failCalls?: number[] } = {}) {
  const sent: QueuedEvent[] = [];
  const calls: number[] = [];
  let call = 0;
  const queue = {
    async send(body: QueuedEvent) {
      sent.push(body);
    },
    async sendBatch(messages: Iterable<MessageSendRequest<QueuedEvent>>) {
      const index = call++;
      const bodies = [...messages].map((message) => message.body);
      calls.push(bodies.length);
      if (options.failCalls?.includes(index)) throw new Error('Queue send failed: test outage');
      sent.push(...bodies);
    },
    stopFailing() {
      options.failCalls = [];
    },
  };
  return {
    queue: queue as unknown as Queue<QueuedEvent>,
    /** Every message body queued so far, in order. */
    sent,
    /** The size of each sendBatch call, failed ones included. */
    calls,
    stopFailing: () => queue.stopFailing(),
  };
}
