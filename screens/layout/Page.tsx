import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { Preloader } from '../kit/Preloader';
import { Island } from './Island';
import { TopBar } from './TopBar';

/**
 * Every screen's chrome: the start-up preloader, the top bar, the page container (SPEC.md §9
 * widths and paddings), the global toast area and the global loading overlay.
 */
export function Page({
  t,
  bottomButton = false,
  children,
}: {
  t: TFunction;
  /** SPEC.md §2: a screen with a bottom button gets 88px bottom padding, otherwise 16px. */
  bottomButton?: boolean;
  children: ReactNode;
}) {
  return (
    <>
      <Preloader />
      <TopBar brand={t('brand')} />
      <main className={bottomButton ? 'page page--bottom-button' : 'page'}>{children}</main>
      <Island name="ErrorToast" props={{ closeLabel: t('toast_close') }} />
      <Island name="LoadingOverlay" props={{ label: t('kit.loading') }} />
    </>
  );
}
