import type { ConfigDocument } from '../../shared/console-api/config';
import { FieldMessages } from '../kit/FieldMessages';
import { splitRoutesOf } from '../kit/routing-edits';
import { setSplitRoutes } from '../kit/stores/draft';

/**
 * Which routes the split test draws (shared/config/split.ts `routes`, docs/marketers.md "Which
 * routes the split draws"): a visitor of a route it draws walks a variant's flow by the weights;
 * one of any other route walks that route's own flow. None ticked: the split draws no one.
 */
export function SplitRoutes({ document }: { document: ConfigDocument }) {
  const drawn = splitRoutesOf(document);
  const variants = Object.keys(document.split.variants);
  const toggle = (id: string, on: boolean) =>
    setSplitRoutes(on ? [...drawn, id] : drawn.filter((route) => route !== id));
  return (
    <div className="block">
      <h3>Routes the split test draws</h3>
      <p className="muted" id="split-routes-hint">
        Visitors of a ticked route walk one of the variants’ flows, by the weights above. Visitors
        of any other route walk that route’s own flow. Visitors already in a variant keep it.
      </p>
      <FieldMessages path="split.routes" />
      <fieldset className="field plan-list" aria-describedby="split-routes-hint">
        <legend>Draw the visitors of</legend>
        {document.routing.routes.map((route) => (
          <label key={route.id} className="check" htmlFor={`split-route-${route.id}`}>
            <input
              id={`split-route-${route.id}`}
              type="checkbox"
              checked={drawn.includes(route.id)}
              onChange={(event) => toggle(route.id, event.target.checked)}
            />{' '}
            <span>
              route {route.id} <span className="muted">(its own flow: {route.flow})</span>
            </span>
          </label>
        ))}
      </fieldset>
      {drawn.length === 0 ? (
        <p className="notice notice--warning" role="status">
          The split test draws no one: no new visitor is drawn into its variants (
          {variants.join(', ')}); every visitor walks their route’s own flow.
        </p>
      ) : null}
    </div>
  );
}
