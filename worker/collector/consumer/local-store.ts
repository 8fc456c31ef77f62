import { storeEvents } from '../event-log';
import type { Destination } from './destination';
import { failedForNow } from './outcome';

/**
 * In development without an Amplitude key, every event lands in EVENTS_DB (`npm run events --
 * tail`), beside the archive; deployed workers never write it (destinations.ts).
 */
export function localStoreDestination(db: D1Database): Destination {
  return {
    name: 'local',
    takes: () => true,
    async deliver(messages, noted) {
      try {
        await storeEvents(db, messages);
        return messages.map(() => 'delivered');
      } catch (error) {
        const retry = failedForNow(
          'local_store_failed',
          { events: messages.length, detail: String(error) },
          noted,
        );
        return messages.map(() => retry);
      }
    },
  };
}
