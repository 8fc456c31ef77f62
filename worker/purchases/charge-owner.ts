import { type ApiRefusal, refusal } from '../http/api-json';
import { type PollingCharge, type PollingStore, recallPollingCharge } from './after-charge';

/** Who asks: the visitor uuid and the signed-in user of the request. */
export interface Session {
  visitorId: string;
  userId: string | null;
}

/**
 * Whether `memo`'s charge belongs to `session`: the same visitor uuid and the same signed-in user
 * as the request that started it. A resume link carries both into the visitor's other browser
 * (worker/resume/), so the promise holds there too. A memo written before owners were kept names
 * nobody and is read by whoever asks, as before; it lapses within the hour it is kept
 * (./after-charge.ts rememberPollingCharge), so the old rule ends an hour after the deploy that brought this one.
 */
function ownedBy(memo: PollingCharge, session: Session): boolean {
  if (memo.visitorId === null && memo.userId === null) return true;
  return memo.visitorId === session.visitorId && memo.userId === session.userId;
}

export type PollingAccess = { ok: true; memo: PollingCharge } | { ok: false; refusal: ApiRefusal };

/**
 * Who asks, as the request says: its visitor uuid, and its signed-in user, read only when there
 * is a memo to compare it with (worker/request/signed-in-user.ts sessionUserId checks a signature).
 */
export interface Asking {
  visitorId: string;
  userId: () => Promise<string | null>;
}

/**
 * A charge's result is read only by the session that started it. Any other request, and one for
 * a polling id the worker never answered (or forgot, or cannot read now), gets the same answer,
 * 404 `polling_not_found`, without the product API being asked: nobody learns whether the id
 * exists, and nothing is recorded for them.
 */
export async function pollingAccess(
  store: PollingStore,
  pollingId: string,
  asking: Asking,
): Promise<PollingAccess> {
  const memo = await recallPollingCharge(store, pollingId);
  if (
    memo !== null &&
    ownedBy(memo, { visitorId: asking.visitorId, userId: await asking.userId() })
  ) {
    return { ok: true, memo };
  }
  return { ok: false, refusal: refusal('polling_not_found') };
}
