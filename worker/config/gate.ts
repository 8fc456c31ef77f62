import type { ConfigDocument } from '../../shared/console-api/config';
import type { ApprovalReason, SharedDraft } from '../../shared/console-api/draft';
import { BREAK_GLASS_REASON_MAX } from '../../shared/console-api/versions';
import { describeError, logError, logLine } from '../../shared/log';
import { type RampSubject, rampAt, withRamp } from '../experiments/ramps/ramp-subjects';
import { webhookAddressProblem } from '../http/webhook-address';
import { diffDocuments, sameJson } from './diff';
import { inEffectFromKv } from './document';
import { CONFIG_KEYS } from './load';
import type { LiveKeys } from './publish';

/**
 * The one gate every publish goes through (docs/operate.md, "One gate"): the console's publish
 * and roll back, its ramp moves and its Copy area, the cron's ramp engine, `npm run config` and
 * `npm run translations` all publish through worker/config/publish.ts or
 * worker/translations/publish-copy.ts, and both ask `signOffOf` before a version is claimed.
 * Where PUBLISH_APPROVAL is `required`, a publish that changes what visitors get (./approval.ts)
 * goes out only:
 * - as the shared draft's newest revision, exactly, approved by someone who did not edit it
 *   (worker/config/draft-store.ts): an approval covers that revision's document and nothing saved
 *   after it or by anyone else;
 * - as a guarded ramp's move that changes that ramp alone: the engine's (the ramp's steps and
 *   guardrails were approved when it started) or a person's hold or roll back, which only take
 *   visitors away from the variant. A person's resume is not one: it needs a break-glass;
 * - as the first version of an empty history (the seed), which publishes what KV serves already;
 * - or by breaking the glass: a reason, kept in the history and announced to the alerts' webhook
 *   (the alerts' run posts it, signed, as every alert). With no webhook to tell, the glass stays
 *   whole: an emergency nobody hears of is a side door.
 * Who approved, who asked, who edited and why the glass was broken are the version's, shown by
 * the History.
 */

/** What the gate needs of where it runs. */
export interface PublishGate {
  /** PUBLISH_APPROVAL is `required` where this publishes. */
  required: boolean;
  /** The shared draft's newest revision, with its review (CONFIG_DB). */
  newestDraft(): Promise<SharedDraft | null>;
  /** Claims a break-glass's alert for the alerts' run to post (worker/alerts/break-glass.ts). */
  announce(glass: BrokenGlass, webhook: string, now: Date): Promise<void>;
  /** Development takes a local webhook (worker/http/webhook-address.ts). */
  development: boolean;
}

/** What a publish claims lets it through, checked against the change itself. */
export type Clearance =
  /** The shared draft's revision it publishes (absent when the console sent none). */
  | { kind: 'draft'; revision: number | undefined }
  | { kind: 'break_glass'; reason: string }
  /** A guarded ramp's move: by its engine (the cron), or a person's from its results. */
  | { kind: 'ramp'; subject: RampSubject; by: 'engine' | 'person' }
  /** The first version of an empty history: what KV serves already. */
  | { kind: 'seed' }
  | { kind: 'none' };

/** Who let a version out, as the history keeps it. */
export interface SignOff {
  approver?: string;
  requester?: string;
  editors?: string[];
  breakGlass?: string;
}

export type GateRefusal =
  | { kind: 'approval_required'; reasons: ApprovalReason[] }
  /** A break-glass with no reason, or no webhook to announce it to. */
  | { kind: 'break_glass_refused'; why: string };

export type GateVerdict =
  | {
      ok: true;
      signOff: SignOff;
      /** Where a break-glass is announced: the webhook live before it. */
      announceTo?: string;
    }
  | { ok: false; refusal: GateRefusal };

/** The shared draft's sign-off when `document` is exactly its newest `revision`. */
async function draftSignOff(
  gate: PublishGate,
  revision: number | undefined,
  document: unknown,
): Promise<{ signOff: SignOff; approved: boolean }> {
  if (!revision) return { signOff: {}, approved: false };
  const newest = await gate.newestDraft();
  if (newest?.revision !== revision || !sameJson(newest.document, document))
    return { signOff: {}, approved: false };
  const { review } = newest;
  const approver = review?.approvedBy;
  // An approval by an editor or the requester is never written (draft-route.ts); held here too.
  const approved =
    approver !== undefined &&
    !newest.editors.includes(approver) &&
    approver !== review?.requestedBy;
  return {
    approved,
    signOff: {
      ...(newest.editors.length > 0 ? { editors: newest.editors } : {}),
      ...(review ? { requester: review.requestedBy } : {}),
      ...(approved ? { approver } : {}),
    },
  };
}

/**
 * Whether `next` differs from `current` in `subject`'s ramp alone; for a person, only by taking
 * visitors away (held or rolled back), its steps and guardrails as they were.
 */
function rampMoveOnly(
  current: ConfigDocument | null,
  next: ConfigDocument,
  subject: RampSubject,
  by: 'engine' | 'person',
): boolean {
  const before = current === null ? undefined : rampAt(current, subject);
  const after = rampAt(next, subject);
  if (current === null || before === undefined || after === undefined) return false;
  // Nothing else changed, as the history reads a change (its stamps left out).
  if (diffDocuments(withRamp(current, subject, after), next).length > 0) return false;
  if (!sameJson({ ...before, state: null }, { ...after, state: null })) return false;
  return by === 'engine' || after.state.status === 'held' || after.state.status === 'rolled_back';
}

/** The alerts' webhook as the edge reads it now, if it has one it may post to. */
async function breakGlassWebhook(live: LiveKeys, development: boolean): Promise<string | null> {
  const experiments = inEffectFromKv('experiments', await live.read(CONFIG_KEYS.experiments));
  const webhook = experiments.value.alerts?.webhook;
  if (!webhook || webhookAddressProblem(webhook, { development }) !== null) return null;
  return webhook;
}

/** The gate's answer for a break-glass: its reason, if it has one and someone will hear of it. */
async function breakGlass(gate: PublishGate, live: LiveKeys, reason: string): Promise<GateVerdict> {
  const said = reason.trim();
  if (said === '' || said.length > BREAK_GLASS_REASON_MAX)
    return {
      ok: false,
      refusal: {
        kind: 'break_glass_refused',
        why: `a break-glass needs a reason of 1 to ${BREAK_GLASS_REASON_MAX} characters`,
      },
    };
  const webhook = await breakGlassWebhook(live, gate.development);
  if (webhook === null)
    return {
      ok: false,
      refusal: {
        kind: 'break_glass_refused',
        why: 'a break-glass is announced to the alerts webhook, and none is set: set it on the Experiments page (its change needs an approval too)',
      },
    };
  return { ok: true, signOff: { breakGlass: said }, announceTo: webhook };
}

/** What a publish asks of the gate. */
export interface GateRequest {
  clearance: Clearance;
  /** The document or copy as sent, which an approved draft revision must equal. */
  sent: unknown;
  /** The changes that need approval (./approval.ts). */
  reasons: ApprovalReason[];
  /** For a ramp's move: the config before and after; for the seed: whether history is empty. */
  current?: ConfigDocument | null;
  next?: ConfigDocument;
  emptyHistory: boolean;
}

/** Whether a publish may go out, and who the history names for it. */
export async function signOffOf(
  gate: PublishGate,
  live: LiveKeys,
  request: GateRequest,
): Promise<GateVerdict> {
  const { clearance, reasons } = request;
  const fromDraft =
    clearance.kind === 'draft'
      ? await draftSignOff(gate, clearance.revision, request.sent)
      : { signOff: {}, approved: false };
  if (!gate.required || reasons.length === 0 || fromDraft.approved)
    return { ok: true, signOff: fromDraft.signOff };
  switch (clearance.kind) {
    case 'break_glass':
      return breakGlass(gate, live, clearance.reason);
    case 'ramp':
      if (
        request.next !== undefined &&
        rampMoveOnly(request.current ?? null, request.next, clearance.subject, clearance.by)
      )
        return { ok: true, signOff: {} };
      break;
    case 'seed':
      if (request.emptyHistory) return { ok: true, signOff: {} };
      break;
  }
  return { ok: false, refusal: { kind: 'approval_required', reasons } };
}

/** A break-glass version, as its alert names it. */
export interface BrokenGlass {
  history: 'config' | 'copy';
  version: string;
  author: string;
  reason: string;
}

/** After a publish the gate let through: its break-glass announced, if it was one. */
export async function announceIfBroken(
  gate: PublishGate,
  verdict: Extract<GateVerdict, { ok: true }>,
  published: Omit<BrokenGlass, 'reason'>,
  now: Date,
): Promise<void> {
  const reason = verdict.signOff.breakGlass;
  if (reason === undefined || verdict.announceTo === undefined) return;
  await announceBreakGlass(gate, verdict.announceTo, { ...published, reason }, now);
}

/**
 * Announces a break-glass publish (an alert claimed for the alerts' run to post: once, signed,
 * retried) to the webhook the gate found live before it (a break-glass may publish a config
 * without one). The version is out already: an announcement that fails is an error line, and the
 * History still shows it.
 */
async function announceBreakGlass(
  gate: PublishGate,
  webhook: string,
  glass: BrokenGlass,
  now: Date,
): Promise<void> {
  logLine({ event: 'break_glass', ...glass, reason: glass.reason.slice(0, 200) });
  try {
    await gate.announce(glass, webhook, now);
  } catch (error) {
    logError('break_glass_alert_failed', {
      version: glass.version,
      detail: describeError(error),
    });
  }
}
