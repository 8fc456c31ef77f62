import { type ReactNode, useId } from 'react';
import {
  type ExperimentGuardrail,
  type ExperimentResultsAnswer,
  type ExperimentVariantResults,
  SEGMENT_DIMENSIONS,
} from '../../shared/console-api/experiment-results';
import type { DeclineClass } from '../../shared/decline-class';
import { experimentResultsUrl } from '../kit/api';
import { FailureNotice } from '../kit/FailureNotice';
import { countText, liftText, percentText } from '../kit/result-texts';
import { nameOptions, SelectField } from '../kit/SelectField';
import { useStore } from '../kit/stores/atom';
import { $live } from '../kit/stores/live';
import { MetricTable } from '../results/MetricTable';
import { PhaseFacts } from '../results/PhaseResults';
import { SampleRatioStatus } from '../results/SampleRatioStatus';
import { TableScroll } from '../results/TableScroll';
import { VerdictCell } from '../results/VerdictCell';
import { CurrencyVerdicts } from './CurrencyVerdicts';
import { type QuizSegment, quizSegments } from './quiz-segments';
import { RampStatus } from './RampStatus';
import { RampSteer } from './RampSteer';
import { RecoveredRenewals } from './RecoveredRenewals';
import { SaveOfferArm } from './SaveOfferArm';
import { SegmentView } from './SegmentView';
import {
  $experimentResults,
  $experimentsStatus,
  EXPERIMENTS_STATUS_ID,
  type ExperimentResultsView,
  loadExperimentResults,
} from './stores/experiments';
import { VitalsGuardrails } from './VitalsGuardrails';

const SEGMENT_LABELS: Record<(typeof SEGMENT_DIMENSIONS)[number], string> = {
  country: 'Country',
  source: 'Source',
  platform: 'Platform',
  in_app: 'In-app browser',
  language: 'Language',
  route: 'Route',
};

/** The decline classes (shared/decline-class.ts) as a marketer reads them. */
const DECLINE_CLASS_NAMES: Record<DeclineClass, string> = {
  insufficient_funds: 'Insufficient funds',
  card_invalid: 'Card expired or invalid',
  do_not_honour: 'Declined by the bank',
  authentication_failed: '3-D Secure failed',
  processing_error: 'Processing error',
  fraud_suspected: 'Fraud suspected',
  unknown: 'Other',
};

function Guardrails({ variant }: { variant: ExperimentVariantResults }) {
  const row = (name: ReactNode, guardrail: ExperimentGuardrail, key: string, sub = false) => (
    <tr key={key} className={sub ? 'results-table__sub' : undefined}>
      <th scope="row">{name}</th>
      <td>
        {countText(guardrail.count)} ({percentText(guardrail.rate)})
      </td>
      {variant.control ? null : (
        <>
          <td>{liftText(guardrail.relativeLift, guardrail.relativeInterval, guardrail.verdict)}</td>
          <VerdictCell verdict={guardrail.verdict} />
        </>
      )}
    </tr>
  );
  return (
    <TableScroll labelledBy={`guardrails:${variant.variant}`}>
      <table className="results-table">
        <caption id={`guardrails:${variant.variant}`}>
          Guardrails of {variant.name}: what must not get worse
        </caption>
        <thead>
          <tr>
            <th scope="col">Guardrail</th>
            <th scope="col">Visitors (share)</th>
            {variant.control ? null : (
              <>
                <th scope="col">Lift</th>
                <th scope="col">Verdict</th>
              </>
            )}
          </tr>
        </thead>
        <tbody>
          {row('Payment declined', variant.guardrails.declines, 'declines')}
          {/* Each class under the total: a screen reader hears which total it splits. */}
          {variant.guardrails.declineClasses.map((guardrail) =>
            row(
              <>
                <span className="visually-hidden">Payment declined: </span>
                {DECLINE_CLASS_NAMES[guardrail.declineClass]}
              </>,
              guardrail,
              guardrail.declineClass,
              true,
            ),
          )}
          {row('Refunded or charged back', variant.guardrails.refunds, 'refunds')}
          {row('Cancelled', variant.guardrails.cancellations, 'cancellations')}
          {/* Retention: the one guardrail that must not fall (its verdict says which way). */}
          {row('Renewed (a period more paid)', variant.guardrails.renewed, 'renewed')}
          {row('Met a server error (5xx)', variant.guardrails.serverErrors, 'server-errors')}
          {row('Met a page error', variant.guardrails.clientErrors, 'client-errors')}
        </tbody>
      </table>
    </TableScroll>
  );
}

/**
 * A save offer test counts subscriptions shown its offer on the subscriber's page, not funnel
 * visitors (docs/experiments.md, "Testing the save offer"): the funnel's steps, guardrails and
 * page speed read nothing for it, so its card has its own tables only.
 */
const isSaveOfferTest = (answer: ExperimentResultsAnswer) => answer.layer === 'subscriber';

/** A variant's card: its name, the control marked, over what it shows. */
function VariantCard({
  variant,
  children,
}: {
  variant: ExperimentVariantResults;
  children: ReactNode;
}) {
  return (
    <article className="card result-card" aria-labelledby={`experiment-variant:${variant.variant}`}>
      <h4 className="card__title" id={`experiment-variant:${variant.variant}`}>
        {variant.name} {variant.control ? <span className="badge">control</span> : null}
      </h4>
      {children}
    </article>
  );
}

/** One variant: its visitors, its metrics (only those after the trigger), its guardrails. */
function VariantResult({
  variant,
  answer,
}: {
  variant: ExperimentVariantResults;
  answer: ExperimentResultsAnswer;
}) {
  if (isSaveOfferTest(answer))
    return (
      <VariantCard variant={variant}>
        <SaveOfferArm variant={variant} />
      </VariantCard>
    );
  const shown = variant.metrics
    .filter((metric) => answer.metricsShown.includes(metric.metric))
    // A price test's verdicts wait for the mature sample: none is shown before.
    .map((metric) => (answer.awaitingMatureSample ? { ...metric, verdict: null } : metric));
  return (
    <VariantCard variant={variant}>
      <p>
        <strong>{countText(variant.exposed)}</strong> visitors exposed, {percentText(variant.share)}{' '}
        of those entering
        {answer.priceTest
          ? `; ${countText(variant.matureExposed)} of them in the mature sample`
          : ''}
        .
      </p>
      <MetricTable
        variant={{ variant: variant.name, control: variant.control, metrics: shown }}
        control={answer.variants.find((other) => other.control)?.name ?? answer.control}
        currency={answer.mainCurrency}
      />
      <CurrencyVerdicts variant={variant} awaitingMatureSample={answer.awaitingMatureSample} />
      <Guardrails variant={variant} />
      <RecoveredRenewals variant={variant} />
      <VitalsGuardrails variant={variant} />
    </VariantCard>
  );
}

/** Where it is counted, and how many it reached against the most it could have. */
function Reach({ answer }: { answer: ExperimentResultsAnswer }) {
  if (isSaveOfferTest(answer))
    return (
      <p>
        Counted when a subscriber’s page shows the offer before a cancel:{' '}
        <strong>{countText(answer.reach.exposed)}</strong> subscriptions shown so far.
      </p>
    );
  // The holdout counts its visitors on their first page, wherever they land.
  if (answer.layer === 'holdout')
    return (
      <p>
        Counted from each held-out or measured visitor’s first page:{' '}
        <strong>{countText(answer.reach.exposed)}</strong> so far.
      </p>
    );
  const triggers = answer.triggers
    .map(({ route, screen }) =>
      screen === null
        ? `route ${route}: nowhere (its variants do not differ there)`
        : `route ${route}: at ${screen}`,
    )
    .join('; ');
  const { exposed, expectedAtMost } = answer.reach;
  // No first visit counted on its routes (or fewer than its share rounds up to one) is no bound:
  // "of at most 0" would read as if every exposed visitor were an error.
  const bound = expectedAtMost === null || expectedAtMost === 0 ? null : expectedAtMost;
  return (
    <>
      <p>Counted where the variants first differ — {triggers || 'no route yet'}.</p>
      <p>
        Reach: <strong>{countText(exposed)}</strong> exposed
        {bound === null
          ? '; no first visits on its routes yet to compare with.'
          : ` of at most ${countText(bound)} (first visits on its routes since it started, times its range and coverage: an upper bound, as its audience and the trigger’s depth take fewer).`}
      </p>
    </>
  );
}

/** The live quiz's questions the results can be split by. */
function useQuizSegments(): QuizSegment[] {
  const live = useStore($live);
  return quizSegments(live.kind === 'ready' ? live.state.live.content.questions : undefined);
}

/** The phase and segment shown, and the CSV of what is shown. */
function ResultsPickers({
  id,
  experimentId,
  view,
}: {
  id: string;
  experimentId: string;
  view: ExperimentResultsView;
}) {
  const { answer } = view;
  const quiz = useQuizSegments();
  return (
    <div className="row__fields">
      {answer && answer.phases.length > 1 ? (
        <div className="field">
          <label htmlFor={`${id}-phase`}>Phase</label>
          <select
            id={`${id}-phase`}
            value={view.phase ?? answer.phase}
            onChange={(event) =>
              void loadExperimentResults(experimentId, { phase: Number(event.target.value) })
            }
          >
            {answer.phases.map((phase) => (
              <option key={phase} value={phase}>
                Phase {phase}
                {phase === answer.phases[0] ? ' (live)' : ''}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {answer && isSaveOfferTest(answer) ? null : (
        <SelectField
          id={`${id}-segment`}
          label="Split the results by"
          value={view.segment ?? ''}
          onChange={(segment) =>
            void loadExperimentResults(experimentId, { segment: segment || null })
          }
        >
          <option value="">Nothing: all visitors</option>
          {nameOptions(SEGMENT_DIMENSIONS, (dimension) => SEGMENT_LABELS[dimension])}
          {quiz.map((segment) => (
            <option key={segment.dimension} value={segment.dimension}>
              Quiz answer: {segment.title}
            </option>
          ))}
        </SelectField>
      )}
      <div className="field field--action">
        <a className="button" href={experimentResultsUrl(experimentId, view, 'csv')} download>
          Download as CSV
        </a>
      </div>
    </div>
  );
}

/** The phase's results: when it started, its reach, the split's health, and each variant. */
function ResultsBody({ id, answer }: { id: string; answer: ExperimentResultsAnswer }) {
  const quiz = useQuizSegments();
  return (
    <>
      <PhaseFacts
        answer={answer}
        metricLead="Decided on"
        // A save offer test is judged on the keep rate of the subscriptions shown its offer.
        {...(isSaveOfferTest(answer) ? { metric: 'subscriptions kept' } : {})}
      />
      <Reach answer={answer} />
      <SampleRatioStatus check={answer.sampleRatio} />
      {answer.ramp ? (
        <RampStatus ramp={answer.ramp}>
          <RampSteer
            id={id}
            name={answer.name}
            ramp={answer.ramp}
            statusId={EXPERIMENTS_STATUS_ID}
            onMoved={async (done) => {
              await loadExperimentResults(id);
              $experimentsStatus.set(done);
            }}
          />
        </RampStatus>
      ) : null}
      {answer.awaitingMatureSample ? (
        <p className="notice notice--warning mature-notice">
          <strong>
            No verdict until the mature sample reaches {countText(answer.plannedPerArm)} per
            variant.
          </strong>{' '}
          A price test is judged on net revenue of visitors exposed at least{' '}
          {answer.matureAfterDays} days ago, once renewals and refunds are in; now{' '}
          {answer.variants
            .map((variant) => `${variant.name} has ${countText(variant.matureExposed)}`)
            .join(', ')}
          .
        </p>
      ) : null}
      {answer.segment ? (
        <SegmentView
          segment={answer.segment}
          metrics={answer.metricsShown}
          currency={answer.mainCurrency}
          quiz={quiz}
        />
      ) : (
        <ul className="result-list">
          {[...answer.variants]
            .sort((a, b) => Number(b.control) - Number(a.control))
            .map((variant) => (
              <li key={variant.variant}>
                <VariantResult variant={variant} answer={answer} />
              </li>
            ))}
        </ul>
      )}
    </>
  );
}

/** One experiment's results: phase, segment, reach, the split's health, each variant, CSV. */
export function ExperimentResults() {
  const view = useStore($experimentResults);
  const id = useId();
  if (view.id === null) return null;
  const experimentId = view.id;
  const { answer } = view;
  return (
    <div className="block experiment-results" aria-busy={view.loading || undefined}>
      <h3 id="experiment-results-title" tabIndex={-1}>
        Results of {answer?.name ?? experimentId}
      </h3>
      <ResultsPickers id={id} experimentId={experimentId} view={view} />
      {view.failure ? <FailureNotice message={view.failure} /> : null}
      {!answer && view.loading ? <p className="muted">Loading the results…</p> : null}
      {answer ? <ResultsBody id={experimentId} answer={answer} /> : null}
    </div>
  );
}
