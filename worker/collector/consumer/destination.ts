import type { QueuedEvent } from '../queued-event';
import type { DestinationName, NoteFailure, Outcome } from './outcome';

/** Where the consumer sends events: the local store, Amplitude, Meta, TikTok. */
export interface Destination {
  name: DestinationName;
  /** Whether this destination hears of the event at all (the ad networks: purchases only). */
  takes(message: QueuedEvent): boolean;
  /**
   * Sends the events it takes, each once; one outcome per message, in order. Never throws: a
   * failure is an outcome ('retry' or 'dropped'), logged by the destination without secrets;
   * a 'retry' also `noted` with its log code.
   */
  deliver(messages: readonly QueuedEvent[], noted?: NoteFailure): Promise<Outcome[]>;
}
