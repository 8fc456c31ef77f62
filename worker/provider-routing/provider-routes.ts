import type { Handler } from 'hono';
import {
  type ProviderSwitchAnswer,
  ProviderUnavailableReport,
} from '../../shared/api/payment-provider';
import { logLine, logWarning } from '../../shared/log';
import { apiJson, readJsonBody, refusal, refuse } from '../http/api-json';
import { recordProviderCall } from '../provider-health/provider-health';
import { byIp, byVisitor, everyRequest, limitRefusal } from '../rate-limits/rate-limit-gate';
import { signedCookiesOf } from '../request/cookies';
import type { ApiEnv } from '../request/envs';
import { rateAskerOf } from '../request/visit';
import { otherProviderOffered, readPin, writePin } from './provider-pin';

const HOUR = 60 * 60 * 1000;

/**
 * A page's "the provider's script did not load" is the visitor's word, and a bot can send it as
 * often as it likes: so it counts only for a visitor the worker pinned to that provider (which
 * took a sign-up, itself limited per address), once an hour per visitor and three times an hour
 * per address. A bot on one address adds at most three failures an hour to a window that real
 * checkouts fill (docs/payments.md, "What one visitor can do to it").
 */
const PROVIDER_REPORT_RULES = [
  everyRequest('provider_report_per_visitor', byVisitor, 1, HOUR),
  everyRequest('provider_report_per_ip', byIp, 3, HOUR),
] as const;

/** `POST /api/payment-provider/unavailable` (shared/api/payment-provider.ts). */
export function providerUnavailableRoute(deps: { now: () => number }): Handler<ApiEnv> {
  return async function providerUnavailableHandler(c) {
    const fields = c.get('logFields');
    fields.call = 'provider_unavailable';
    const parsed = ProviderUnavailableReport.safeParse(await readJsonBody(c.req.raw));
    if (!parsed.success) return refuse(c, refusal('invalid_request'));
    const { provider } = parsed.data;
    const pin = await readPin(signedCookiesOf(c));
    if (pin?.provider !== provider) {
      // Not this visitor's provider: nothing to count, and nothing to tell a prober.
      fields.detail = 'provider not given to this visitor';
      return c.body(null, 202);
    }
    const limited = await limitRefusal(
      rateAskerOf(c),
      'provider_unavailable',
      PROVIDER_REPORT_RULES,
      {
        phone: null,
      },
    );
    if (limited) return refuse(c, limited);
    const request = { now: deps.now(), requestId: c.get('requestId') };
    await recordProviderCall(c.env, provider, { failed: true, source: 'script' }, request);
    logLine({ event: 'provider_script_failed', id: request.requestId, provider });
    return c.body(null, 202);
  };
}

/** `POST /api/payment-provider/switch` (shared/api/payment-provider.ts). */
export function providerSwitchRoute(): Handler<ApiEnv> {
  return async function providerSwitchHandler(c) {
    c.get('logFields').call = 'provider_switch';
    const cookies = signedCookiesOf(c);
    const pin = await readPin(cookies);
    const other = otherProviderOffered(pin);
    if (pin === null || other === null) {
      logWarning('provider_switch_not_offered', { id: c.get('requestId'), cascade: pin?.cascade });
      return refuse(c, refusal('provider_switch_not_offered'));
    }
    await writePin(cookies, { provider: other, cascade: 'used' });
    logLine({ event: 'provider_switched', id: c.get('requestId'), from: pin.provider, to: other });
    const answer: ProviderSwitchAnswer = { payment_provider: other };
    return apiJson(c, 200, answer);
  };
}
