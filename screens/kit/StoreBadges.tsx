import type { TFunction } from 'i18next';

const APPLE = (
  <svg className="store-badge__icon" viewBox="0 0 24 24" aria-hidden="true">
    <path
      fill="currentColor"
      d="M16.4 12.6c0-2.4 2-3.6 2.1-3.7-1.1-1.7-2.9-1.9-3.5-1.9-1.5-.2-2.9.9-3.7.9-.8 0-1.9-.9-3.2-.8-1.6 0-3.2 1-4 2.4-1.7 3-.4 7.4 1.2 9.8.8 1.2 1.8 2.5 3 2.4 1.2 0 1.7-.8 3.1-.8 1.5 0 1.9.8 3.2.8 1.3 0 2.2-1.2 3-2.4.9-1.4 1.3-2.7 1.3-2.8-.1 0-2.5-1-2.5-3.9zM14 5.4c.7-.8 1.1-1.9 1-3-1 0-2.1.7-2.8 1.5-.6.7-1.2 1.8-1 2.9 1 .1 2.1-.6 2.8-1.4z"
    />
  </svg>
);

const GOOGLE_PLAY = (
  <svg className="store-badge__icon" viewBox="0 0 24 24" aria-hidden="true">
    <path fill="#00a0ff" d="M4 2.5 14 12 4 21.5z" />
    <path fill="#00f076" d="M4 2.5 17.5 9.9 14 12z" />
    <path fill="#ff3a44" d="M4 21.5 14 12l3.5 2.1z" />
    <path fill="#ffd500" d="m14 12 3.5-2.1L21 12l-3.5 2.1z" />
  </svg>
);

/**
 * SPEC.md §2 store badges: App Store and Google Play links. Drawn in markup rather than as the
 * stores' artwork, so their words are translated like the rest of the page; each link's text
 * is its accessible name.
 */
export function StoreBadges({
  t,
  appStoreHref,
  googlePlayHref,
}: {
  t: TFunction;
  appStoreHref: string;
  googlePlayHref: string;
}) {
  const badges = [
    {
      href: appStoreHref,
      icon: APPLE,
      top: t('kit.store.app_store_top'),
      name: t('kit.store.app_store'),
    },
    {
      href: googlePlayHref,
      icon: GOOGLE_PLAY,
      top: t('kit.store.google_play_top'),
      name: t('kit.store.google_play'),
    },
  ];
  return (
    <ul className="store-badges" aria-label={t('kit.store.label')}>
      {badges.map(({ href, icon, top, name }) => (
        <li key={name}>
          <a className="store-badge" href={href}>
            {icon}
            <span className="store-badge__text">
              <span className="store-badge__top">{top} </span>
              <span className="store-badge__name">{name}</span>
            </span>
          </a>
        </li>
      ))}
    </ul>
  );
}
