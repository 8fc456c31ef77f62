import { memo } from 'react';
import type { ConfigDocument } from '../../shared/console-api/config';
import { LAYERS, type Layer } from '../../shared/experiments';
import { STATUS_WORDS } from './experiment-texts';
import { freeRanges, type TakenRange, takenRanges } from './layer-space';

const percent = (share: number) =>
  new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 1 }).format(share);

const stretch = (from: number, to: number) => `${percent(from)}–${percent(to)}`;

/** One layer: a bar drawn for the eye, and the same as words for everyone. */
function LayerBar({ layer, taken }: { layer: Layer; taken: readonly TakenRange[] }) {
  const free = freeRanges(taken);
  const titleId = `layer-title:${layer}`;
  return (
    <li className="layer" aria-labelledby={titleId}>
      <h4 className="layer__title" id={titleId}>
        Layer {layer}
      </h4>
      <div className="layer__bar" aria-hidden="true">
        {taken.map((range) => (
          <span
            key={range.id}
            className={`layer__part layer__part--${range.status}`}
            style={{ left: `${range.from * 100}%`, width: `${(range.to - range.from) * 100}%` }}
            title={`${range.name}: ${stretch(range.from, range.to)}`}
          >
            {range.id}
          </span>
        ))}
      </div>
      <p className="layer__text">
        {taken.length === 0
          ? 'Free: the whole layer.'
          : `${taken
              .map(
                (range) =>
                  `${range.id} (${STATUS_WORDS[range.status]}) takes ${stretch(range.from, range.to)}`,
              )
              .join('; ')}. ${
              free.length === 0
                ? 'No free space.'
                : `Free: ${free.map(([from, to]) => stretch(from, to)).join(', ')}.`
            }`}
      </p>
    </li>
  );
}

/**
 * Each layer as a bar of its buckets: which experiment takes which stretch, and what is free. A
 * visitor is in at most one experiment per layer; experiments of different layers overlap.
 */
export const LayerBars = memo(function LayerBars({
  document,
  now,
}: {
  document: Pick<ConfigDocument, 'split' | 'experiments' | 'routing'>;
  now: Date;
}) {
  return (
    <div className="block">
      <h3>Layers</h3>
      <p className="muted">
        A visitor is in at most one experiment of a layer; experiments in different layers run for
        the same visitor independently. Two experiments share a stretch only when their audiences
        can never meet.
      </p>
      <ul className="layers" aria-label="Layers and their free space">
        {LAYERS.map((layer) => (
          <LayerBar key={layer} layer={layer} taken={takenRanges(document, layer, now)} />
        ))}
      </ul>
    </div>
  );
});
