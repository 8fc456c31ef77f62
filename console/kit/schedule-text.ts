import type { RouteSchedule } from '../../shared/config/routing';

const formatter = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
});

const utc = (instant: string) => `${formatter.format(new Date(instant))} UTC`;

/** A route's schedule in words: "Always", "From 27 Nov 2026, 00:00 UTC until …". */
export function scheduleText(schedule: RouteSchedule | undefined): string {
  const { from, until } = schedule ?? {};
  if (from && until) return `From ${utc(from)} until ${utc(until)}.`;
  if (from) return `From ${utc(from)}.`;
  if (until) return `Until ${utc(until)}.`;
  return 'Always.';
}
