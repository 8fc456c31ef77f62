import { createInstance, type TFunction } from 'i18next';
import after from '../../../locales/en/after.json';
import common from '../../../locales/en/common.json';
import errors from '../../../locales/en/errors.json';
import i18n from '../../../locales/en/i18n.json';
import kit from '../../../locales/en/kit.json';
import plans from '../../../locales/en/plans.json';
import { renderWithIslands } from '../../../screens/layout/Island';
import { SCREENS } from '../../../screens/registry';
import type { ScreenProps } from '../../../screens/types';
import { DEFAULT_BRANDS } from '../../../shared/brand';
import type { ScreenId } from '../../../shared/screens';

/** The English copy the plans and after screens render with, as the worker bundles it. */
export function englishT(): TFunction {
  const instance = createInstance({
    resources: {
      en: { translation: { ...common, ...kit, ...i18n, ...plans, ...after, ...errors } },
    },
    lng: 'en',
    fallbackLng: 'en',
    initAsync: false,
    interpolation: { escapeValue: false },
  });
  void instance.init();
  return instance.t;
}

const t = englishT();

/**
 * A screen's server HTML as the worker streams it inside the page: with the islands it
 * renders, for a visitor from `country` reading `language`.
 */
export async function renderScreen(
  screen: ScreenId,
  visitor: Partial<
    Pick<ScreenProps, 'country' | 'language' | 'next' | 'paypal' | 'offerClock' | 'anchors'>
  > = {},
): Promise<{ html: string; islands: string[]; document: Document }> {
  const { Component } = SCREENS[screen];
  const { html, islands } = await renderWithIslands(
    <Component
      screen={screen}
      t={t}
      continueAction={`/${screen}?q=1`}
      next={visitor.next === undefined ? '/next?q=1' : visitor.next}
      country={visitor.country ?? 'US'}
      language={visitor.language ?? 'en'}
      theme="geozilla"
      brand={DEFAULT_BRANDS.geozilla}
      flow="default"
      visitorId="8a4b1f5e-2c3d-4e6f-9a0b-1c2d3e4f5a6b"
      landingType="split_default"
      googleClientId="test-client.apps.googleusercontent.com"
      paypal={visitor.paypal}
      // As the worker shows a selling screen first: the whole countdown ahead.
      offerClock={visitor.offerClock ?? { state: 'running', secondsLeft: 300 }}
      anchors={visitor.anchors}
    />,
  );
  const document = new DOMParser().parseFromString(`<main>${html}</main>`, 'text/html');
  return { html, islands: [...islands], document };
}

/** The props every screen gets, as in renderScreen, for calling a screen's props builders. */
export function renderScreenProps(
  translate: TFunction = t,
  screen: ScreenId = 'checkout_v3_tr',
): ScreenProps {
  return {
    screen,
    t: translate,
    continueAction: `/${screen}?q=1`,
    next: '/next?q=1',
    country: 'US',
    language: 'en',
    theme: 'geozilla',
    brand: DEFAULT_BRANDS.geozilla,
    flow: 'default',
    visitorId: '8a4b1f5e-2c3d-4e6f-9a0b-1c2d3e4f5a6b',
    landingType: 'split_default',
    googleClientId: 'test-client.apps.googleusercontent.com',
  };
}

/** The JSON props an island was rendered with. */
export function islandProps<T>(document: Document, name: string): T {
  const marker = document.querySelector(`[data-island="${name}"]`);
  if (!marker) throw new Error(`no ${name} island`);
  return JSON.parse(marker.getAttribute('data-props') ?? '{}') as T;
}

/** Visible text, with Intl's no-break spaces read as spaces. */
export function textOf(node: Element | null | undefined): string {
  return (node?.textContent ?? '').replace(/[\u00a0\u202f]/g, ' ');
}
