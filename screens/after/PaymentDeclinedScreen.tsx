import type { DeclinedAction } from '../../islands/TryAgain';
import { composedScreen, type SectionKind } from '../kit/composition';
import { supportSection } from '../kit/SupportLinks';
import { trustSection } from '../kit/TrustLabels';
import { Island } from '../layout/Island';
import type { ScreenProps } from '../types';
import { ACTION_LABELS, DECLINE_ADVICE } from './decline-advice';
import {
  DECLINED_COMPOSITION,
  DECLINED_SECTION_SPECS,
  type DeclinedSection,
} from './section-specs';

/** The advice for the visitor's decline: its class's, else SPEC.md §8's for any decline. */
const adviceOf = (props: ScreenProps) => DECLINE_ADVICE[props.declineClass ?? 'unknown'];

/**
 * The page's actions: the advice's, led by the other provider's form where the worker offers it
 * (a decline that provider may approve, once: docs/payments.md).
 */
const actionsOf = (props: ScreenProps): readonly DeclinedAction[] =>
  props.otherProviderOffered
    ? ['other_provider', ...adviceOf(props).actions]
    : adviceOf(props).actions;

/** The page's sections with what draws each (./section-specs.ts says what each is). */
const DECLINED_SECTIONS: Record<DeclinedSection, SectionKind> = {
  heading: {
    ...DECLINED_SECTION_SPECS.heading,
    render: (props) => (
      <>
        <div className="declined__icon" aria-hidden="true">
          !
        </div>
        <h1 id="screen-title">{props.t(`screens.${props.screen}.title`)}</h1>
        <p className="lead">{props.t(adviceOf(props).lead ?? `screens.${props.screen}.lead`)}</p>
      </>
    ),
  },
  hints: {
    ...DECLINED_SECTION_SPECS.hints,
    render: (props) => (
      <>
        <h2 className="declined__hints-title">{props.t('after.declined.hints_label')}</h2>
        <ul className="declined__hints">
          {adviceOf(props).hints.map((hint) => (
            <li key={hint} className="declined__hint">
              {props.t(hint)}
            </li>
          ))}
        </ul>
      </>
    ),
  },
  try_again: {
    ...DECLINED_SECTION_SPECS.try_again,
    render: (props) =>
      actionsOf(props).map((intent, index) => (
        <Island
          key={intent}
          name="TryAgain"
          props={{
            action: props.continueAction,
            next: props.next,
            label: props.t(ACTION_LABELS[intent]),
            intent,
            secondary: index > 0,
          }}
        />
      )),
  },
  trust: trustSection(DECLINED_SECTION_SPECS.trust),
  support: supportSection(DECLINED_SECTION_SPECS.support),
};

/**
 * The 'Payment declined' page (SPEC.md §2, §8). Its lead, hints and actions follow the class of
 * the decline its address names (shared/decline-class.ts, screens/after/decline-advice.ts), so
 * a reload or a visit without script shows the same; with none, SPEC.md §8's three hints and Try
 * again. Every action leads back to the checkout the visitor paid on (else the worker's default
 * checkout); nothing was charged. Drawn from its sections as a marketer's content arranges them.
 */
export const PaymentDeclinedScreen = composedScreen(DECLINED_COMPOSITION, DECLINED_SECTIONS);
