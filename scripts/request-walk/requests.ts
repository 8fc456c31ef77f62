import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ConsoleState, PublishRequest } from '../../shared/console-api/config';
import { browserFetch, testGatewayCard } from '../load/journey';

/**
 * The three requests `npm run walk` measures, each after what a visitor or marketer does first.
 * The browser's own calls (islands/api/client.ts) and the console's paths are imported from the
 * checkout being measured (`--repo`), so an older checkout is driven as its own pages drove it.
 */

type ApiClient = typeof import('../../islands/api/client');
type ConsolePaths = typeof import('../../shared/console-api/config');

export interface MeasuredRequest {
  name: string;
  /** What was done before the measured request, for the report. */
  before: string;
  /** Sends the measured request and reads its answer to the end; its status. */
  send(): Promise<number>;
}

export interface Checkout {
  repo: string;
  origin: string;
}

const PLAN = 'monthly_7d_intro_usd';
/** A documentation address (RFC 5737), as Cloudflare would give it in CF-Connecting-IP. */
const ADDRESS = '192.0.2.58';

function fromCheckout<T>(repo: string, path: string): Promise<T> {
  return import(pathToFileURL(join(repo, path)).href) as Promise<T>;
}

/**
 * The walk's own calls each on a connection of their own: one kept from the call before, which
 * workerd may close as the next is written, failed the walk once under load ("other side
 * closed"). A connection's opening is the socket's, not the worker's: the walk is the same.
 */
const OWN_CONNECTION = { connection: 'close' };

async function read(response: Response): Promise<number> {
  await response.arrayBuffer();
  return response.status;
}

/**
 * `GET /` as a first-time visitor: no cookies. Another first-time visitor comes first, so the
 * walk is a warm isolate's, as most of production's are, not the worker's first request.
 */
async function landing({ origin }: Checkout): Promise<MeasuredRequest> {
  const firstVisit = () =>
    fetch(new URL('/', origin), { redirect: 'manual', headers: OWN_CONNECTION });
  await read(await firstVisit());
  return {
    name: 'landing GET /',
    before: 'another first-time visitor’s GET /; this one has no cookies',
    send: async () => read(await firstVisit()),
  };
}

/**
 * The subscription POST of the default checkout: with the embedded portal's 'test' gateway the
 * card route is polling (islands/payments/providers/index.ts chooseProvider), so
 * startPollingSubscription, as islands/payments/charge.ts makes it.
 */
async function purchase({ repo, origin }: Checkout): Promise<MeasuredRequest> {
  const client = await fromCheckout<ApiClient>(repo, 'islands/api/client.ts');
  const { fetch: pageFetch, visitorId } = browserFetch({ origin, address: ADDRESS });
  const call = { fetch: pageFetch };
  await read(await pageFetch('/'));
  const email = `walk-${visitorId}@example.test`;
  await client.signUp(
    { registration_source: 'email', email, user_uuid: visitorId, landing_type: '' },
    call,
  );
  const card = await testGatewayCard(pageFetch).createPaymentMethod({ cardholderName: 'Walk' });
  const body = {
    gateway: 'test',
    payment_method_nonce: card.nonce,
    coupon: null,
    payment_intent_id: null,
    user_data: { plan: PLAN, price: '6.99', currency: 'USD' },
  };
  return {
    name: `purchase POST ${client.apiUrl('pollingSubscription', { planId: PLAN })}`,
    before: 'GET /, sign-up, the test card tokenized at the test gateway',
    async send() {
      await client.startPollingSubscription(PLAN, body, crypto.randomUUID(), call);
      return 200;
    },
  };
}

/**
 * The console's publish of a one-point change to the live split's first weight, as the console
 * sends it: same origin, JSON, from the head it read. Development opens the console with its
 * local author (worker/access/console-access.ts), so no Access token is needed.
 */
async function consolePublish({ repo, origin }: Checkout): Promise<MeasuredRequest> {
  const { CONSOLE_API } = await fromCheckout<ConsolePaths>(repo, 'shared/console-api/config.ts');
  const state = (await (
    await fetch(new URL(CONSOLE_API.state, origin), { headers: OWN_CONNECTION })
  ).json()) as ConsoleState;
  const variants = { ...state.live.split.variants };
  const [first] = Object.keys(variants);
  if (first === undefined) throw new Error('the live split has no variant to change');
  const variant = variants[first] as (typeof variants)[string];
  variants[first] = { ...variant, weight: variant.weight + 1 };
  const request: PublishRequest = {
    base: state.head?.seq ?? null,
    document: { ...state.live, split: { ...state.live.split, variants } },
    note: 'npm run walk',
  };
  return {
    name: `console publish POST ${CONSOLE_API.publish}`,
    before: `GET ${CONSOLE_API.state}; the first split variant's weight +1`,
    send: async () =>
      read(
        await fetch(new URL(CONSOLE_API.publish, origin), {
          method: 'POST',
          headers: {
            ...OWN_CONNECTION,
            origin,
            'sec-fetch-site': 'same-origin',
            'content-type': 'application/json',
          },
          body: JSON.stringify(request),
        }),
      ),
  };
}

/** Each request, prepared in turn: a preparation's requests must not fall in another's walk. */
export const MEASURED_REQUESTS: readonly ((checkout: Checkout) => Promise<MeasuredRequest>)[] = [
  landing,
  purchase,
  consolePublish,
];
