/** A UTC day as the funnel writes one: YYYY-MM-DD. */
const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** `text` is a day of the calendar written YYYY-MM-DD (2026-02-30 is not). */
export function isCalendarDay(text: string): boolean {
  if (!DAY_PATTERN.test(text)) return false;
  const time = Date.parse(`${text}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === text;
}

/** The UTC day `days` after `text` (a calendar day). */
export function dayAfter(text: string, days: number): string {
  return new Date(Date.parse(`${text}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
