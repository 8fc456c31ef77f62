import { useId, useState } from 'react';
import type { RouteDocument } from '../../shared/config/routing';
import type { PlanRole } from '../../shared/plans/catalogue';
import { PLAN_FIELDS } from '../../shared/plans/screen-offers';
import { PlanListPicker } from '../kit/PlanListPicker';
import { routePlansText } from '../kit/plan-text';
import { setRouteFields } from '../kit/stores/draft';

/** What each of a route's plan lists is called, the route named so cards read apart. */
const PLAN_LEGENDS: Record<PlanRole, string> = {
  main: 'Main plans',
  upsell: 'Upsell plans',
  guide: 'Guide',
};

/**
 * What a route sells, in one line on its card ("Plans: each screen’s own"), and its plan pickers
 * (main, upsell, guide) behind "Choose plans": closed, a card is not fourteen check boxes with the
 * same labels as every other card's, and a screen reader's list of controls names each route's
 * groups ("Main plans of route tiktok_de").
 */
export function RoutePlans({ route }: { route: RouteDocument }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  return (
    <div className="route-plans">
      <p className="route-plans__line">
        <span id={`${id}-line`}>{routePlansText(route)}</span>{' '}
        <button
          type="button"
          className="button button--small"
          aria-label={`Choose plans of route ${route.id}`}
          aria-expanded={open}
          aria-controls={`${id}-pickers`}
          onClick={() => setOpen(!open)}
        >
          Choose plans
        </button>
      </p>
      {/* Drawn only open: closed, the boxes are out of the tab order and the controls list. */}
      <div id={`${id}-pickers`} className="route-editor__plans" hidden={!open}>
        {open
          ? (Object.keys(PLAN_FIELDS) as PlanRole[]).map((role) => (
              <PlanListPicker
                key={role}
                sells={role}
                legend={`${PLAN_LEGENDS[role]} of route ${route.id}`}
                chosen={route[PLAN_FIELDS[role]]}
                onChange={(plans) => setRouteFields(route.id, { [PLAN_FIELDS[role]]: plans })}
              />
            ))
          : null}
      </div>
    </div>
  );
}
