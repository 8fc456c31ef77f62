import type { Context } from 'hono';
import { defaultPhoneCountry } from '../../screens/landing/phone-country';
import { checkPhone, knownCountry } from '../../shared/phone/phone-number';
import {
  decodePostedPhone,
  encodePostedPhone,
  type PostedPhone,
  type RefusedPhone,
} from '../../shared/phone/posted-phone';
import type { AppEnv } from '../middleware/envs';
import { carryToNextScreen, readFormFields, takeCarried, textField } from './form-post';

/**
 * The landing's phone form without script (islands/PhoneForm.tsx before it hydrates, or with
 * JavaScript off): the worker checks the number by the island's rule and hands an accepted one
 * to the next screen in a short-lived cookie, which that screen reads once and clears.
 */

/** Carries the accepted number from the landing's post to the searching screen, and no further. */
const POSTED_PHONE_COOKIE = 'gf_phone';

export type PhonePost =
  | { accepted: true; e164: string; country: string }
  | { accepted: false; refused: RefusedPhone }
  | { accepted: false; malformed: Response };

/**
 * What the form posted, checked: `phone` and `country` as islands/kit/PhoneInput.tsx names them.
 * It takes the context to read the body, answer a malformed one and name a refusal in the log.
 */
export async function readPhonePost(c: Context<AppEnv>): Promise<PhonePost> {
  const form = await readFormFields(c);
  if (!form.ok) return { accepted: false, malformed: form.response };
  const value = textField(form.fields, 'phone');
  // A country the select does not offer falls back to the one the page would have started with.
  const posted = knownCountry(textField(form.fields, 'country'));
  const country = posted ?? defaultPhoneCountry(c.get('country'));
  const check = checkPhone(value, country);
  if (check.refusal === null) return { accepted: true, e164: check.e164, country };
  c.get('logFields').detail = `phone_${check.refusal}`;
  return { accepted: false, refused: { value, country, refusal: check.refusal } };
}

export function carryPostedPhone(c: Context<AppEnv>, e164: string, country: string): void {
  carryToNextScreen(c, POSTED_PHONE_COOKIE, encodePostedPhone(e164, country));
}

/** The carried number, if any, cleared as it is read (form-post.ts takeCarried). */
export function takePostedPhone(c: Context<AppEnv>): PostedPhone | undefined {
  return decodePostedPhone(takeCarried(c, POSTED_PHONE_COOKIE)) ?? undefined;
}
