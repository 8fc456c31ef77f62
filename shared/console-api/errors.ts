import type { Change, VersionSummary } from './versions';

/** How a `/console/*` call is refused: by field, or by an error code. */

/** A refusal that names the field: `split.variants.lp1.weight`, `flows.flows.default`… */
export interface FieldError {
  path: string;
  message: string;
}

/** 400: the document is refused, nothing written. */
export interface InvalidAnswer {
  ok: false;
  error: 'invalid_config';
  errors: FieldError[];
}

/** 409: someone published since `base`; nothing written. */
export interface ConflictAnswer {
  ok: false;
  error: 'version_conflict';
  head: VersionSummary;
  /** What changed between the edit's base and the head. */
  changes: Change[];
}

/**
 * Error codes of `/console/*` answers other than the two above (JSON `{ ok: false, error }`):
 * - console_not_configured (503): production without the Access settings;
 * - access_token_missing (401), access_token_invalid (403): Cloudflare Access;
 * - cross_origin (403): a write not from the console's own page;
 * - bad_request (400): a body that is not the call's JSON;
 * - unknown_version (404), unknown_variant (404), unknown_experiment (404), unknown_alert (404);
 * - unknown_route (404): a route preview link that is not signed, or is over an hour old;
 * - config_store_failed (503): D1 or KV failed; nothing published;
 * - preview_failed (502): the page of a content preview could not be drawn;
 * - approval_required (403, with `reasons`): a publish, roll back or ramp resume that changes
 *   what visitors get without an approval of the shared draft's revision it publishes (draft.ts)
 *   or a break-glass, while PUBLISH_APPROVAL is `required` (worker/config/gate.ts);
 * - break_glass_refused (403, with `message`): a break-glass with no reason, or no alerts
 *   webhook to announce it to;
 * - own_draft (403): an approval by one of the draft's editors;
 * - draft_too_large (413): a draft section over the size a publish takes;
 * - rate_limited (429): too many saves of the draft for now;
 * - ramp_changed (409): a ramp move asked of a ramp that moved since the console showed it
 *   (ramp-status.ts RampMoveRequest), or one its status does not take; nothing written;
 * - token_invalid (401): a console token (tokens.ts) that is malformed, unknown or revoked;
 * - token_not_allowed (403): a call no token makes (publish, approve, roll back, …);
 * - token_scope (403): a call, or a draft edit, beyond the token's scopes;
 * - token_name_taken (409): a new token under a name already given;
 * - unknown_token (404): revoking a token that is not there or no longer works;
 * - unknown_ad_cost (404): deleting an ad cost no import wrote (ad-costs.ts).
 */
export const CONSOLE_ERROR_CODES = [
  'console_not_configured',
  'access_token_missing',
  'access_token_invalid',
  'cross_origin',
  'bad_request',
  'unknown_version',
  'unknown_variant',
  'unknown_experiment',
  'unknown_alert',
  'unknown_route',
  'config_store_failed',
  'preview_failed',
  'approval_required',
  'break_glass_refused',
  'own_draft',
  'draft_too_large',
  'rate_limited',
  'ramp_changed',
  'token_invalid',
  'token_not_allowed',
  'token_scope',
  'token_name_taken',
  'unknown_token',
  'unknown_ad_cost',
] as const;

export type ConsoleErrorCode = (typeof CONSOLE_ERROR_CODES)[number];
