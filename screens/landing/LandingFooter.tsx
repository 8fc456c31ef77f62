import type { TFunction } from 'i18next';
import { SupportLinks } from '../kit/SupportLinks';

/** SPEC.md §2 support and legal links, closing every landing. */
export function LandingFooter({ t }: { t: TFunction }) {
  return (
    <footer className="landing-footer">
      <SupportLinks t={t} />
    </footer>
  );
}
