import type { TFunction } from 'i18next';
import {
  type SaveOfferCopy,
  SUBSCRIBER_CSS,
  SubscriberPage,
  type SubscriberView,
} from '../../screens/subscriber/SubscriberPage';
import type { Brand } from '../../shared/brand';
import type { ContentDocument } from '../../shared/config/content';
import type { Theme } from '../../shared/theme';
import { type PageOptions, renderPage } from '../render/render-page';

/** A card form's script hand-off (./pay-due-page.ts), or none: the page is plain forms. */
type Scripts = Pick<PageOptions, 'state' | 'islandFailure'>;

/**
 * The subscriber's page drawn whole (docs/payments.md, "The subscriber's page"): the page a
 * subscriber's link opens, and the console's preview of its confirm with a draft's save offer
 * (worker/console/content-route.ts), from the one screen code, so the marketer sees what the
 * subscriber will.
 */

/** What a drawn page speaks with: its copy, language, theme, brand and script nonce. */
export interface SubscriberPageSetting {
  t: TFunction;
  nonce: string;
  language: string;
  theme: Theme;
  brand: Brand;
}

/** The page's title: what it shows, then the brand (*Your subscription · Geozilla*). */
function pageTitleOf(view: SubscriberView, t: TFunction): string {
  if (view.kind === 'confirm') return t('subscriber.cancel.title');
  if (view.kind === 'claim_confirm') return t('subscriber.guarantee.confirm_title');
  return view.kind === 'overview' ? t('subscriber.title') : view.title;
}

/** `view` as a page, with the script hand-off of its card form if it has one (`scripts`). */
export function subscriberPage(
  page: SubscriberPageSetting,
  view: SubscriberView,
  status = 200,
  scripts: Scripts = {},
): Promise<Response> {
  const { t, brand } = page;
  const title = t('page_title', { title: pageTitleOf(view, t), brand: brand.titleSuffix });
  const options = {
    nonce: page.nonce,
    language: page.language,
    theme: page.theme,
    brand,
    title,
    screenCss: SUBSCRIBER_CSS,
    status,
  };
  const body = <SubscriberPage t={t} brand={brand} theme={page.theme} view={view} />;
  return renderPage(body, scripts.state ? { ...options, ...scripts } : options);
}

/**
 * The save offer of `content` in `language` (docs/marketers.md, "The save offer before a
 * cancel"), with the save offer variant `variant` laid over it where it writes that language (a
 * save offer test's arm, ./save-offer-arm.ts): null when no title and text are written in it,
 * for then none is shown.
 */
export function saveOfferIn(
  content: ContentDocument,
  language: string,
  variant: string | null = null,
): SaveOfferCopy | null {
  const offer = content.saveOffer;
  const over = variant === null ? undefined : offer?.variants?.[variant];
  const title = over?.title?.[language] ?? offer?.title[language];
  const text = over?.text?.[language] ?? offer?.text[language];
  return title && text ? { title, text } : null;
}
