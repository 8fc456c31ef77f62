import type { MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import type { AppEnv } from '../env';
import { flowNameOf, resolveFlow } from '../funnel/flow';
import { type RandomSource, resolveVariant } from '../funnel/split-test';
import { VISITOR_COOKIE_MAX_AGE } from './visitor';

const VARIANT_COOKIE = 'gf_variant';

/**
 * Assigns the split-test variant (SPEC.md §4) and the flow it names. A fresh draw is stored in
 * a cookie so the visitor keeps it when marketers change the weights.
 */
export function splitTest(options: { random?: RandomSource } = {}): MiddlewareHandler<AppEnv> {
  const random = options.random ?? Math.random;
  return async function splitTestMiddleware(c, next) {
    const { split, flows } = c.get('config');
    const variant = resolveVariant({
      split,
      stored: getCookie(c, VARIANT_COOKIE),
      skipSplit: c.req.query('skip_split') === 'true',
      random,
    });
    c.set('variant', variant);
    c.set('flow', resolveFlow(flows, flowNameOf(split, variant.key)));
    if (variant.isNew) {
      setCookie(c, VARIANT_COOKIE, variant.key, {
        maxAge: VISITOR_COOKIE_MAX_AGE,
        path: '/',
        secure: true,
        sameSite: 'Lax',
      });
    }
    await next();
  };
}
