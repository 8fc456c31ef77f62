import { describe, expect, it } from 'vitest';
import {
  EXPOSURE_TICKET_TTL_MS,
  exposureTicket,
  exposureTicketServedAt,
} from '../../../worker/collector/exposure-ticket';
import { pageVitals } from '../../../worker/collector/vitals-sample';

const KEY = 'cookie-key-of-this-test';
const VISITOR = '8b0c5f0e-4a8e-4c47-9a8e-3d1c2b7e6f10';
const OTHER = '0f7a3c1e-92d4-4b6e-8a51-7c2d9e4b1a03';
const NOW = 1_790_000_000_000;

describe('the exposure ticket of a page', () => {
  it('names when its page was served, to the second, for its visitor in any case', async () => {
    const ticket = await exposureTicket(KEY, VISITOR, NOW + 999);
    expect(await exposureTicketServedAt(KEY, VISITOR, ticket, NOW)).toBe(NOW);
    expect(await exposureTicketServedAt(KEY, VISITOR.toUpperCase(), ticket, NOW)).toBe(NOW);
  });

  it('is taken within the hour only, and never from ahead of the clock', async () => {
    const ticket = await exposureTicket(KEY, VISITOR, NOW);
    expect(await exposureTicketServedAt(KEY, VISITOR, ticket, NOW + EXPOSURE_TICKET_TTL_MS)).toBe(
      NOW,
    );
    expect(
      await exposureTicketServedAt(KEY, VISITOR, ticket, NOW + EXPOSURE_TICKET_TTL_MS + 1000),
    ).toBeNull();
    expect(await exposureTicketServedAt(KEY, VISITOR, ticket, NOW - 10 * 60_000)).toBeNull();
  });

  it('is no ticket for another visitor, under another key, or as a vitals ticket', async () => {
    const ticket = await exposureTicket(KEY, VISITOR, NOW);
    expect(await exposureTicketServedAt(KEY, OTHER, ticket, NOW)).toBeNull();
    expect(await exposureTicketServedAt('another-key', VISITOR, ticket, NOW)).toBeNull();
    expect(await exposureTicketServedAt(KEY, VISITOR, `${ticket}x`, NOW)).toBeNull();
    expect(await exposureTicketServedAt(KEY, VISITOR, 42, NOW)).toBeNull();
    // The same visitor's vitals ticket of the same page: signed under another name.
    const vitals = await pageVitals({ rate: 1, key: KEY, now: NOW }, VISITOR, () => []);
    expect(await exposureTicketServedAt(KEY, VISITOR, vitals?.ticket, NOW)).toBeNull();
  });
});
