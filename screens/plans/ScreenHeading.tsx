import type { ScreenProps } from '../types';

/** The screen's one <h1> and lead; the same title names the page (`screens.<id>`). */
export function ScreenHeading({ screen, t }: Pick<ScreenProps, 'screen' | 't'>) {
  return (
    <>
      <h1 id="screen-title">{t(`screens.${screen}.title`)}</h1>
      <p className="lead">{t(`screens.${screen}.lead`)}</p>
    </>
  );
}
