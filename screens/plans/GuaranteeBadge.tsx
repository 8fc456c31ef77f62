import type { TFunction } from 'i18next';
import { GUARANTEE_IMAGE_SRC } from './payment-images';

/** SPEC.md §1, §9: the 100% money-back guarantee, with its badge image. */
export function GuaranteeBadge({ t }: { t: TFunction }) {
  return (
    <aside className="plan-guarantee">
      <img
        className="plan-guarantee__badge"
        src={GUARANTEE_IMAGE_SRC}
        width={56}
        height={56}
        alt=""
      />
      <div>
        <p className="plan-guarantee__title">{t('plans.guarantee.title')}</p>
        <p className="plan-guarantee__text">{t('plans.guarantee.text')}</p>
      </div>
    </aside>
  );
}
