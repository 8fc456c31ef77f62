import { describe, expect, it } from 'vitest';
import { ANALYTICS_LIMITS } from '../../shared/analytics/limits';
import { batchMessages } from '../../worker/collector/enqueue';
import { QUEUE_MESSAGE_BYTES } from '../../worker/collector/intake-rules';
import type { ServerContext } from '../../worker/collector/queued-event';

const context: ServerContext = {
  received_at: 1_764_000_000_000,
  // The longest the collector keeps (worker/collector/server-context.ts).
  ip: 'f'.repeat(64),
  user_agent: 'U'.repeat(512),
  country: 'DE',
  page_url: `https://funnel.test/${'p'.repeat(2028)}`,
  consent: 'granted',
  visitor_id: '3f0c4a8e-2b1d-4c5e-9f6a-7b8c9d0e1f2a',
  ad_cookies: { fbc: 'c'.repeat(256), fbp: 'p'.repeat(256), ttp: 't'.repeat(256), ttclid: null },
};

function events(count: number, padding: number) {
  return Array.from({ length: count }, (_, index) => ({
    event_type: 'screen__load',
    insert_id: `insert-${index.toString().padStart(6, '0')}`,
    time: 1_764_000_000_000,
    session_id: 1_764_000_000_000,
    device_id: context.visitor_id ?? '',
    user_id: null,
    event_properties: { screen_name: 'one_pager', note: 'x'.repeat(padding) },
  }));
}

const size = (message: unknown) => new TextEncoder().encode(JSON.stringify(message)).byteLength;

describe('a batch as queue messages', () => {
  it('the largest batch the collector takes, with the longest context, is one message', () => {
    // 100 events filling maxBatchBytes between them.
    const batch = events(ANALYTICS_LIMITS.batchSize, ANALYTICS_LIMITS.maxBatchBytes / 100 - 250);
    expect(size({ events: batch })).toBeLessThanOrEqual(ANALYTICS_LIMITS.maxBatchBytes);
    const messages = batchMessages(batch, context);
    expect(messages).toHaveLength(1);
    expect(size(messages[0])).toBeLessThan(QUEUE_MESSAGE_BYTES);
  });

  it('over the size per message, it is cut in order into pieces that each fit', () => {
    const batch = events(10, 1000);
    const limit = 4000;
    const messages = batchMessages(batch, context, limit);
    expect(messages.length).toBeGreaterThan(1);
    for (const message of messages) {
      expect(message.events.length === 1 || size(message) <= limit).toBe(true);
      expect(message.context).toEqual(context);
    }
    expect(messages.flatMap((message) => message.events)).toEqual(batch);
  });

  it('one event over the limit goes alone rather than being lost', () => {
    const messages = batchMessages(events(3, 5000), context, 4000);
    expect(messages.map((message) => message.events.length)).toEqual([1, 1, 1]);
  });
});
