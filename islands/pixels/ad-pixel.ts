import type { ConsentState } from '../../shared/analytics/tracking';
import type { PixelPurchase } from './purchase';

/**
 * One ad network's browser pixel, set up by hand as the network's documented base code does: a
 * queue stub first, so calls made before the network's script arrives wait in the queue the
 * script then takes over; a script that never arrives (a blocker) leaves calls queued, harmless.
 */
export interface AdPixel {
  /** The name the fired-purchase ledger keeps this pixel's reports under. */
  readonly name: string;
  /**
   * Puts the stub on the page and queues the page view; returns the script to load. `consent` is
   * the state the pixels start under, for a network that is told it (Google's Consent Mode).
   */
  install(consent: ConsentState): string;
  /** Reports one purchase. */
  purchase(purchase: PixelPurchase): void;
}
