import * as z from 'zod';
import {
  amount,
  type Field,
  isoTime,
  nonEmptyText,
  object,
  oneOf,
  optional,
} from './answer-fields';
import type { ApiCall } from './contract';
import { PURCHASE_LOOK } from './subscriber-calls';

/**
 * The product API's call behind the contract page (`/contract/withdraw`, `/contract/cancel`,
 * worker/contract-page/): a withdrawal (EU Consumer Rights Directive Art. 11a) or a cancellation
 * (§ 312k BGB) a visitor declared without logging in, by the email and the order reference of
 * the contract. Ours, beyond SPEC.md §7 (docs/product-api.md, "Withdraw and cancel online").
 * Like the subscriber's page's calls (./subscriber-calls.ts) only the worker makes it, server to
 * server, signed with `Geofunnel-Signature` over `subscriberCallText` under LIFECYCLE_HMAC_KEY.
 *
 * The product API looks the contract up by both, and where they match a subscription of that
 * account: a withdrawal within its period ends it and refunds it (docs/payments.md, "Withdraw and
 * cancel online", gives the rule), a cancellation (or a withdrawal after its period) stops its
 * renewals; either way it emails the acknowledgement (the statement, its date and time) to the
 * address given. Its answer tells the worker what happened, which the visitor is never shown:
 * the page answers the same whether or not anything matched, so it tells no one whose address
 * holds a contract.
 */

const CONTRACT_REQUEST_KINDS = ['withdrawal', 'cancellation'] as const;

/** § 312k BGB asks whether the cancellation is ordinary or extraordinary (with its reason). */
const CANCELLATION_TYPES = ['ordinary', 'extraordinary'] as const;

/** The longest reference the page takes: a subscription's id is about 30 characters. */
export const CONTRACT_REFERENCE_MAX = 64;

/** What the visitor declared, as the page took it, and the statement they confirmed. */
export const ContractRequest = z.strictObject({
  kind: z.enum(CONTRACT_REQUEST_KINDS),
  email: z.string().min(3).max(254),
  /** The order reference or subscription id, as the receipt and the subscriber's page show it. */
  reference: z.string().min(1).max(CONTRACT_REFERENCE_MAX),
  /** Optional where the law allows: the page asks for it, never requires it. */
  name: z.string().min(1).max(120).optional(),
  cancellation_type: z.enum(CANCELLATION_TYPES).optional(),
  /** An extraordinary cancellation's reason, in the visitor's words. */
  reason: z.string().min(1).max(1000).optional(),
  /**
   * An ordinary cancellation's day (YYYY-MM-DD), where the visitor named one: it ends then, or at
   * the end of the paid period if that comes later. Absent: the earliest possible day.
   */
  end_date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  /** ISO 8601: when the visitor confirmed, the time the acknowledgement states. */
  submitted_at: z.string().min(20).max(40),
  /** The declaration the visitor confirmed, in the page's language: the acknowledgement quotes it. */
  statement: z.string().min(1).max(2000),
  /** The brand and language of the page it was declared on, for the acknowledgement's email. */
  ...PURCHASE_LOOK,
});
export type ContractRequest = z.infer<typeof ContractRequest>;

/**
 * What the product API did: `withdrawn` (ended and refunded), `canceled` (renews no more),
 * `not_matched` (no contract of that email and reference; the acknowledgement is still sent to
 * the address given, saying so).
 */
export const CONTRACT_OUTCOMES = ['withdrawn', 'canceled', 'not_matched'] as const;
export type ContractOutcome = (typeof CONTRACT_OUTCOMES)[number];

export const ContractAnswer = z.object({
  data: z.object({
    /** The product API's id for the declaration, quoted in its acknowledgement. */
    request_id: z.string().nullable(),
    /** ISO 8601: when the product API received it. */
    received_at: z.string().nullable(),
    outcome: z.enum(CONTRACT_OUTCOMES).nullable(),
    /** The subscription it ended, where one matched: the worker counts its cancellation. */
    subscription_id: z.string().nullable(),
  }),
});
export type ContractAnswer = z.infer<typeof ContractAnswer>;

/**
 * "Email me a link to my subscription" (`/contract/link`): the product API emails a fresh manage
 * link for each subscription of the account with that email (asking the worker for each with
 * `POST /hooks/subscriber-links`, `"requested_by_subscriber": true`), and nothing to an address
 * that holds none. The page answers the same either way.
 */
export const LinkRequest = z.strictObject({
  email: z.string().min(3).max(254),
  /** ISO 8601: when the visitor asked. */
  requested_at: z.string().min(20).max(40),
  ...PURCHASE_LOOK,
});
export type LinkRequest = z.infer<typeof LinkRequest>;

export const LinkRequestAnswer = z.object({
  data: z.object({
    request_id: z.string().nullable(),
    /** How many links were emailed (0: no subscription of that address); the worker logs it. */
    links: z.number().nullable(),
  }),
});
export type LinkRequestAnswer = z.infer<typeof LinkRequestAnswer>;

export const CONTRACT_CALLS = {
  contractRequest: {
    method: 'POST',
    path: '/contract-requests',
    auth: 'none',
    request: ContractRequest,
    response: ContractAnswer,
    timeoutMs: 20_000,
  },
  linkRequest: {
    method: 'POST',
    path: '/subscriber-link-requests',
    auth: 'none',
    request: LinkRequest,
    response: LinkRequestAnswer,
    timeoutMs: 20_000,
  },
} as const satisfies Record<string, ApiCall>;

/**
 * How the worker reads the answer: a 2xx is a declaration received whatever its body says, so
 * every field has a fallback (an outcome not named is unknown, and nothing is counted).
 */
export const CONTRACT_ANSWER: Field<ContractAnswer> = object({
  data: object({
    request_id: optional(nonEmptyText, null, { absent: true, null: true }),
    received_at: optional(isoTime, null, { absent: true, null: true }),
    outcome: optional(oneOf(CONTRACT_OUTCOMES), null, { absent: true, null: true }),
    subscription_id: optional(nonEmptyText, null, { absent: true, null: true }),
  }),
});

/** How the worker reads a link request's answer: a 2xx is done; its fields are for the log. */
export const LINK_REQUEST_ANSWER: Field<LinkRequestAnswer> = object({
  data: object({
    request_id: optional(nonEmptyText, null, { absent: true, null: true }),
    links: optional(amount, null, { absent: true, null: true }),
  }),
});
