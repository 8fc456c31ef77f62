import { memo, useId } from 'react';
import type { FlowsDraft as FlowsDocument } from '../../shared/config/flows';
import type { RouteDocument, RoutingDocument } from '../../shared/config/routing';
import type { ConfigDocument } from '../../shared/console-api/config';
import { currencyTable } from '../../shared/plans/currency';
import { DEFAULT_ROUTE_ID } from '../../shared/routing';
import { CurrencyTable } from '../kit/CurrencyTable';
import { countryText, linkPlanNotice, warningText } from '../kit/link-plans';
import { MoveButtons } from '../kit/MoveButtons';
import { PageLink } from '../kit/PageLink';
import { localValueOf, utcInstantOf } from '../kit/routing-edits';
import { nameOptions, SelectField } from '../kit/SelectField';
import { moveRoute, removeRoute, setRouteFields } from '../kit/stores/draft';
import { $editStatus } from '../kit/stores/status';
import { RoutePlans } from './RoutePlans';
import { RouteRamp } from './RouteRamp';

/** Runs an edit, then puts focus on `focusId` once React has drawn the moved list. */
function editThenFocus(change: () => void, focusId: string): void {
  change();
  requestAnimationFrame(() => document.getElementById(focusId)?.focus());
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
  // A link is easy to pass around beyond the ad it was made for; the plans go with it.
  const notice = linkPlanNotice(route, document.routing);
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

  return (
    <li className="row route-editor">
      <h4 className="row__title">
        <span className="muted">{index + 1}.</span> Route {route.id}{' '}
        {route.paused ? <span className="badge badge--paused">paused</span> : null}
      </h4>
      {isDefault ? (
        <p className="muted">Takes everyone no route above takes; it is always last.</p>
      ) : null}
      <RouteFields id={id} route={route} document={document} />
      <RouteRamp route={route} />
      <RoutePlans route={route} />
      <RouteOffer id={id} route={route} />
      <CurrencyTable
        id={`${id}-currencies`}
        legend={`Currencies of route ${route.id}`}
        table={route.currencies}
        over={currencyTable(document.routing.currencies)}
        onChange={(currencies) => setRouteFields(route.id, { currencies })}
      />
      {notice ? (
        <p className="notice notice--warning" id={`${id}-warning`}>
          <strong>Warning:</strong> {warningText(notice)} <span>{countryText(notice)}</span>
        </p>
      ) : null}
      {isDefault ? null : (
        <MoveButtons
          as="p"
          ids={{ up: upId, down: downId }}
          labels={{
            up: `Move route ${route.id} up`,
            down: `Move route ${route.id} down`,
            remove: `Remove route ${route.id}`,
          }}
          first={firstMovable}
          last={lastMovable}
          onMove={move}
          onRemove={() => {
            removeRoute(route.id);
            $editStatus.set(`Removed the route ${route.id}.`);
          }}
        />
      )}
    </li>
  );
}

/** A route's audience and flow, and for any but default its schedule and pause. */
function RouteFields({
  id,
  route,
  document,
}: {
  id: string;
  route: RouteDocument;
  document: Pick<ConfigDocument, 'routing' | 'flows'>;
}) {
  const isDefault = route.id === DEFAULT_ROUTE_ID;

  return (
    <div className="row__fields">
      {isDefault ? null : (
        <SelectField
          id={`${id}-audience`}
          label={`Audience of ${route.id}`}
          value={route.audience ?? ''}
          onChange={(audience) => setRouteFields(route.id, { audience })}
        >
          {nameOptions(Object.keys(document.routing.audiences))}
        </SelectField>
      )}
      <SelectField
        id={`${id}-flow`}
        label={`Flow of ${route.id}`}
        value={route.flow}
        onChange={(flow) => setRouteFields(route.id, { flow })}
      >
        {nameOptions(Object.keys(document.flows.flows))}
      </SelectField>
      {isDefault ? null : <RouteSchedule id={id} route={route} />}
    </div>
  );
}

/**
 * How the route's offer is presented (shared/config/offer-terms.ts): struck prices and savings,
 * and the offer countdown, each on unless turned off; off is the only value the config keeps.
 */
function RouteOffer({ id, route }: { id: string; route: RouteDocument }) {
  const toggle = (field: 'anchors' | 'countdown', label: string) => (
    <div className="field field--action">
      <label htmlFor={`${id}-${field}`} className="check">
        <input
          id={`${id}-${field}`}
          type="checkbox"
          checked={route[field] !== false}
          onChange={(event) =>
            setRouteFields(route.id, { [field]: event.target.checked ? undefined : false })
          }
        />{' '}
        {label}
      </label>
    </div>
  );
  return (
    <div className="row__fields">
      {toggle('anchors', `Struck prices and savings on ${route.id}`)}
      {toggle('countdown', `Offer countdown on ${route.id}`)}
    </div>
  );
}

/** When a route starts and ends, and its pause. */
function RouteSchedule({ id, route }: { id: string; route: RouteDocument }) {
  function schedule(field: 'from' | 'until', value: string) {
    const next = { ...route.schedule, [field]: utcInstantOf(value) };
    if (next.from === undefined) delete next.from;
    if (next.until === undefined) delete next.until;
    setRouteFields(route.id, { schedule: Object.keys(next).length > 0 ? next : undefined });
  }
  const end = (field: 'from' | 'until', label: string) => (
    <div className="field">
      <label htmlFor={`${id}-${field}`}>{label}</label>
      <input
        id={`${id}-${field}`}
        className="input"
        type="datetime-local"
        value={localValueOf(route.schedule?.[field])}
        onChange={(event) => schedule(field, event.target.value)}
      />
    </div>
  );

  return (
    <>
      {end('from', `${route.id} starts (UTC, optional)`)}
      {end('until', `${route.id} ends (UTC, optional)`)}
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
  );
}

/**
 * The draft's routes in order, each with its audience, flow, plans, offer, currencies, schedule
 * and pause.
 */
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
        review and publish them under <PageLink area="publish">Edit and publish</PageLink>.
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
