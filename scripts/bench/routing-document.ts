import type { Condition, RouteDocument, RoutingDocument } from '../../shared/config/routing';
import type { InAppBrowser } from '../../shared/in-app-browser';
import { detectInAppBrowser } from '../../shared/in-app-browser';
import { seededRandom } from '../../shared/seeded-random';
import type { RequestFacts } from '../../worker/routing/attributes';
import type { FirstTouch } from '../../worker/routing/first-touch';

/**
 * The routing the bench measures (`npm run bench -- routing`, ./routing.ts): as large as the issue
 * 38 budget names, 50 routes over 30 audiences, built the way marketers build them (a network and
 * a few countries, a campaign's texts, a platform, evening hours, returning visitors), and the
 * visitors it routes. Deterministic, so two runs measure the same work.
 */

export const BENCH_ROUTES = 50;
export const BENCH_AUDIENCES = 30;

const pick = <T>(random: () => number, values: readonly T[]): T =>
  values[Math.floor(random() * values.length)] as T;

function some<T>(random: () => number, values: readonly T[], count: number): T[] {
  const pool = [...values];
  const chosen: T[] = [];
  while (chosen.length < count && pool.length > 0) {
    chosen.push(pool.splice(Math.floor(random() * pool.length), 1)[0] as T);
  }
  return chosen;
}

const EUROPE = ['DE', 'AT', 'CH', 'FR', 'BE', 'NL', 'IT', 'ES', 'PT', 'PL', 'SE', 'DK', 'NO', 'FI'];
const AMERICAS = ['US', 'CA', 'MX', 'BR', 'AR', 'CL', 'CO'];
const CAMPAIGNS = ['bf24', 'cyber', 'xmas', 'spring', 'retarget', 'lookalike', 'ugc', 'brand'];

/** One condition of the kinds marketers write, each naming values few visitors have. */
function condition(random: () => number): Condition {
  switch (Math.floor(random() * 12)) {
    case 0:
      return { attribute: 'source', operator: 'in', values: some(random, ['tiktok', 'meta'], 1) };
    case 1:
      return {
        attribute: 'country',
        operator: 'in',
        values: some(random, [...EUROPE, ...AMERICAS], 2 + Math.floor(random() * 10)),
      };
    case 2:
      return {
        attribute: 'utm_campaign',
        operator: 'contains',
        values: some(random, CAMPAIGNS, 2),
      };
    case 3:
      return {
        attribute: 'utm_campaign',
        operator: 'starts_with',
        values: [pick(random, CAMPAIGNS)],
      };
    case 4:
      return { attribute: 'utm_medium', operator: 'equals', values: ['paid_social'] };
    case 5:
      return { attribute: 'utm_source', operator: 'in', values: ['tiktok', 'tt', 'tiktok_ads'] };
    case 6:
      return { attribute: 'platform', operator: 'in', values: [pick(random, ['ios', 'android'])] };
    case 7:
      return { attribute: 'browser', operator: 'not_in', values: ['in_app', 'other'] };
    case 8:
      return { attribute: 'in_app', operator: 'in', values: ['tiktok', 'instagram'] };
    case 9:
      return { attribute: 'hour', operator: 'in', values: [19, 20, 21, 22, 23] };
    case 10:
      return { attribute: 'weekday', operator: 'in', values: ['sat', 'sun'] };
    default:
      return { attribute: 'visitor', operator: 'in', values: ['returning'] };
  }
}

function audience(random: () => number): Condition[][] {
  return Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
    const group: Condition[] = [];
    const size = 2 + Math.floor(random() * 3);
    while (group.length < size) {
      const next = condition(random);
      // One condition per attribute, as the console's builder writes them.
      if (!group.some((other) => other.attribute === next.attribute)) group.push(next);
    }
    return group;
  });
}

export function benchRouting(): RoutingDocument {
  const random = seededRandom(38);
  const audiences = Object.fromEntries(
    Array.from({ length: BENCH_AUDIENCES }, (_, n) => [
      `audience_${n}`,
      { groups: audience(random) },
    ]),
  );
  const routes: RouteDocument[] = Array.from({ length: BENCH_ROUTES - 1 }, (_, n) => ({
    id: `route_${n}`,
    audience: `audience_${n % BENCH_AUDIENCES}`,
    flow: pick(random, ['default', 'lp1ch2', 'lp17ch17pr5']),
    ...(n % 7 === 3 ? { paused: true } : {}),
    ...(n % 5 === 1 ? { schedule: { from: '2026-11-27T00:00Z', until: '2026-12-02T00:00Z' } } : {}),
    ...(n % 9 === 4 ? { plans: ['monthly'] } : {}),
  }));
  routes.push({ id: 'default', flow: 'default' });
  return { version: 'bench', audiences, routes };
}

const USER_AGENTS = [
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Linux; Android 13; SM-A536B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:127.0) Gecko/20100101 Firefox/127.0',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 musical_ly_35.1.0 JsSdk/2.0 NetType/WIFI Channel/App Store ByteLocale/en Region/DE',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0.0.0 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/470.0.0.0;]',
];

const ZONES = ['Europe/Berlin', 'America/New_York', 'America/Sao_Paulo', 'Asia/Tokyo', null];

/** Epoch ms the visitors arrive at: a weekday morning in Europe, before the scheduled routes. */
export const BENCH_NOW = Date.UTC(2026, 10, 25, 9, 30);

function touch(random: () => number, now: number): FirstTouch {
  // Most visits carry no campaign at all (direct, organic): they test every route and fall
  // through to the default, the most work a visitor can cost.
  const tagged = random() < 0.15;
  const network = tagged ? pick(random, ['tiktok', 'meta', 'google'] as const) : null;
  return {
    source: network ?? pick(random, ['direct', 'organic']),
    // Most ad clicks carry the network's click id; a link tagged by hand does not.
    click_id: network !== null && random() < 0.8 ? network : null,
    utm: {
      source: tagged ? pick(random, ['tiktok', 'facebook', 'google']) : null,
      medium: tagged ? pick(random, ['paid_social', 'cpc']) : null,
      campaign: tagged ? `${pick(random, CAMPAIGNS)}_${Math.floor(random() * 100)}` : null,
      content: null,
      term: null,
    },
    entry: random() < 0.05 ? 'bf24' : null,
    country: random() < 0.9 ? pick(random, ['DE', 'US', 'GB', 'IN', 'JP', 'BR', 'TR']) : null,
    began_at: now,
  };
}

/** `count` arriving visitors, as the route middleware hands them to visitorFacts. */
export function benchVisitors(count: number): RequestFacts[] {
  const random = seededRandom(2026);
  return Array.from({ length: count }, () => {
    const userAgent = pick(random, USER_AGENTS);
    const inApp: InAppBrowser | null = detectInAppBrowser(userAgent);
    return {
      firstTouch: touch(random, BENCH_NOW),
      language: pick(random, ['en', 'de', 'es', 'pt']),
      userAgent,
      platformHint: random() < 0.3 ? '"Android"' : undefined,
      inApp,
      returning: random() < 0.2,
      timeZone: pick(random, ZONES),
      now: BENCH_NOW,
    };
  });
}
