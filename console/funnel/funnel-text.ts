import type { FunnelCounts } from '../../shared/console-api/funnel';
import { countText } from '../kit/result-texts';

/** Today and the six days before it, UTC, as the report's range starts. */
export function lastWeek(now: number): { from: string; to: string } {
  const day = (at: number) => new Date(at).toISOString().slice(0, 10);
  return { from: day(now - 6 * 86_400_000), to: day(now) };
}

/** US cents as dollars, or a dash where there is nothing to say. */
export function moneyText(cents: number | null): string {
  if (cents === null) return '–';
  return (cents / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD' });
}

/** Return on ad spend as a percentage, or a dash without a cost. */
export function roasText(roas: number | null): string {
  return roas === null ? '–' : `${Math.round(roas * 100)} %`;
}

/** A campaign as the link tagged it; a link with none says so. */
export function campaignText(campaign: string): string {
  return campaign === '' ? '(no campaign)' : campaign;
}

/** Revenue, and the currencies left out of it for want of a reporting rate. */
export function revenueText(counts: FunnelCounts): string {
  const money = moneyText(counts.revenueCents);
  return counts.revenueUnconverted.length === 0
    ? money
    : `${money} (without ${counts.revenueUnconverted.join(', ')})`;
}

/** `count` of a thing, its name singular for one: "1 sign-up", "1,204 visitors". */
function counted(count: number, one: string, many: string): string {
  return `${countText(count)} ${count === 1 ? one : many}`;
}

/** The report's totals in one line: "5 visitors, 1 sign-up, 1 purchase, $6.99". */
export function totalsText(counts: FunnelCounts): string {
  return [
    counted(counts.visitors, 'visitor', 'visitors'),
    counted(counts.signups, 'sign-up', 'sign-ups'),
    counted(counts.purchases, 'purchase', 'purchases'),
    revenueText(counts),
  ].join(', ');
}
