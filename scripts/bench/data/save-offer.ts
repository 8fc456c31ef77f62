import { REASON_FIELD } from '../../../screens/subscriber/SubscriberPage';
import type { ContentDocument } from '../../../shared/config/content';
import type { ExperimentDocument } from '../../../shared/config/experiments';
import { signSubscriberLink } from '../../../worker/subscriber-links/link-token';

/**
 * The subscriber's way out, for the data benchmark: before the product API's cancellation, each
 * renewing subscriber opens their manage link's page and the cancel's confirm, where a save offer
 * test runs (docs/experiments.md, "Testing the save offer"): a share of those offered the
 * discount take it and stay, the rest cancel on the page with a reason. What the worker writes
 * for it (the save offer's counts, reasons and money in the experiment shards, the spent link)
 * then counts in a paying visitor's figures, as the renewals do (./money-events.ts).
 */

/** The bench worker's key for subscriber links (./counting-worker.ts binds it). */
export const BENCH_SUBSCRIBER_LINK_KEY = 'bench-subscriber-link-key';

/**
 * The share of subscribers offered the discount who take it (`--saves`): an assumption, said in
 * the report. Save offers keep about one leaver in five.
 */
export const DEFAULT_SAVE_SHARE = 0.2;

/** The reasons the confirm offers; the leavers pick them in turn. */
const REASONS = ['too_expensive', 'not_using', 'found_other'] as const;

/** The save offer as a marketer writes it (content.ts `saveOffer`): the data bench's content. */
export const BENCH_SAVE_OFFER: NonNullable<ContentDocument['saveOffer']> = {
  title: { en: 'Before you go' },
  text: { en: 'We would miss you.' },
  reasons: {
    too_expensive: { en: 'It costs too much' },
    not_using: { en: 'I do not use it' },
    found_other: { en: 'I found another app' },
  },
  variants: {
    half_price: {
      title: { en: 'Stay for half price' },
      action: { kind: 'discount', percentOff: 50, renewals: 1 },
    },
  },
};

/** The save offer test the data bench runs: half the subscribers offered half price. */
export const BENCH_SAVE_OFFER_TEST: ExperimentDocument = {
  name: 'subscriber test',
  status: 'running',
  layer: 'subscriber',
  audience: {},
  coverage: 1,
  seed: 'bench-subscriber',
  phase: 1,
  control: 'a',
  variants: {
    a: { weight: 1, change: {} },
    b: { weight: 1, change: { saveOffer: 'half_price' } },
  },
};

export type WayOut = 'saved' | 'canceled';

/** The `n`th subscriber's address (TEST-NET-2, apart from the visitors'), as Cloudflare sets it. */
function address(n: number): string {
  return `198.18.${Math.floor(n / 250)}.${1 + (n % 250)}`;
}

/**
 * The `n`th renewing subscriber leaves through their manage link's page: the page, the cancel's
 * confirm, then the offer's action when `take` and it is offered, else the cancel with a reason.
 * Resolves how they left, or throws with what the worker answered.
 */
export async function leaveThroughPage(
  worker: URL,
  subscriptionId: string,
  n: number,
  take: boolean,
): Promise<WayOut> {
  const { token } = await signSubscriberLink(
    BENCH_SUBSCRIBER_LINK_KEY,
    'manage',
    subscriptionId,
    Date.now(),
  );
  const page = new URL(`/subscription/${token}`, worker);
  const headers = { 'cf-connecting-ip': address(n) };
  const get = async (url: URL) => {
    const answer = await fetch(url, { headers });
    if (!answer.ok)
      throw new Error(`GET ${url.pathname.replace(token, '<token>')}: ${answer.status}`);
    return answer.text();
  };
  const post = async (path: string, form: Record<string, string>) => {
    const answer = await fetch(new URL(`${page.pathname}/${path}`, worker), {
      method: 'POST',
      headers: { ...headers, origin: worker.origin },
      body: new URLSearchParams(form),
    });
    if (!answer.ok) throw new Error(`POST …/${path}: ${answer.status}`);
  };
  await get(page);
  const confirm = await get(new URL(`${page.pathname}/cancel`, worker));
  if (take && confirm.includes(`${page.pathname}/save-offer`)) {
    await post('save-offer', {});
    return 'saved';
  }
  await post('cancel', { [REASON_FIELD]: REASONS[n % REASONS.length]! });
  return 'canceled';
}
