import { memo, useId } from 'react';
import type { ConfigDocument, FlowsDocument } from '../../shared/console-api';
import { DEFAULT_ROUTE_ID, type RouteDocument, type RoutingDocument } from '../../shared/routing';
import { MAIN_PLANS } from '../route-choices';
import { localValueOf, metByLink, utcInstantOf } from '../routing-edits';
import { moveRoute, removeRoute, setRouteFields } from '../stores/draft';
import { $editStatus } from '../stores/status';

/** A link is easy to pass around beyond the ad it was made for; the plans go with it. */
const LINK_PLANS_WARNING = 'Anyone who opens this link gets these plans.';

/** Runs an edit, then puts focus on `focusId` once React has drawn the moved list. */
function editThenFocus(change: () => void, focusId: string): void {
  change();
  requestAnimationFrame(() => document.getElementById(focusId)?.focus());
}

function PlansPicker({ route }: { route: RouteDocument }) {
  const id = useId();
  const chosen = route.plans ?? [];
  function toggle(plan: string, on: boolean) {
    const plans = on ? [...chosen, plan] : chosen.filter((each) => each !== plan);
    setRouteFields(route.id, { plans: plans.length > 0 ? plans : undefined });
  }
  return (
    <fieldset className="field route-editor__plans">
      <legend>Plans of {route.id} (optional; none: each screen’s own)</legend>
      {MAIN_PLANS.map((plan) => (
        <label key={plan} htmlFor={`${id}-${plan}`} className="check">
          <input
            id={`${id}-${plan}`}
            type="checkbox"
            checked={chosen.includes(plan)}
            onChange={(event) => toggle(plan, event.target.checked)}
          />{' '}
          {plan}
        </label>
      ))}
    </fieldset>
  );
}

function RouteEditor({
  route,
  index,
  count,
  document,
}: {
  route: RouteDocument;
  index: number;
  count: number;
  document: Pick<ConfigDocument, 'routing' | 'flows'>;
}) {
  const id = useId();
  const isDefault = route.id === DEFAULT_ROUTE_ID;
  const audience = route.audience ? document.routing.audiences[route.audience] : undefined;
  const warn = Boolean(route.plans && audience && metByLink(audience));
  const upId = `route-up:${route.id}`;
  const downId = `route-down:${route.id}`;
  const firstMovable = index === 0;
  // The route just above default is the last a route can be.
  const lastMovable = index >= count - 2;

  function move(by: -1 | 1) {
    if (isDefault || (by < 0 ? firstMovable : lastMovable)) return;
    editThenFocus(() => moveRoute(route.id, by), by < 0 ? upId : downId);
    $editStatus.set(`Moved ${route.id} to place ${index + 1 + by}.`);
  }

  function schedule(field: 'from' | 'until', value: string) {
    const next = { ...route.schedule, [field]: utcInstantOf(value) };
    if (next.from === undefined) delete next.from;
    if (next.until === undefined) delete next.until;
    setRouteFields(route.id, { schedule: Object.keys(next).length > 0 ? next : undefined });
  }

  return (
    <li className="row route-editor">
      <h4 className="row__title">
        <span className="muted">{index + 1}.</span> Route {route.id}{' '}
        {route.paused ? <span className="badge badge--paused">paused</span> : null}
      </h4>
      {isDefault ? (
        <p className="muted">Takes everyone no route above takes; it is always last.</p>
      ) : null}
      <div className="row__fields">
        {isDefault ? null : (
          <div className="field">
            <label htmlFor={`${id}-audience`}>Audience of {route.id}</label>
            <select
              id={`${id}-audience`}
              value={route.audience ?? ''}
              onChange={(event) => setRouteFields(route.id, { audience: event.target.value })}
            >
              {Object.keys(document.routing.audiences).map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </div>
        )}
        <div className="field">
          <label htmlFor={`${id}-flow`}>Flow of {route.id}</label>
          <select
            id={`${id}-flow`}
            value={route.flow}
            onChange={(event) => setRouteFields(route.id, { flow: event.target.value })}
          >
            {Object.keys(document.flows.flows).map((flow) => (
              <option key={flow} value={flow}>
                {flow}
              </option>
            ))}
          </select>
        </div>
        {isDefault ? null : (
          <>
            <div className="field">
              <label htmlFor={`${id}-from`}>{route.id} starts (UTC, optional)</label>
              <input
                id={`${id}-from`}
                className="input"
                type="datetime-local"
                value={localValueOf(route.schedule?.from)}
                onChange={(event) => schedule('from', event.target.value)}
              />
            </div>
            <div className="field">
              <label htmlFor={`${id}-until`}>{route.id} ends (UTC, optional)</label>
              <input
                id={`${id}-until`}
                className="input"
                type="datetime-local"
                value={localValueOf(route.schedule?.until)}
                onChange={(event) => schedule('until', event.target.value)}
              />
            </div>
            <div className="field field--action">
              <label htmlFor={`${id}-paused`} className="check">
                <input
                  id={`${id}-paused`}
                  type="checkbox"
                  checked={route.paused === true}
                  onChange={(event) =>
                    setRouteFields(route.id, { paused: event.target.checked || undefined })
                  }
                />{' '}
                Pause {route.id}
              </label>
            </div>
          </>
        )}
      </div>
      <PlansPicker route={route} />
      {warn ? (
        <p className="notice notice--warning" id={`${id}-warning`}>
          <strong>Warning:</strong> {LINK_PLANS_WARNING}
        </p>
      ) : null}
      {isDefault ? null : (
        <p className="actions">
          <button
            type="button"
            className="button button--small"
            id={upId}
            aria-label={`Move route ${route.id} up`}
            aria-disabled={firstMovable || undefined}
            onClick={() => move(-1)}
          >
            Up
          </button>
          <button
            type="button"
            className="button button--small"
            id={downId}
            aria-label={`Move route ${route.id} down`}
            aria-disabled={lastMovable || undefined}
            onClick={() => move(1)}
          >
            Down
          </button>
          <button
            type="button"
            className="button button--small"
            aria-label={`Remove route ${route.id}`}
            onClick={() => {
              removeRoute(route.id);
              $editStatus.set(`Removed the route ${route.id}.`);
            }}
          >
            Remove
          </button>
        </p>
      )}
    </li>
  );
}

/** The draft's routes in order, each with its audience, flow, plans, schedule and pause. */
export const RoutesEditor = memo(function RoutesEditor({
  routing,
  flows,
}: {
  routing: RoutingDocument;
  flows: FlowsDocument;
}) {
  const { routes } = routing;
  const document = { routing, flows };
  return (
    <div className="block">
      <h3>Routes</h3>
      <p className="muted">
        The first route a visitor’s audience matches takes them. Changes here go into the draft:
        review and publish them under <a href="#edit">Edit and publish</a>.
      </p>
      <ol className="rows" aria-label="Routes in the draft, in order">
        {routes.map((route, index) => (
          <RouteEditor
            key={route.id}
            route={route}
            index={index}
            count={routes.length}
            document={document}
          />
        ))}
      </ol>
    </div>
  );
});
