import type { Context } from 'hono';
import { logError } from '../../shared/log';
import type { AppEnv } from '../env';

/**
 * What a card gateway's charge POST asked for, kept under the polling id the product API named
 * (SPEC.md §7 polling flow): its result arrives later, on a GET that names neither the card nor
 * the plan. The card feeds the card-testing limits of a decline; the plan and coupon price a
 * success whose answer leaves out what was charged (./catalogue-charge.ts).
 */
export interface PollingCharge {
  /** The card's fingerprint, null for the card on file or one no source knows. */
  card: string | null;
  /** The `:planId` of the POST. */
  planId: string | null;
  /** The request's coupon code (SPEC.md §3 request payload). */
  coupon: string | null;
}

/** How long it is kept: a result is long final by then. */
const KEPT_MS = 60 * 60_000;

function stub(c: Context<AppEnv>, pollingId: string) {
  const namespace = c.env.RATE_LIMITER;
  // The key's old name: memos written before the plan was kept stay readable (readCharge).
  return namespace.get(namespace.idFromName(`charged_card:${pollingId}`));
}

const text = (value: unknown): string | null =>
  typeof value === 'string' && value !== '' ? value : null;

/** A memo as stored: JSON, or the bare card fingerprint of the format before it. */
export function readCharge(fact: string | null): PollingCharge | null {
  if (fact === null) return null;
  if (!fact.startsWith('{')) return { card: fact, planId: null, coupon: null };
  try {
    const kept = JSON.parse(fact) as Record<string, unknown>;
    return { card: text(kept.card), planId: text(kept.planId), coupon: text(kept.coupon) };
  } catch {
    return null;
  }
}

/** Keeps what the POST charged; a failure is logged and costs only the fallbacks. */
export async function rememberPollingCharge(
  c: Context<AppEnv>,
  pollingId: string,
  charge: PollingCharge,
): Promise<void> {
  try {
    await stub(c, pollingId).remember(JSON.stringify(charge), KEPT_MS);
  } catch (error) {
    logError('rate_limiter_failed', { id: c.get('requestId'), detail: String(error) });
  }
}

export async function recallPollingCharge(
  c: Context<AppEnv>,
  pollingId: string,
): Promise<PollingCharge | null> {
  try {
    return readCharge(await stub(c, pollingId).recall());
  } catch (error) {
    logError('rate_limiter_failed', { id: c.get('requestId'), detail: String(error) });
    return null;
  }
}
