import * as z from 'zod';
import { isValidEmail } from '../email-validity';
import { toE164 } from '../phone/phone-number';
import { isPlanId } from '../plans/catalogue';
import { SCREEN_IDS } from '../screens';

/**
 * The resume link: the way out of an ad app's in-app browser that keeps the visitor's progress.
 * The page asks the worker for a short-lived, single-use link (`POST /api/resume`) and opens it
 * in the real browser (`GET /resume/<token>`), which lands on the same screen with the same
 * visitor, variant, ad cookies and what the visitor entered. Declared once for the worker and the
 * islands (which take the types only; the paths are in resume-paths.ts, free of zod).
 */

/** A query string as the page's `location.search` gives it: empty, or `?` and no fragment. */
const Search = z
  .string()
  .max(2048)
  .regex(/^(\?[^#\s]*)?$/, 'a query string');

/** An address the sign-up form would take (shared/email-validity.ts: the one rule for both). */
const Email = z.string().trim().refine(isValidEmail, 'an email address');

/** A number in E.164, as the phone form stores it (shared/phone). */
const Phone = z
  .string()
  .max(16)
  .refine((value) => value.startsWith('+') && toE164(value, '') === value, 'an E.164 number');

const PlanIdField = z.string().max(64).refine(isPlanId, 'a plan id of the catalogue');

/** What the visitor entered so far: nothing that pays, only what saves retyping. */
export const ResumeEntered = z.strictObject({
  email: Email.optional(),
  planId: PlanIdField.optional(),
  phone: Phone.optional(),
});
export type ResumeEntered = z.infer<typeof ResumeEntered>;

export const ResumeRequest = z.strictObject({
  screen: z.enum(SCREEN_IDS),
  search: Search.optional(),
  entered: ResumeEntered.optional(),
  /**
   * A signed-up visitor's one-time login token (the sign-up's `deeplink_token`, SPEC.md §7), so
   * the real browser is signed in to the same account; taken only from a request that carries
   * the worker's session cookie (worker/resume/create-link.ts). Never the access token.
   */
  loginToken: z.string().min(1).max(255).optional(),
});
export type ResumeRequest = z.infer<typeof ResumeRequest>;

export interface ResumeAnswer {
  /** The link to open in the real browser: `<origin>/resume/<id>.<signature>`. */
  url: string;
  /** When the link stops working, ISO 8601. */
  expiresAt: string;
}
