import { Hono } from 'hono';
import type { PhoneInfoResponse } from '../../shared/api/contract';
import type { PortalBindings } from '../env';
import { emulatedFault } from '../faults';
import { phoneInfoOf } from '../phone-info';
import { PortalError } from '../portal-error';
import { recordPhoneLookup } from '../store/phone-lookups';

/** SPEC.md §8: the text the searching screens show for any non-200 lookup. */
const PHONE_INCORRECT_MESSAGE = 'Phone number is incorrect';

/** The longest text kept of an invalid input, so a junk path cannot bloat the table. */
const MAX_RECORDED_INPUT = 32;

/**
 * GET /phone-number-info/{phone} (SPEC.md §7): 400 for a number that is not valid, 200 with what
 * is known of it otherwise; any other failure is the app's 500.
 */
export const phoneRoutes = new Hono<{ Bindings: PortalBindings }>().get(
  '/phone-number-info/:phone',
  emulatedFault('phone-number-info'),
  async (c) => {
    const input = c.req.param('phone');
    const info = phoneInfoOf(input);
    const now = new Date().toISOString();
    await recordPhoneLookup(c.env.PORTAL_DB, {
      phone: info?.phone ?? input.slice(0, MAX_RECORDED_INPUT),
      valid: info !== null,
      country: info?.country ?? null,
      // SPEC.md §6: the located person must consent by SMS. The product texts them now; the
      // emulator records when it would have, and texts no one.
      consentSmsAt: info ? now : null,
      createdAt: now,
    });
    if (!info) throw new PortalError(400, 'phone_incorrect', PHONE_INCORRECT_MESSAGE);
    const answer: PhoneInfoResponse = { data: info };
    return c.json(answer);
  },
);
