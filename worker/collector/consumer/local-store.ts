import { logError } from '../../../shared/log';
import { storeEvents } from '../event-log';
import type { Destination } from './destination';

/**
 * In development without an Amplitude key, every event lands in EVENTS_DB (`npm run events --
 * tail`), beside the archive; deployed workers never write it (destinations.ts).
 */
export function localStoreDestination(db: D1Database): Destination {
  return {
    name: 'local',
    takes: () => true,
    async deliver(messages) {
      try {
        await storeEvents(db, messages);
        return messages.map(() => 'delivered');
      } catch (error) {
        logError('local_store_failed', { events: messages.length, detail: String(error) });
        return messages.map(() => 'retry');
      }
    },
  };
}
