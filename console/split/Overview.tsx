import type { ConsoleState } from '../../shared/console-api/config';
import { timeText } from '../kit/time-text';
import { sharesOfTotal, totalWeight } from './shares';
import { VariantCard } from './VariantCard';

function LiveVersion({ head }: { head: ConsoleState['head'] }) {
  if (!head) {
    return (
      <p>
        Live config: <strong>not published from the console yet</strong> (the funnel reads what KV
        holds, or the defaults in code).
      </p>
    );
  }
  return (
    <p>
      Live version <strong>{head.id}</strong>, published by {head.author} on{' '}
      <time dateTime={head.at}>{timeText(head.at)}</time>.
    </p>
  );
}

/** What the funnel does now: the live version, and every variant with its share and flow. */
export function Overview({ state }: { state: ConsoleState }) {
  const { variants, defaultVariant } = state.live.split;
  const shares = sharesOfTotal(variants);
  const total = totalWeight(variants);
  return (
    <section className="section" id="overview" aria-labelledby="overview-title">
      <h2 id="overview-title">Overview</h2>
      <LiveVersion head={state.head} />
      {state.drift ? (
        <p className="notice notice--warning">
          <strong>Warning:</strong> {state.drift}
        </p>
      ) : null}
      <ul className="cards">
        {Object.entries(variants).map(([key, variant]) => (
          <li key={key}>
            <VariantCard
              variantKey={key}
              weight={variant.weight}
              total={total}
              share={shares[key] ?? 0}
              isDefault={key === defaultVariant}
              document={state.live}
              version={state.head?.id ?? 'none'}
              preview={state.previews[key]}
            />
          </li>
        ))}
      </ul>
    </section>
  );
}
