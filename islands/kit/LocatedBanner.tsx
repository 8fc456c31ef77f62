import { HEATMAP_MASK } from '../../shared/analytics/heatmap';

export interface LocatedBannerProps {
  /** The `kit.located.title` translation: 'Number located'. */
  title: string;
  /** Spoken before the number, e.g. `kit.located.phone_label`. */
  phoneLabel: string;
  /** The number formatted for display, or empty when there is none to show. */
  phone: string;
}

/** SPEC.md §2: the 'number located' banner; the phone number line appears only when known. */
export function LocatedBanner({ title, phoneLabel, phone }: LocatedBannerProps) {
  return (
    <div className="located-banner">
      <svg className="located-banner__icon" viewBox="0 0 24 24" aria-hidden="true">
        <circle cx="12" cy="12" r="11" fill="currentColor" />
        <path
          d="m7 12.5 3.2 3.2L17 9"
          fill="none"
          stroke="var(--surface)"
          strokeWidth="2.2"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <p className="located-banner__text">
        <strong className="located-banner__title">{title}</strong>
        {phone ? (
          <span className="located-banner__phone" {...HEATMAP_MASK}>
            <span className="visually-hidden">{phoneLabel} </span>
            {/* A number reads left to right in every language. */}
            <bdi dir="ltr">{phone}</bdi>
          </span>
        ) : null}
      </p>
    </div>
  );
}
