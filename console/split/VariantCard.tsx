import type { ConfigDocument } from '../../shared/console-api/config';
import { screensWalked } from '../kit/document-edits';
import { FlowRow } from '../kit/FlowRow';
import { ShareBar } from './ShareBar';

export interface VariantCardProps {
  variantKey: string;
  weight: number;
  total: number;
  share: number;
  isDefault: boolean;
  document: ConfigDocument;
  preview: string | undefined;
}

/** One variant of the live config: its share of new visitors, its flow and its preview. */
export function VariantCard(props: VariantCardProps) {
  const { variantKey: key, weight, total, share, isDefault, document, preview } = props;
  const { flow, screens, missing } = screensWalked(document, key);
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
      <p>
        Flow <strong>{missing ? 'default' : flow}</strong>
        {missing ? ` (its flow ${flow} does not exist)` : null}, opens with the landing{' '}
        <strong>{screens[0] ?? 'none'}</strong>.
      </p>
      <FlowRow screens={screens} label={`Screens ${key} walks`} />
      {preview ? (
        <a className="card__preview" href={preview} target="_blank" rel="noopener">
          Preview {key}
          <span className="visually-hidden"> (opens in a new tab)</span>
        </a>
      ) : null}
    </article>
  );
}
