import type { PhoneInfo } from '../../shared/api/contract';
import { type PhoneLookupErrorKey, phoneLookupErrorText } from '../../shared/api/error-text';

export type { PhoneInfo } from '../../shared/api/contract';

/**
 * SPEC.md §8 Phone and map: why a lookup failed, each shown with its own text ('Phone number is
 * incorrect', 'An error occurred, please try again', or the rate-limit text).
 */
export type PhoneLookupErrorCode = PhoneLookupErrorKey;

export class PhoneLookupError extends Error {
  constructor(readonly code: PhoneLookupErrorCode) {
    super(code);
    this.name = 'PhoneLookupError';
  }
}

export interface LookupOptions {
  /**
   * What $map.numberData holds. When it is the answer for this very number it is used as is:
   * every lookup texts a person, so a reload must not look the number up again.
   */
  remembered?: unknown;
  /** Lets a unit test answer instead of the network. */
  fetch?: typeof fetch;
}

/**
 * The one door to phone data for the searching screens: GET /api/phone-number-info/{phone}
 * (SPEC.md §7), each failure mapped by shared/api/error-text.ts to a PhoneLookupError. The API
 * client and the check of what is shown load only here, after the screen has shown.
 */
export async function lookupPhone(e164: string, options: LookupOptions = {}): Promise<PhoneInfo> {
  let client: typeof import('../api/client');
  let ShownPhoneInfo: typeof import('./shown-phone-info')['ShownPhoneInfo'];
  try {
    [client, { ShownPhoneInfo }] = await Promise.all([
      import('../api/client'),
      import('#browser-only/islands/phone/shown-phone-info'),
    ]);
  } catch {
    throw new PhoneLookupError('lookup_failed');
  }
  const remembered = ShownPhoneInfo.safeParse(options.remembered);
  if (remembered.success && remembered.data.phone === e164) return remembered.data;
  let answer: unknown;
  try {
    answer = (await client.getPhoneInfo(e164, { fetch: options.fetch })).data;
  } catch (error) {
    throw new PhoneLookupError(phoneLookupErrorText(error).key);
  }
  // The worker checked the answer; the screens still read every field of it, and keep it.
  const shown = ShownPhoneInfo.safeParse(answer);
  if (!shown.success) throw new PhoneLookupError('lookup_failed');
  return shown.data;
}
