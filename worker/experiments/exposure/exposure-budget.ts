import type { Bindings } from '../../env';
import {
  addressAdmits,
  byIp,
  everyRequest,
  type RateLimitRule,
  rulesFor,
} from '../../rate-limits/rate-limit-gate';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * How many pages that expose a visitor one address may have counted a day
 * (docs/statistics.md, "What is counted"). Anyone can mint a visitor id, load a page and so be
 * exposed; a bot that did it 300 times in 7 s from one address held a ramp on the sample-ratio
 * check, and flooding both arms diluted the decline guardrail. Thirty a day is far more than a
 * household's new visitors on a funnel, and bounds what one address adds to the arms: the ramp's
 * sample-ratio test needs some 3.5 √n exposures more in one arm than the other to hold it (n both
 * arms' exposed), which thirty a day reaches only after some 17 days on the fewest visitors a ramp
 * judges. Past it a page's draws are counted apart (`over_budget`, shown beside the bots), as an
 * office or a carrier's shared address may send more real visitors than this: they are left out
 * alike in every arm, so the comparison stays fair and only its sample is smaller. IPv6 counts
 * per /64, as every address limit does. `npm start` allows twenty times as many (rulesFor).
 */
const exposuresPerAddress: RateLimitRule = everyRequest('exposures_per_ip', byIp, 30, DAY_MS);

/**
 * Whether the address of a page that exposed its visitor may still have it counted today: one hit
 * on the address's counter, after the answer is sent. Fails open: the counter unreachable, the
 * exposure counts (a `rate_limiter_failed` line), since losing real visitors' exposures while the
 * limiter is down would cost every arm its data, where letting a flood through for that while
 * costs at most what the flood sends in that time.
 */
export async function exposureWithinBudget(
  env: Bindings,
  connectingIp: string | undefined,
  requestId: string,
  rule: RateLimitRule = exposuresPerAddress,
): Promise<boolean> {
  const [applied = rule] = rulesFor(env, [rule]);
  const budget = await addressAdmits(env.RATE_LIMITER, applied, connectingIp, {
    requestId,
    failOpen: true,
  });
  return budget.admitted;
}
