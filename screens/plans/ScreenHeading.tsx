import type { SectionSpec } from '../kit/arrangement';
import type { SectionKind } from '../kit/composition';
import type { ScreenProps } from '../types';

/**
 * The screen's one <h1> and lead; the same title names the page (`screens.<id>`). `lead` replaces
 * the screen's own where what the screen offers differs from what its copy names.
 */
export function ScreenHeading({
  screen,
  t,
  lead,
}: Pick<ScreenProps, 'screen' | 't'> & { lead?: string }) {
  return (
    <>
      <h1 id="screen-title">{t(`screens.${screen}.title`)}</h1>
      <p className="lead">{lead ?? t(`screens.${screen}.lead`)}</p>
    </>
  );
}

/** The heading section of a screen whose lead is its copy's own. */
export function headingSection(spec: SectionSpec): SectionKind {
  return { ...spec, render: ({ screen, t }) => <ScreenHeading screen={screen} t={t} /> };
}
