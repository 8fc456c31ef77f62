import * as z from 'zod';
import { ResumeEntered, ResumeRequest } from '../../shared/api/resume';
import { IN_APP_NAMES, type InAppApp } from '../../shared/in-app-browser';

/**
 * What a resume link carries (stored as JSON in EVENTS_DB resume_links): the visitor, their
 * variant, where they were, what they entered, and the first-party ad cookies and consent answer
 * that attribution reads. The worker fills every field but `screen`, `search` and `entered` from
 * the request itself, never from the page's body. Deliberately without the session cookie, the
 * access token, card data or anything the portal answered; a signed-up visitor's one-time login
 * token only sealed (sealed-sign-in.ts).
 */
export const ResumeRecord = z.object({
  visitorId: z.uuid(),
  /**
   * The split's variant the visitor is pinned to (`gf_variant`); null before they were exposed
   * to it (their variant follows from their id, which the link carries) and for a marketer's
   * preview, which assigns nothing.
   */
  variant: z.string().min(1).max(200).nullable(),
  /**
   * The other experiments' pins (`gf_x`, worker/experiments/assignment/assign.ts); null when none, and in
   * records made before there were other experiments.
   */
  pins: z.string().min(1).max(2000).nullable().default(null),
  screen: ResumeRequest.shape.screen,
  search: z.string(),
  entered: ResumeEntered,
  adCookies: z.object({
    fbc: z.string().nullable(),
    fbp: z.string().nullable(),
    ttp: z.string().nullable(),
    /** _gf_ttclid; null in records made before it was carried. */
    ttclid: z.string().nullable().default(null),
  }),
  consent: z.enum(['granted', 'denied']).nullable(),
  /** The in-app browser the link was asked for in, told from that request's user agent. */
  from: z
    .object({
      app: z.enum(Object.keys(IN_APP_NAMES) as [InAppApp, ...InAppApp[]]),
      os: z.enum(['ios', 'android', 'other']),
    })
    .nullable()
    .default(null),
  /**
   * After sign-up: the one-time login token, sealed for this record, and the account's user id
   * as the session cookie named it.
   */
  signIn: z
    .object({ sealed: z.string().min(1), userId: z.string().min(1).nullable() })
    .nullable()
    .default(null),
});
export type ResumeRecord = z.infer<typeof ResumeRecord>;
