import type { RouteDocument } from '../../shared/config/routing';
import { rampBadge, rampLine } from './ramp-line';
import { scheduleText } from './schedule-text';

/**
 * A route's standing as the live config has it (its pause, its guarded ramp's state as the
 * cron's engine recorded it, its schedule), in the same words on its card in the traffic map and
 * in the overview's list: one badge when anything but "takes its visitors" holds, and a line each.
 */
export interface RouteStanding {
  /** "paused", "rolled back", "ramp held", "not yet started" or "ended"; null: it takes visitors. */
  badge: string | null;
  /** Its pause, ramp and schedule, each a sentence. */
  lines: string[];
}

export function routeStanding(route: RouteDocument, now: Date): RouteStanding {
  const { from, until } = route.schedule ?? {};
  const notYet = from !== undefined && Date.parse(from) > now.getTime();
  const ended = until !== undefined && Date.parse(until) <= now.getTime();
  const badge =
    (route.paused ? 'paused' : null) ??
    rampBadge(route.ramp) ??
    (ended ? 'ended' : notYet ? 'not yet started' : null);
  const lines = [
    ...(route.paused ? ['It takes no new visitor; those already on it stay.'] : []),
    ...(route.ramp ? [rampLine(route.ramp, 'route')] : []),
    ...(route.schedule ? [scheduleText(route.schedule)] : []),
  ];
  return { badge, lines };
}

/** Whether the overview lists the route: anything said of it beyond taking its visitors. */
export const isNoteworthy = (standing: RouteStanding) =>
  standing.badge !== null || standing.lines.length > 0;
