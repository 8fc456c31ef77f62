import { ContinueForm } from './layout/ContinueForm';
import type { ScreenProps } from './types';

/**
 * The frame every screen has (SPEC.md §2): a heading, a lead and the Continue button that moves
 * along the flow. Screens that have grown their own content render it in place of this.
 */
export function StepScreen({ screen, t, continueAction, next }: ScreenProps) {
  return (
    <section className="screen" aria-labelledby="screen-title">
      <h1 id="screen-title">{t(`screens.${screen}.title`)}</h1>
      <p className="lead">{t(`screens.${screen}.lead`)}</p>
      <ContinueForm action={continueAction} next={next} label={t('continue')} />
    </section>
  );
}
