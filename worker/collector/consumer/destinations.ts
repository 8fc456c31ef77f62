import type { Bindings } from '../../env';
import { isDevelopment, isProduction } from '../../environment';
import { experimentStores } from '../../experiments/store/experiment-stores';
import { amplitudeDestination, DEFAULT_AMPLITUDE_ENDPOINT } from './amplitude';
import { archiveDestination, unconfiguredArchiveDestination } from './archive';
import type { Destination } from './destination';
import { experimentOutcomesDestination } from './experiment-outcomes';
import { subscriptionLedgerDestination } from './ledger-destination';
import { localStoreDestination } from './local-store';
import { metaDestination, metaGraphVersion } from './meta';
import type { Fetch } from './post-json';
import { tiktokDestination } from './tiktok';

function setting(value: string | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

interface AdNetworkSettings {
  pixelId: string;
  accessToken: string;
  testEventCode: string | null;
}

/** A network's pixel, token and test code, when this deployment may send to it. */
function adNetworkSettings(
  [pixel, token, testCode]: [string | undefined, string | undefined, string | undefined],
  production: boolean,
): AdNetworkSettings | null {
  const pixelId = setting(pixel);
  const accessToken = setting(token);
  const testEventCode = setting(testCode);
  if (!pixelId || !accessToken || (!production && !testEventCode)) return null;
  return { pixelId, accessToken, testEventCode };
}

/**
 * Where every event goes:
 * - the EVENTS_ARCHIVE bucket, always: the first-party record, which Amplitude does not replace
 *   (a warehouse reads it, docs/analytics.md). Unbound in a deployed worker, every batch says so
 *   and is retried (unconfiguredArchiveDestination); never D1: at 10 M visitors a month raw
 *   events fill a D1 database's 10 GB in days (ARCHITECTURE.md, "Data at scale");
 * - AMPLITUDE_API_KEY set: Amplitude too (AMPLITUDE_ENDPOINT, default api2.amplitude.com/batch);
 * - in development without the key: the local store in EVENTS_DB too (`npm run events -- tail`),
 *   so `npm start` writes the archive exactly as production does and shows events as they come.
 */
function eventStores(env: Bindings, fetch: Fetch): Destination[] {
  const stores: Destination[] = [];
  const amplitudeKey = setting(env.AMPLITUDE_API_KEY);
  if (amplitudeKey) {
    const endpoint = setting(env.AMPLITUDE_ENDPOINT) ?? DEFAULT_AMPLITUDE_ENDPOINT;
    stores.push(amplitudeDestination({ apiKey: amplitudeKey, endpoint, fetch }));
  }
  const development = isDevelopment(env);
  if (development && !amplitudeKey) stores.push(localStoreDestination(env.EVENTS_DB));
  if (env.EVENTS_ARCHIVE) stores.push(archiveDestination(env.EVENTS_ARCHIVE));
  else if (!development) stores.push(unconfiguredArchiveDestination());
  return stores;
}

/**
 * Where this deployment's events go, from its variables, secrets and bindings:
 * - every event: the archive, Amplitude when its key is set, and locally without it the local
 *   store, as eventStores says;
 * - META_PIXEL_ID and META_ACCESS_TOKEN: purchases to Meta's Conversions API (META_GRAPH_VERSION,
 *   default DEFAULT_META_GRAPH_VERSION in ./meta.ts);
 * - TIKTOK_PIXEL_ID and TIKTOK_ACCESS_TOKEN: purchases to TikTok's Events API;
 * - always: the split test's steps and verified purchases of exposed visitors (their experiment
 *   shards; worker/experiments/store/experiment-stores.ts), and each verified purchase's buyer to the
 *   subscription ledger, for the subscription's later lifecycle events (worker/lifecycle/).
 * Outside production an ad network is used only with its test event code (META_TEST_EVENT_CODE,
 * TIKTOK_TEST_EVENT_CODE), so test purchases land in Test Events, never in a campaign's
 * numbers: the server-side counterpart of SPEC.md §9's `_test` pixel event names.
 */
export function selectDestinations(env: Bindings, fetch: Fetch): Destination[] {
  const destinations = eventStores(env, fetch);
  const production = isProduction(env);
  const meta = adNetworkSettings(
    [env.META_PIXEL_ID, env.META_ACCESS_TOKEN, env.META_TEST_EVENT_CODE],
    production,
  );
  if (meta) {
    const version = metaGraphVersion(setting(env.META_GRAPH_VERSION));
    destinations.push(metaDestination({ ...meta, version, fetch }));
  }
  const tiktok = adNetworkSettings(
    [env.TIKTOK_PIXEL_ID, env.TIKTOK_ACCESS_TOKEN, env.TIKTOK_TEST_EVENT_CODE],
    production,
  );
  if (tiktok) destinations.push(tiktokDestination({ ...tiktok, fetch }));
  destinations.push(experimentOutcomesDestination(experimentStores(env)));
  destinations.push(subscriptionLedgerDestination(env));
  return destinations;
}
