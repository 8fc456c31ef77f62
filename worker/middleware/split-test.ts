import type { Context, MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { DEFAULT_ROUTE_ID } from '../../shared/routing';
import type { SplitConfig } from '../config/schema';
import type { AppEnv } from '../env';
import { flowNameOf, resolveFlow } from '../funnel/flow';
import type { PreviewedRoute } from '../funnel/preview';
import { ignorePreviewCookie, readPreviewCookie } from '../funnel/preview-cookie';
import { landingTypeOf, type RandomSource, resolveVariant } from '../funnel/split-test';
import type { ChosenRoute } from '../routing/router';
import { VISITOR_COOKIE_MAX_AGE } from './visitor';

const VARIANT_COOKIE = 'gf_variant';

/** Stores the visitor's variant key in its cookie (also the resume link's, worker/resume/). */
export function writeVariantCookie(c: Context<AppEnv>, key: string): void {
  setCookie(c, VARIANT_COOKIE, key, {
    maxAge: VISITOR_COOKIE_MAX_AGE,
    path: '/',
    secure: true,
    sameSite: 'Lax',
  });
}

/**
 * The variant or route a marketer is previewing (worker/funnel/preview-cookie.ts), or null. A
 * cookie that is not authentic and current, or names a variant the split no longer has, is
 * ignored (and cleared, with a warning line): the visitor is then treated like anyone else. A
 * route's preview carries the route whole (its flow and plans, signed), so it shows a route of
 * a draft as well as a live one.
 */
async function previewed(
  c: Context<AppEnv>,
  split: SplitConfig,
): Promise<{ variant: string } | { route: PreviewedRoute } | null> {
  const cookie = await readPreviewCookie(c, Date.now());
  if (cookie.state === 'none') return null;
  if (cookie.state === 'invalid') {
    ignorePreviewCookie(c, cookie.reason);
    return null;
  }
  if ('route' in cookie) return { route: cookie.route };
  if (!Object.hasOwn(split.variants, cookie.variant)) {
    ignorePreviewCookie(c, 'unknown_variant');
    return null;
  }
  return { variant: cookie.variant };
}

/**
 * Assigns the split-test variant (SPEC.md §4) and the flow it names. A fresh draw is stored in
 * a cookie so the visitor keeps it when marketers change the weights. A marketer's preview wins
 * over both the stored variant and the draw, and assigns nothing: the `gf_variant` cookie is
 * neither set nor touched, and `preview` tells the pages, the collector and the purchases.
 */
export function splitTest(options: { random?: RandomSource } = {}): MiddlewareHandler<AppEnv> {
  const random = options.random ?? Math.random;
  return async function splitTestMiddleware(c, next) {
    const { split, flows } = c.get('config');
    const preview = await previewed(c, split);
    if (preview !== null && 'route' in preview) {
      // The route's own flow, undrawn, whatever route the middleware before chose: the route
      // middleware kept nothing for a preview (worker/middleware/route.ts).
      const { id, flow, plans } = preview.route;
      const key = split.defaultVariant;
      c.set('route', { id, flow, plans: plans as ChosenRoute['plans'] });
      c.set('preview', { variant: key, route: id });
      c.set('variant', { key, landingType: landingTypeOf(key), isNew: false });
      c.set('flow', resolveFlow(flows, flow));
      c.get('logFields').route = id;
      c.get('logFields').preview = true;
      await next();
      return;
    }
    if (preview !== null) {
      const { variant } = preview;
      c.set('preview', { variant });
      c.set('variant', { key: variant, landingType: landingTypeOf(variant), isNew: false });
      c.set('flow', resolveFlow(flows, flowNameOf(split, variant)));
      c.get('logFields').preview = true;
      await next();
      return;
    }
    const route = c.get('route');
    if (!(split.routes ?? [DEFAULT_ROUTE_ID]).includes(route.id)) {
      // A route the split test does not name: its own flow, and no draw. The variant is the
      // split's default, for what needs one (landing_type at sign-up), never a new one, so the
      // visitor is not counted in the split (worker/middleware/exposure.ts).
      const key = split.defaultVariant;
      c.set('variant', { key, landingType: landingTypeOf(key), isNew: false });
      c.set('flow', resolveFlow(flows, route.flow));
      await next();
      return;
    }
    const variant = resolveVariant({
      split,
      stored: getCookie(c, VARIANT_COOKIE),
      skipSplit: c.req.query('skip_split') === 'true',
      random,
    });
    c.set('variant', variant);
    c.set('flow', resolveFlow(flows, flowNameOf(split, variant.key)));
    if (variant.isNew) writeVariantCookie(c, variant.key);
    await next();
  };
}
