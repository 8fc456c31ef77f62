import type { ResultsAnswer } from '../../shared/console-api/results';
import { countText, METRIC_NAMES, moneyText } from '../kit/result-texts';
import { timeText } from '../kit/time-text';
import { ResultCard } from './ResultCard';
import { SampleRatioStatus } from './SampleRatioStatus';

/** The answer's fields that say what a phase's results rest on. */
type PhaseFactsOf = Pick<
  ResultsAnswer,
  'phase' | 'startedAt' | 'configVersion' | 'plannedPerArm'
> & {
  primaryMetric: keyof typeof METRIC_NAMES;
};

/**
 * The edge's config version, its split's and its flows' joined by '+' (worker/config/load.ts):
 * one name when one publish wrote both, as the console's publishes do.
 */
function configVersionText(version: string): string {
  const [split, flows] = version.split('+');
  return split !== undefined && split === flows ? split : version;
}

/**
 * What a phase's results rest on: when it started, its primary metric (after `metricLead`), its
 * planned sample.
 */
export function PhaseFacts({
  answer,
  metricLead = 'Primary metric:',
  metric = METRIC_NAMES[answer.primaryMetric],
}: {
  answer: PhaseFactsOf;
  metricLead?: string;
  /** What the test is decided on, in words: the primary metric's name unless given. */
  metric?: string;
}) {
  return (
    <p>
      Phase <strong>{answer.phase}</strong>
      {answer.startedAt ? (
        <>
          , first visitor <time dateTime={answer.startedAt}>{timeText(answer.startedAt)}</time>
        </>
      ) : null}{' '}
      (live config {configVersionText(answer.configVersion)}). {metricLead}{' '}
      <strong>{metric}</strong>; intervals tuned for {countText(answer.plannedPerArm)} visitors per
      variant.
    </p>
  );
}

/** One phase's results: the split's health first, then every variant, the control first. */
export function PhaseResults({ answer }: { answer: ResultsAnswer }) {
  if (answer.variants.every((variant) => variant.exposed === 0)) {
    return (
      <>
        <PhaseFacts answer={answer} />
        <p className="notice">No visitor has been exposed in this phase yet.</p>
      </>
    );
  }
  const variants = [...answer.variants].sort((a, b) => Number(b.control) - Number(a.control));
  const cap =
    answer.revenueCap !== null && answer.mainCurrency
      ? moneyText(answer.revenueCap, answer.mainCurrency)
      : null;
  return (
    <>
      <PhaseFacts answer={answer} />
      <SampleRatioStatus check={answer.sampleRatio} />
      {cap ? (
        <p className="muted">
          Revenue above {cap} capped: a visitor's revenue counts up to {cap} (the 99th percentile of
          all variants), so one large order cannot decide the experiment.
        </p>
      ) : null}
      <ul className="result-list">
        {variants.map((variant) => (
          <li key={variant.variant}>
            <ResultCard variant={variant} answer={answer} />
          </li>
        ))}
      </ul>
    </>
  );
}
