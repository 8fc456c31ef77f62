import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { Island } from './Island';
import { TopBar } from './TopBar';

/** Top bar, the page container (SPEC.md §9 widths and paddings) and the global toast area. */
export function Page({ t, children }: { t: TFunction; children: ReactNode }) {
  return (
    <>
      <TopBar brand={t('brand')} />
      <main className="page">{children}</main>
      <Island name="ErrorToast" props={{ closeLabel: t('toast_close') }} />
    </>
  );
}
