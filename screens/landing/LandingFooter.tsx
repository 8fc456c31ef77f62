import type { TFunction } from 'i18next';
import type { Brand } from '../../shared/brand';
import { SupportLinks } from '../kit/SupportLinks';

/** SPEC.md §2 support and legal links, closing every landing. */
export function LandingFooter({ t, brand }: { t: TFunction; brand: Brand }) {
  return (
    <footer className="landing-footer">
      <SupportLinks t={t} brand={brand} />
    </footer>
  );
}
