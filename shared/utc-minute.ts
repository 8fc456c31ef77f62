/**
 * A moment as people read it in the console and in alerts, to the minute in UTC:
 * '2026-11-28 18:26 UTC'. Takes an ISO string or epoch milliseconds.
 */
export function utcMinuteText(at: string | number): string {
  const iso = typeof at === 'number' ? new Date(at).toISOString() : at;
  return `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}
