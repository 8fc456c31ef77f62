import { defaultPhoneCountry } from '../../screens/landing/phone-country';
import type { LogFields } from '../../shared/log';
import { checkPhone, knownCountry } from '../../shared/phone/phone-number';
import {
  decodePostedPhone,
  encodePostedPhone,
  type PostedPhone,
  type RefusedPhone,
} from '../../shared/phone/posted-phone';
import type { AnswerHeaders } from '../http/answer-cookies';
import {
  carryToNextScreen,
  type MalformedForm,
  readFormFields,
  takeCarried,
  textField,
} from './form-post';

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
  | { accepted: false; malformed: MalformedForm };

/**
 * What the form posted, checked: `phone` and `country` as islands/kit/PhoneInput.tsx names them;
 * a refusal is named on the request's log line. `country` is the visitor's, for a number posted
 * with a country the select does not offer.
 */
export async function readPhonePost(post: {
  request: Request;
  log: LogFields;
  country: string | null;
}): Promise<PhonePost> {
  const form = await readFormFields(post.request, post.log);
  if (!form.ok) return { accepted: false, malformed: form.malformed };
  const value = textField(form.fields, 'phone');
  // A country the select does not offer falls back to the one the page would have started with.
  const posted = knownCountry(textField(form.fields, 'country'));
  const country = posted ?? defaultPhoneCountry(post.country);
  const check = checkPhone(value, country);
  if (check.refusal === null) return { accepted: true, e164: check.e164, country };
  post.log.detail = `phone_${check.refusal}`;
  return { accepted: false, refused: { value, country, refusal: check.refusal } };
}

export function carryPostedPhone(answer: AnswerHeaders, e164: string, country: string): void {
  carryToNextScreen(answer, POSTED_PHONE_COOKIE, encodePostedPhone(e164, country));
}

/** The carried number, if any, cleared as it is read (form-post.ts takeCarried). */
export function takePostedPhone(page: {
  request: Request;
  answer: AnswerHeaders;
}): PostedPhone | undefined {
  return decodePostedPhone(takeCarried(page, POSTED_PHONE_COOKIE)) ?? undefined;
}
