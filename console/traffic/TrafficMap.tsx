import { memo } from 'react';
import type { FlowsDraft as FlowsDocument } from '../../shared/config/flows';
import type { RouteDocument, RoutingDocument } from '../../shared/config/routing';
import type { ConfigDocument } from '../../shared/console-api/config';
import { audienceText } from '../kit/audience-text';
import { planListParts } from '../kit/plan-text';
import { rampLine } from '../kit/ramp-line';
import { routeStanding } from '../kit/route-standing';
import { scheduleText } from '../kit/schedule-text';
import { useStore } from '../kit/stores/atom';
import { $routeVisits, type RouteVisits } from '../kit/stores/traffic';
import { ServedFunnel, screenText, useVisitorGets } from '../kit/visitor-gets';

const count = new Intl.NumberFormat('en');
const percent = new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 1 });

/** "1,204 of 5,310 first visits (22.7%) in the last 7 days", or why there is no count. */
function visitsText(visits: RouteVisits, id: string): string {
  if (visits.kind === 'loading') return 'Counting first visits…';
  if (visits.kind === 'none') return 'No counts yet.';
  const taken = visits.visits[id] ?? 0;
  const share = visits.total > 0 ? ` (${percent.format(taken / visits.total)})` : '';
  return `${count.format(taken)} of ${count.format(visits.total)} first visits${share} in the last ${visits.days} days.`;
}

/**
 * What a visitor of the route gets, as the worker works it out by the edge's own code (rolled-out
 * winners, content variants, each running test at its control): its landing and screens.
 */
function RouteGets({ id, version }: { id: string; version: string }) {
  const gets = useVisitorGets({ route: id, country: null, platform: 'other' }, version);
  return (
    <ServedFunnel
      gets={gets}
      label={`Screens route ${id} shows`}
      statement={(answer, rolledOut) => (
        <>
          Its visitors open with the landing <strong>{screenText(answer.landing)}</strong>
          {rolledOut}.
        </>
      )}
    />
  );
}

function RouteCard({
  route,
  position,
  document,
  visits,
  version,
}: {
  route: RouteDocument;
  position: number;
  document: Pick<ConfigDocument, 'routing' | 'flows'>;
  visits: RouteVisits;
  version: string;
}) {
  const titleId = `route-title:${route.id}`;
  const standing = routeStanding(route, new Date());
  const audience = route.audience ? document.routing.audiences[route.audience] : undefined;
  const screens = document.flows.flows[route.flow];
  const share =
    visits.kind === 'ready' && visits.total > 0 ? (visits.visits[route.id] ?? 0) / visits.total : 0;
  return (
    <article className="card route-card" aria-labelledby={titleId}>
      <h4 className="card__title" id={titleId}>
        <span className="muted">{position}.</span> {route.id}{' '}
        {standing.badge ? <span className="badge badge--paused">{standing.badge}</span> : null}
      </h4>
      <p>
        {route.audience === undefined
          ? 'Everyone no route above takes.'
          : audience
            ? audienceText(audience)
            : `The audience ${route.audience}, which does not exist.`}
      </p>
      {route.ramp ? <p>{rampLine(route.ramp, 'route')}</p> : null}
      <p className="muted">{scheduleText(route.schedule)}</p>
      <p>
        Flow <strong>{route.flow}</strong>
        {planListParts(route)
          .map((part) => `, ${part}`)
          .join('')}
        {screens ? null : ' (it does not exist: the default flow is shown)'}
      </p>
      <RouteGets id={route.id} version={version} />
      {visits.kind === 'ready' ? (
        <span className="share__bar" aria-hidden="true">
          <span className="share__fill" style={{ width: `${Math.round(share * 1000) / 10}%` }} />
        </span>
      ) : null}
      <p className="route-card__visits">{visitsText(visits, route.id)}</p>
    </article>
  );
}

/** The live routes in order: who each takes, its flow, its schedule, and what it took lately. */
export const TrafficMap = memo(function TrafficMap({
  routing,
  flows,
  version,
}: {
  routing: RoutingDocument;
  flows: FlowsDocument;
  /** The live version drawn: what each route's visitors get is asked again when it changes. */
  version: string;
}) {
  const document = { routing, flows };
  const visits = useStore($routeVisits);
  return (
    <div className="block">
      <h3>Traffic map</h3>
      <p className="muted">
        What is live: each visitor gets the first route, in this order, that is running and whose
        audience they are in; the route is kept for the visit.
      </p>
      <ol className="route-map" aria-label="Live routes in order">
        {document.routing.routes.map((route, index) => (
          <li key={route.id}>
            <RouteCard
              route={route}
              position={index + 1}
              document={document}
              visits={visits}
              version={version}
            />
          </li>
        ))}
      </ol>
    </div>
  );
});
