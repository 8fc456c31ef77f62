import { parseBody } from 'hono/utils/body';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { translatedErrorTexts } from '../../../screens/error-texts';
import { defaultPhoneCountry } from '../../../screens/landing/phone-country';
import type { BrowserSignupResponse } from '../../../shared/api/contract';
import { readableText, SIGN_UP_ERROR_KEYS, signupErrorText } from '../../../shared/api/error-text';
import {
  encodeSignedUp,
  type RefusedEmail,
  type SignedUpAccount,
} from '../../../shared/api/form-sign-up';
import { ApiFailure } from '../../../shared/api/request';
import type { ScreenRef } from '../../../shared/composed-screens';
import { isValidEmail } from '../../../shared/email-validity';
import { checkPhone, knownCountry } from '../../../shared/phone/phone-number';
import { encodePostedPhone, type RefusedPhone } from '../../../shared/phone/posted-phone';
import type { ScreenId } from '../../../shared/screens';
import { type ApiDependencies, forwardCall } from '../../api/call-handler';
import type { Note } from '../../http/answer';
import { type AnswerHeaders, setAnswerCookie } from '../../http/answer-cookies';
import { noteRefusal, refusalBody } from '../../http/api-json';
import { POSTED_PHONE_COOKIE, SIGNED_UP_COOKIE } from '../../request/cookies';
import type { TranslationVariables } from '../../request/envs';
import type { CallVisit } from '../../request/visit';

/**
 * What a screen's own forms post without JavaScript (SPEC.md §2): the landing's phone number and
 * a sign-up screen's email, read and checked as the islands' calls are, and carried to the
 * screen after (./continue-form.ts answers the post, ./page-visit.ts takes what it carried). The
 * guards before a post are worker/request/form-guards.ts.
 */

const FORM_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data'];

/** A post that is no form of ours, answered in plain text by the handler. */
export interface MalformedForm {
  status: 400 | 415;
  text: string;
}

export type FormReading =
  | { ok: true; fields: Record<string, unknown> }
  | { ok: false; malformed: MalformedForm };

/**
 * A form's fields as a browser posts them; anything else is answered 415 or 400. With `all`, a
 * field posted several times (a quiz's checkboxes) is read as the list of its values.
 */
export async function readFormFields(
  request: Request,
  note: Note,
  { all = false }: { all?: boolean } = {},
): Promise<FormReading> {
  const type =
    (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (!FORM_TYPES.includes(type)) {
    note('error', 'unsupported_media_type');
    return { ok: false, malformed: { status: 415, text: 'Unsupported media type\n' } };
  }
  try {
    return { ok: true, fields: await parseBody(request, { all }) };
  } catch {
    note('error', 'malformed_form');
    return { ok: false, malformed: { status: 400, text: 'Bad request\n' } };
  }
}

/** A form field's text, or '' when it was not sent (or sent as a file). */
function textField(fields: Record<string, unknown>, name: string): string {
  const value = fields[name];
  return typeof value === 'string' ? value : '';
}

/**
 * What a no-script form hands the next screen (an accepted number, a new account) travels in a
 * short-lived HttpOnly cookie rather than the URL, where the tracker's page URL, the Referer and
 * every ad pixel would read it. Long enough for the redirect on a slow connection, short enough
 * to be gone.
 */
const CARRIED_MAX_AGE = 600;

/**
 * Sets the carried value on this answer (the redirect to the next screen). The page posting the
 * form had that screen prefetched by its speculation rules (worker/render/), without the value:
 * Chromium would show that copy after the redirect. Clear-Site-Data drops it, so the next screen
 * is asked for again, with the cookie.
 */
function carryToNextScreen(answer: AnswerHeaders, name: string, value: string): void {
  answer.header('Clear-Site-Data', '"prefetchCache", "prerenderCache"');
  setAnswerCookie(answer, name, value, {
    maxAge: CARRIED_MAX_AGE,
    path: '/',
    httpOnly: true,
    secure: true,
    sameSite: 'Lax',
  });
}

/**
 * The landing's phone form without script (islands/PhoneForm.tsx before it hydrates, or with
 * JavaScript off): the worker checks the number by the island's rule and hands an accepted one
 * to the next screen in a short-lived cookie, which that screen reads once and clears.
 */

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
  note: Note;
  country: string | null;
}): Promise<PhonePost> {
  const form = await readFormFields(post.request, post.note);
  if (!form.ok) return { accepted: false, malformed: form.malformed };
  const value = textField(form.fields, 'phone');
  // A country the select does not offer falls back to the one the page would have started with.
  const posted = knownCountry(textField(form.fields, 'country'));
  const country = posted ?? defaultPhoneCountry(post.country);
  const check = checkPhone(value, country);
  if (check.refusal === null) return { accepted: true, e164: check.e164, country };
  post.note('detail', `phone_${check.refusal}`);
  return { accepted: false, refused: { value, country, refusal: check.refusal } };
}

export function carryPostedPhone(answer: AnswerHeaders, e164: string, country: string): void {
  carryToNextScreen(answer, POSTED_PHONE_COOKIE, encodePostedPhone(e164, country));
}

/**
 * The signup screens' email form without script (islands/SignupForm.tsx before it hydrates, or
 * with JavaScript off). The worker does what the island would: checks the address by the same
 * rule, creates the account through the same §7 call, limits and session cookie as
 * `POST /api/signup` (forwardCall), and hands it to the next screen in a short-lived cookie. A
 * refusal shows the form again with what was typed and the island's own text for it.
 */

export type SignUpPost =
  | { ok: true; account: SignedUpAccount }
  | { ok: false; refused: RefusedEmail; status: ContentfulStatusCode }
  | { ok: false; malformed: MalformedForm };

function refusedWith(
  value: string,
  message: string,
  status: ContentfulStatusCode,
  taken = false,
): SignUpPost {
  return { ok: false, refused: taken ? { value, message, taken } : { value, message }, status };
}

/**
 * Creates the account from the posted `email` (the field islands/kit/EmailInput.tsx names). The
 * name falls back to the email (SPEC.md §5); the visitor id and landing type are the worker's own
 * (worker/http/api-json.ts), as for the island's call, which sets the session's cookies on the
 * answer (worker/api/call-handler.ts). `t` is the page's copy, for a refusal's text.
 */
export async function signUpFromForm(
  visit: CallVisit,
  t: TranslationVariables['t'],
  shown: { ref: ScreenRef; screen: ScreenId },
  deps: ApiDependencies,
): Promise<SignUpPost> {
  const form = await readFormFields(visit.request, visit.note);
  if (!form.ok) return { ok: false, malformed: form.malformed };
  const value = textField(form.fields, 'email');
  const email = value.trim();
  if (!isValidEmail(email)) {
    visit.note('detail', email === '' ? 'email_empty' : 'email_invalid');
    const key = email === '' ? 'email_error_message_empty' : 'email_error_message_invalid';
    return refusedWith(value, t(key), 422);
  }

  const forwarded = await forwardCall(visit, 'signup', deps, async () => ({
    registration_source: 'email',
    email,
    name: email,
  }));
  let failure: ApiFailure;
  if (!forwarded.ok) {
    noteRefusal(visit.answer, forwarded.refusal);
    failure = new ApiFailure('http', forwarded.refusal.status, refusalBody(forwarded.refusal));
  } else if (forwarded.status >= 400) {
    failure = new ApiFailure('http', forwarded.status, forwarded.body);
  } else {
    const { data } = forwarded.body as BrowserSignupResponse;
    const account = {
      email,
      userId: data.entity.external_user_id ?? '',
      deeplinkToken: data.deeplink_token,
      screen: shown.screen,
      path: `/${shown.ref}`,
    };
    return { ok: true, account };
  }
  // The text the island's toast would show for the same answer (SPEC.md §5, §8).
  const texts = translatedErrorTexts(t, SIGN_UP_ERROR_KEYS);
  const status = (failure.status ?? 502) as ContentfulStatusCode;
  const text = signupErrorText(failure);
  const taken = 'key' in text && text.key === 'email_exists';
  return refusedWith(value, readableText(text, texts), status, taken);
}

export function carrySignedUp(answer: AnswerHeaders, account: SignedUpAccount): void {
  carryToNextScreen(answer, SIGNED_UP_COOKIE, encodeSignedUp(account));
}
