import type { ConfigDocument } from '../../shared/console-api/config';
import type { ContentPreviewRoute } from '../../shared/console-api/content';
import { contentOfRef } from '../../shared/content-body';

/**
 * The routes of the draft's routing as the content editor previews them: a route's visitors see
 * its flow and plans, and the content variant it shows of each screen (`route.content`, a
 * content test shipped to it).
 */

/** The route `id` of the draft's routing as a preview request names it, or null. */
export function previewRouteOf(
  document: ConfigDocument,
  id: string | null,
): ContentPreviewRoute | null {
  const route = id === null ? undefined : document.routing.routes.find((each) => each.id === id);
  if (!route) return null;
  return {
    id: route.id,
    flow: route.flow,
    plans: route.plans ?? null,
    upsellPlans: route.upsellPlans ?? null,
    guidePlans: route.guidePlans ?? null,
  };
}

/** The content variant route `id` shows of `screen`, if the draft's content has it; else null. */
export function routeVariantOf(
  document: ConfigDocument,
  id: string | null,
  screen: string,
): string | null {
  const route = id === null ? undefined : document.routing.routes.find((each) => each.id === id);
  const variant = route?.content?.[screen as keyof NonNullable<typeof route.content>];
  // A composed screen's variants are its own (shared/config/content.ts `composed`).
  const variants = contentOfRef(document.content, screen)?.variants;
  return variant && variants && Object.hasOwn(variants, variant) ? variant : null;
}
