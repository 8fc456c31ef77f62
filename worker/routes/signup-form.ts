import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { translatedErrorTexts } from '../../screens/error-texts';
import type { BrowserSignupResponse } from '../../shared/api/contract';
import { readableText, SIGN_UP_ERROR_KEYS, signupErrorText } from '../../shared/api/error-text';
import {
  decodeSignedUp,
  encodeSignedUp,
  type RefusedEmail,
  type SignedUpAccount,
} from '../../shared/api/form-sign-up';
import { ApiFailure } from '../../shared/api/request';
import type { ScreenRef } from '../../shared/composed-screens';
import { isValidEmail } from '../../shared/email-validity';
import type { ScreenId } from '../../shared/screens';
import { type ApiDependencies, forwardCall } from '../api/call-handler';
import type { AnswerHeaders } from '../http/answer-cookies';
import { noteRefusal, refusalBody } from '../http/api-error';
import type { TranslationVariables } from '../middleware/translations';
import type { CallVisit } from '../middleware/visit';
import {
  carryToNextScreen,
  type MalformedForm,
  readFormFields,
  takeCarried,
  textField,
} from './form-post';

/**
 * The signup screens' email form without script (islands/SignupForm.tsx before it hydrates, or
 * with JavaScript off). The worker does what the island would: checks the address by the same
 * rule, creates the account through the same §7 call, limits and session cookie as
 * `POST /api/signup` (forwardCall), and hands it to the next screen in a short-lived cookie. A
 * refusal shows the form again with what was typed and the island's own text for it.
 */

/** Carries the new account from the signup screen's post to the next screen, and no further. */
const SIGNED_UP_COOKIE = 'gf_account';

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
 * (worker/api/request-body.ts), as for the island's call, which sets the session's cookies on the
 * answer (worker/api/call-handler.ts). `t` is the page's copy, for a refusal's text.
 */
export async function signUpFromForm(
  visit: CallVisit,
  t: TranslationVariables['t'],
  shown: { ref: ScreenRef; screen: ScreenId },
  deps: ApiDependencies,
): Promise<SignUpPost> {
  const form = await readFormFields(visit.request, visit.vars.logFields);
  if (!form.ok) return { ok: false, malformed: form.malformed };
  const value = textField(form.fields, 'email');
  const email = value.trim();
  if (!isValidEmail(email)) {
    visit.vars.logFields.detail = email === '' ? 'email_empty' : 'email_invalid';
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

/** The carried account, if any, cleared as it is read (form-post.ts takeCarried). */
export function takeSignedUp(page: {
  request: Request;
  answer: AnswerHeaders;
}): SignedUpAccount | undefined {
  return decodeSignedUp(takeCarried(page, SIGNED_UP_COOKIE)) ?? undefined;
}
