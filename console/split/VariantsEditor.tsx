import type { ConfigDocument } from '../../shared/console-api/config';
import { FieldMessages } from '../kit/FieldMessages';
import { sharesOfTotal } from './shares';
import { VariantFields } from './VariantFields';

/** Every variant of the draft, with its weight, its flow and pause or resume. */
export function VariantsEditor({
  document,
  pausedWeights,
}: {
  document: ConfigDocument;
  pausedWeights: Record<string, number>;
}) {
  const shares = sharesOfTotal(document.split.variants);
  const flowNames = Object.keys(document.flows.flows);
  return (
    <div className="block">
      <h3>Variants and weights</h3>
      <p className="muted">
        Weights are shares of their sum; they need not add up to 100. Weight 0 pauses a variant: new
        visitors stop getting it, those who have it keep it.
      </p>
      <FieldMessages path="split.variants" />
      <ul className="rows">
        {Object.entries(document.split.variants).map(([key, variant]) => (
          <li key={key}>
            <VariantFields
              variantKey={key}
              variant={variant}
              split={document.split}
              share={shares[key] ?? 0}
              flowNames={flowNames}
              pausedWeight={pausedWeights[key]}
            />
          </li>
        ))}
      </ul>
    </div>
  );
}
