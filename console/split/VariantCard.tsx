import type { ConfigDocument } from '../../shared/console-api/config';
import { SPLIT_EXPERIMENT_ID } from '../../shared/experiments';
import { DEFAULT_ROUTE_ID } from '../../shared/routing';
import { screensWalked } from '../kit/document-edits';
import { ServedFunnel, screenText, useVisitorGets } from '../kit/visitor-gets';
import { ShareBar } from './ShareBar';

export interface VariantCardProps {
  variantKey: string;
  weight: number;
  total: number;
  share: number;
  isDefault: boolean;
  document: ConfigDocument;
  /** The live version the card is drawn for: its statement is asked again when it changes. */
  version: string;
  preview: string | undefined;
}

/**
 * What a visitor the split gives this variant gets, as the worker works it out for a visitor of
 * the split's first route (the edge's own code: its flow, rolled-out winners, route content), or
 * where that cannot be read, why.
 */
function VariantGets({ variantKey: key, document, version }: VariantCardProps) {
  const route = document.split.routes?.[0] ?? DEFAULT_ROUTE_ID;
  const gets = useVisitorGets(
    { route, country: null, platform: 'other', arms: { [SPLIT_EXPERIMENT_ID]: key } },
    version,
  );
  const { flow, missing } = screensWalked(document, key);
  return (
    <ServedFunnel
      gets={gets}
      label={`Screens ${key} walks`}
      statement={(answer, rolledOut) => (
        <>
          On route {answer.route}: flow <strong>{answer.flow}</strong>
          {missing ? ` (its flow ${flow} does not exist)` : null}, opens with the landing{' '}
          <strong>{screenText(answer.landing)}</strong>
          {rolledOut}.
        </>
      )}
    />
  );
}

/** One variant of the live config: its share of new visitors, what they get and its preview. */
export function VariantCard(props: VariantCardProps) {
  const { variantKey: key, weight, total, share, isDefault, preview } = props;
  const titleId = `variant-title:${key}`;
  return (
    <article className="card" aria-labelledby={titleId}>
      <h3 className="card__title" id={titleId}>
        {key} {isDefault ? <span className="badge">default</span> : null}{' '}
        {weight === 0 ? <span className="badge badge--paused">paused</span> : null}
      </h3>
      <ShareBar share={share} weight={weight} total={total} />
      {weight === 0 ? (
        <p className="muted">New visitors do not get it; those who have it keep it.</p>
      ) : null}
      <VariantGets {...props} />
      {preview ? (
        <a className="card__preview" href={preview} target="_blank" rel="noopener">
          Preview {key}
          <span className="visually-hidden"> (opens in a new tab)</span>
        </a>
      ) : null}
    </article>
  );
}
