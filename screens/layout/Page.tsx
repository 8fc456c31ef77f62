import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import type { ConsentState, PixelIds } from '../../shared/analytics/tracking';
import type { Brand } from '../../shared/brand';
import { type FlowProgress, LinearProgress } from '../kit/LinearProgress';
import { Preloader } from '../kit/Preloader';
import { asksForConsent, ConsentBar } from './ConsentBar';
import { Island } from './Island';
import { PreviewBar, type PreviewNotice } from './PreviewBar';
import { TopBar } from './TopBar';

/**
 * Every screen's chrome: the start-up preloader, the top bar, the page container (SPEC.md §9
 * widths and paddings), the consent banner where the ad tools wait for an answer, the
 * global toast area and the global loading overlay; on a marketer's preview, the preview bar;
 * on the screens after the landing, the visitor's step in their flow (SPEC.md §2 linear
 * progress bar).
 */
export function Page({
  t,
  brand,
  attribution,
  preview,
  progress,
  bottomButton = false,
  children,
}: {
  t: TFunction;
  /** Who the page speaks for: the top bar's logo is its (shared/brand.ts). */
  brand: Brand;
  /** The visitor's consent and the ad tools configured (c.get('attribution')); none: no banner. */
  attribution?: { consent: ConsentState; pixels: PixelIds };
  /** Set on a marketer's preview of a variant: the bar that says so. */
  preview?: PreviewNotice;
  /** The screen's step in the visitor's flow; none on the landing or off the flow. */
  progress?: FlowProgress | null;
  /** SPEC.md §2 Layout: the screen pins its Continue (BottomButton): 88px bottom padding. */
  bottomButton?: boolean;
  children: ReactNode;
}) {
  return (
    <>
      <Preloader />
      {preview ? <PreviewBar {...preview} /> : null}
      <TopBar brand={brand.name} />
      {attribution && asksForConsent(attribution) ? (
        <ConsentBar t={t} pixels={attribution.pixels} />
      ) : null}
      <main className={bottomButton ? 'page page--bottom-button' : 'page'}>
        {progress ? <LinearProgress t={t} {...progress} /> : null}
        {children}
      </main>
      <Island name="ErrorToast" props={{ closeLabel: t('toast_close') }} />
      <Island name="LoadingOverlay" props={{ label: t('kit.loading') }} />
    </>
  );
}
