import type { ConsoleErrorCode } from '../../shared/console-api/errors';

/** What went wrong with a call, besides a refused document or a conflict. */
export type CallFailure = ConsoleErrorCode | 'network' | 'unreadable';

/** Each failure's text for the marketer, in one place. */
const FAILURE_TEXTS: Record<CallFailure, string> = {
  console_not_configured:
    'The console is not set up on this deployment: its Cloudflare Access settings are missing.',
  access_token_missing:
    'You are not signed in. Reload the page to sign in through Cloudflare Access.',
  access_token_invalid:
    'Your sign-in was refused or has expired. Reload the page to sign in again.',
  cross_origin:
    'The worker refused a request that did not come from this page. Reload the page and try again.',
  bad_request:
    'The worker did not understand what the console sent. Reload the page and try again.',
  unknown_version: 'That version does not exist. Reload the page to see the history as it is.',
  unknown_variant: 'That variant does not exist in the live config.',
  unknown_experiment: 'That experiment does not exist in the live config. Reload the page.',
  unknown_alert: 'That alert does not exist. Refresh the alerts to see them as they are.',
  unknown_route: 'That preview link has expired. Test the visitor again for a new one.',
  config_store_failed:
    'The config store could not be reached; nothing was published. Try again in a minute.',
  preview_failed: 'The preview could not be drawn. Try again; your edits are kept in the draft.',
  approval_required:
    'This changes what visitors get: a second person must approve it first. Put it in the draft and send it for review, or break the glass with a reason (the team is alerted).',
  break_glass_refused:
    'A break-glass needs a reason, and an alerts webhook to tell the team (set on the Experiments page); nothing was published.',
  own_draft: 'You edited this draft, so you cannot approve it: someone else must.',
  draft_too_large: 'The draft is larger than a publish may be; nothing was saved.',
  rate_limited: 'Too many saves of the draft for now: wait a minute; your edits stay on this page.',
  ramp_changed:
    'The ramp moved since this page showed it (the 15-minute check or someone else): nothing was changed. Read its results again and decide.',
  token_invalid: 'That console token does not work: it is mistyped, unknown or revoked.',
  token_not_allowed: 'A console token cannot do this: a person must, in the console.',
  token_scope: 'The console token lacks the scope this needs.',
  token_name_taken: 'A token already has that name (revoked ones keep theirs): choose another.',
  unknown_token: 'No working token has that name. Refresh the list to see the tokens as they are.',
  unknown_ad_cost: 'No ad cost of that day, source and campaign is kept: it was deleted already.',
  network: 'The worker could not be reached. Check your connection and try again.',
  unreadable:
    'The worker answered something the console cannot read. If your sign-in expired, reload the page.',
};

export function isCallFailure(code: unknown): code is CallFailure {
  return typeof code === 'string' && Object.hasOwn(FAILURE_TEXTS, code);
}

export function failureText(failure: CallFailure): string {
  return FAILURE_TEXTS[failure];
}
