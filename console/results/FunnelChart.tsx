import type { ResultMetric, VariantResults } from '../../shared/console-api/results';
import { countText, METRIC_NAMES, percentText } from '../kit/result-texts';

/** The funnel's steps after exposure, in order (revenue is no step). */
const STEPS: readonly ResultMetric[] = ['lookup', 'signup', 'checkout', 'purchase'];

/**
 * A variant's funnel, exposed → lookup → sign-up → checkout → purchase: each step's visitors and
 * share of the exposed as text (what is read out) and as a bar (what is seen).
 */
export function FunnelChart({ variant }: { variant: VariantResults }) {
  const steps = [
    { name: 'Exposed', count: variant.exposed, rate: variant.exposed > 0 ? 1 : 0 },
    ...STEPS.map((step) => {
      const metric = variant.metrics.find((m) => m.metric === step);
      return { name: METRIC_NAMES[step], count: metric?.count ?? 0, rate: metric?.mean ?? 0 };
    }),
  ];
  return (
    <figure className="funnel">
      <figcaption>Funnel of {variant.variant}</figcaption>
      <ol className="funnel__steps">
        {steps.map((step) => (
          <li key={step.name}>
            <span className="funnel__text">
              {step.name}: <strong>{countText(step.count)}</strong> ({percentText(step.rate)})
            </span>
            <span className="funnel__bar" aria-hidden="true">
              <span
                className="funnel__fill"
                style={{ width: `${Math.round(step.rate * 1000) / 10}%` }}
              />
            </span>
          </li>
        ))}
      </ol>
    </figure>
  );
}
