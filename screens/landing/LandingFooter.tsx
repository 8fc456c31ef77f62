import type { TFunction } from 'i18next';
import type { Brand } from '../../shared/brand';
import type { Theme } from '../../shared/theme';
import { SupportLinks } from '../kit/SupportLinks';

/** SPEC.md §2 support and legal links, closing every landing. */
export function LandingFooter({ t, brand, theme }: { t: TFunction; brand: Brand; theme: Theme }) {
  return (
    <footer className="landing-footer">
      <SupportLinks t={t} brand={brand} theme={theme} />
    </footer>
  );
}
