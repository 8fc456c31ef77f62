import type { ScreenProps } from '../types';

/** The screen's one <h1> (its page title too) and lead, with an optional badge above. */
export function LandingHero({
  t,
  screen,
  badge,
}: Pick<ScreenProps, 't' | 'screen'> & { badge?: string }) {
  return (
    <header className="landing-hero">
      {badge ? <p className="landing-hero__badge">{badge}</p> : null}
      <h1 id="screen-title">{t(`screens.${screen}.title`)}</h1>
      <p className="lead">{t(`screens.${screen}.lead`)}</p>
    </header>
  );
}
