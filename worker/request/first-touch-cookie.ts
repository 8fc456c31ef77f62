import { decodeFirstTouch, type FirstTouch } from '../routing/first-touch';
import type { SignedCookie, SignedCookies } from './signed-cookies';

/** The first touch's cookie: 30 days, the visit and the returns a campaign is judged on. */
export const FIRST_TOUCH_COOKIE = 'gf_touch';

export const FIRST_TOUCH_MAX_AGE = 30 * 24 * 60 * 60;

/**
 * The first touch a validly signed gf_touch keeps at `nowMs`: null when there is none, when it
 * is not signed for this visitor, or when the visit began FIRST_TOUCH_MAX_AGE ago (a browser
 * keeps the cookie that long; a visitor who saved it does not keep its campaign longer).
 */
export async function keptFirstTouch(
  cookies: SignedCookies,
  nowMs: number,
): Promise<{ touch: FirstTouch | null; cookie: SignedCookie }> {
  const cookie = await cookies.read(FIRST_TOUCH_COOKIE);
  const touch = cookie.state === 'valid' ? decodeFirstTouch(cookie.value) : null;
  const current = touch !== null && nowMs - touch.began_at < FIRST_TOUCH_MAX_AGE * 1000;
  return { touch: current ? touch : null, cookie };
}
