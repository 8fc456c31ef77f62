import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DEAD_LETTER_MAX_RETRIES,
  EVENTS_MAX_RETRIES,
} from '../../worker/collector/consumer/outcome';

/** Each `[[…queues.consumers]]` table of wrangler.toml: its header and its `key = value` lines. */
function consumers(toml: string) {
  return toml
    .split(/^(?=\[)/m)
    .filter((section) => /^\[\[(env\.\w+\.)?queues\.consumers\]\]/.test(section))
    .map((section) => {
      const values = Object.fromEntries(
        [...section.matchAll(/^(\w+)\s*=\s*"?([^"\n]*)"?\s*$/gm)].map((m) => [m[1], m[2]]),
      );
      return { env: /^\[\[env\.(\w+)\./.exec(section)?.[1] ?? 'production', ...values };
    });
}

describe("wrangler.toml's queue consumers", () => {
  const all = consumers(readFileSync('wrangler.toml', 'utf8'));

  it('every environment has an events queue and a dead letter queue consumer', () => {
    expect(all.map((consumer) => `${consumer.env} ${consumer.queue}`)).toEqual([
      'production geofunnel-events',
      'production geofunnel-events-dlq',
      'staging geofunnel-events-staging',
      'staging geofunnel-events-staging-dlq',
      'development geofunnel-events',
      'development geofunnel-events-dlq',
    ]);
  });

  it('the events queues retry as outcome.ts counts, then hand over to their dead letter queue', () => {
    for (const consumer of all.filter((c) => !c.queue?.endsWith('-dlq'))) {
      expect(consumer).toMatchObject({
        max_retries: String(EVENTS_MAX_RETRIES),
        retry_delay: '30',
        dead_letter_queue: `${consumer.queue}-dlq`,
      });
    }
  });

  it("the dead letter queues retry Cloudflare's most, never giving up before the retention", () => {
    for (const consumer of all.filter((c) => c.queue?.endsWith('-dlq'))) {
      expect(consumer).toMatchObject({
        max_retries: String(DEAD_LETTER_MAX_RETRIES),
        retry_delay: '30',
      });
      expect(consumer).not.toHaveProperty('dead_letter_queue');
    }
  });
});
