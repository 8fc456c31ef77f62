import { useStore } from '@nanostores/react';
import { LocatedBanner } from './kit/LocatedBanner';
import { useAfterHydration } from './kit/use-after-hydration';
import { $map } from './stores/map';

/**
 * SPEC.md §2: the 'number located' banner with the number from state. The worker has no state,
 * so the server HTML carries the title only; the number fills in once the island has mounted.
 */
export default function LocatedBannerIsland({
  title,
  phoneLabel,
}: {
  title: string;
  phoneLabel: string;
}) {
  const { phone, phoneDisplay } = useStore($map);
  const mounted = useAfterHydration();
  return (
    <LocatedBanner
      title={title}
      phoneLabel={phoneLabel}
      phone={mounted && phone ? phoneDisplay || phone : ''}
    />
  );
}
