import type { Plan } from './catalogue';
import { addUtcMonths, firstRenewalAt } from './renewal';

/**
 * When the worker asks the product API to remind a subscriber of a charge to come
 * (docs/product-api.md, "Renewal reminders"): before a trial or intro price turns into the full
 * price, and once a year. Pure; the subscription ledger keeps one row per reminder to come and
 * the cron asks for it (worker/lifecycle/reminders.ts). The table, by country, with its sources
 * (read from the rules' texts as secondary sources quote them: have counsel confirm them before
 * relying on a row):
 *
 * - **Trial or intro ending** (`trial_end`), `TRIAL_LEAD_DAYS`: everywhere 7 days, Visa's rule
 *   for trials and introductory offers (Visa Core Rules, "Merchants offering trial periods", in
 *   force 18 April 2020: an electronic reminder with an online cancellation link at least 7 days
 *   before the first charge after the trial or intro). The US states that ask for a trial
 *   reminder ask for it 3 to 21 days before the trial ends (California Bus. & Prof. Code §17602
 *   as amended by AB 390 and AB 2863, for trials over 31 days; Virginia §59.1-207.46): 7 days is
 *   inside that window. A trial no longer than its lead time (the catalogue's 3, 5 and 7 days) is
 *   reminded half-way through it, so the reminder never comes with the receipt: Visa asks for
 *   none below 7 days, and half-way keeps it useful.
 * - **Once a year** (`annual`), `ANNUAL_LEAD_DAYS`: a plan whose period is a year or more is
 *   reminded before each renewal, 30 days ahead: in the US the one day inside every state's
 *   window for such terms (California 15–45 days, New York GBL §527-a 15–45, Colorado C.R.S.
 *   §6-1-732 25–40, Utah 30–60, Massachusetts 5–30, Florida 30–60), as docs/payments.md's table
 *   "Renewal reminders by market" gives them. The countries of `ANNUAL_NOTICE_COUNTRIES` also remind every
 *   shorter subscription once a year, on each anniversary of its purchase: California's law as
 *   amended by AB 2863 (from 1 July 2025) wants an annual reminder of the terms, price and how to
 *   cancel for every automatic renewal, and a visitor's state cannot be told from the country
 *   (as for the consent box, shared/plans/renewal-consent.ts), so every US subscription gets it.
 * - **Before each renewal** (`renewal`), `RENEWAL_LEAD_DAYS`: a plan whose period is over a
 *   month and under a year (the catalogue's quarterly plans) is reminded before each renewal
 *   where the country asks for it: in the US 30 days ahead, the one day inside both
 *   Massachusetts' window for terms over 31 days (5–30) and Utah's for paid terms over 45 days
 *   (30–60). A plan with a trial or intro has its first renewal reminded as the trial's.
 * - Any other country takes the defaults. No country (Cloudflare's XX) takes them too.
 */

export const REMINDER_KINDS = ['trial_end', 'annual', 'renewal'] as const;
export type ReminderKind = (typeof REMINDER_KINDS)[number];

const DAY_MS = 86_400_000;

/** Days before a trial or intro turns paid; `default` for every country not listed. */
export const TRIAL_LEAD_DAYS: Readonly<Record<string, number>> = { default: 7, US: 7 };

/** Days before the yearly renewal of a plan of a year or more; `default` for the rest. */
export const ANNUAL_LEAD_DAYS: Readonly<Record<string, number>> = { default: 30, US: 30 };

/**
 * Days before each renewal of a plan of over a month and under a year, in the countries that ask
 * for it; none elsewhere.
 */
export const RENEWAL_LEAD_DAYS: Readonly<Record<string, number>> = { US: 30 };

/** Where every subscription, whatever its period, is reminded once a year. */
const ANNUAL_NOTICE_COUNTRIES: ReadonlySet<string> = new Set(['US']);

/** One reminder to come: the charge it announces, and when to ask for it (epoch ms). */
export interface ReminderDue {
  kind: ReminderKind;
  renewsAt: number;
  askAt: number;
}

function leadMs(table: Readonly<Record<string, number>>, country: string | null): number {
  const code = country?.toUpperCase() ?? '';
  return (Object.hasOwn(table, code) ? table[code]! : table.default!) * DAY_MS;
}

/**
 * The plan's `index`-th renewal (0: the first), or null for a one-time payment. Counted in whole
 * periods from the billing cycle's anchor, as the card networks' cycles are: the intro's end, else
 * the purchase. Bought on 31 January, a quarterly plan renews on 30 April and then 31 July, not on
 * 30 July as three months after 30 April would be.
 */
function renewalAt(plan: Plan, chargedAt: number, index: number): number | null {
  const first = firstRenewalAt(plan, chargedAt);
  if (first === null || plan.billing.kind !== 'recurring') return null;
  const { intro, months } = plan.billing;
  return intro
    ? addUtcMonths(first, index * months)
    : addUtcMonths(chargedAt, (index + 1) * months);
}

/** The first renewal strictly after `after`, or null for a one-time payment. */
function renewalAfter(plan: Plan, chargedAt: number, after: number): number | null {
  for (let index = 0; index < 1200; index++) {
    const at = renewalAt(plan, chargedAt, index);
    if (at === null) return null;
    if (at > after) return at;
  }
  return null;
}

/** The trial's reminder of a plan charged at `chargedAt`, or null when it has no trial. */
export function trialReminder(
  plan: Plan,
  chargedAt: number,
  country: string | null,
): ReminderDue | null {
  if (plan.billing.kind !== 'recurring' || plan.billing.intro === null) return null;
  const renewsAt = renewalAt(plan, chargedAt, 0)!;
  const halfWay = chargedAt + Math.floor((renewsAt - chargedAt) / 2);
  const askAt = Math.max(renewsAt - leadMs(TRIAL_LEAD_DAYS, country), halfWay);
  return { kind: 'trial_end', renewsAt, askAt };
}

/**
 * The next yearly reminder asked strictly after `after` (the purchase's time for the first, the
 * last one's renewal for the next), or null when the plan gets none: before each renewal of a
 * plan of a year or more; else, where ANNUAL_NOTICE_COUNTRIES lists the country, on each
 * anniversary of the purchase, naming the next renewal after it.
 */
export function annualReminder(
  plan: Plan,
  chargedAt: number,
  country: string | null,
  after: number,
): ReminderDue | null {
  if (plan.billing.kind !== 'recurring') return null;
  if (plan.billing.months >= 12) {
    const lead = leadMs(ANNUAL_LEAD_DAYS, country);
    const renewsAt = renewalAfter(plan, chargedAt, after + lead);
    return renewsAt === null ? null : { kind: 'annual', renewsAt, askAt: renewsAt - lead };
  }
  if (!ANNUAL_NOTICE_COUNTRIES.has(country?.toUpperCase() ?? '')) return null;
  let years = 1;
  while (addUtcMonths(chargedAt, 12 * years) <= after) years++;
  const askAt = addUtcMonths(chargedAt, 12 * years);
  const renewsAt = renewalAfter(plan, chargedAt, askAt);
  return renewsAt === null ? null : { kind: 'annual', renewsAt, askAt };
}

/**
 * The next reminder before a renewal asked strictly after `after` (the purchase's time for the
 * first, the last one's renewal for the next), or null when the plan or the country gets none:
 * a plan of over a month and under a year, where RENEWAL_LEAD_DAYS lists the country. The first
 * renewal of a plan with a trial or intro is the trial's reminder's, not this one's.
 */
export function renewalReminder(
  plan: Plan,
  chargedAt: number,
  country: string | null,
  after: number,
): ReminderDue | null {
  if (plan.billing.kind !== 'recurring') return null;
  if (plan.billing.months <= 1 || plan.billing.months >= 12) return null;
  const code = country?.toUpperCase() ?? '';
  if (!Object.hasOwn(RENEWAL_LEAD_DAYS, code)) return null;
  const lead = RENEWAL_LEAD_DAYS[code]! * DAY_MS;
  // A trial's first renewal is its reminder's: the first counted here is the one after it.
  const trialEnds = plan.billing.intro === null ? 0 : renewalAt(plan, chargedAt, 0)!;
  const renewsAt = renewalAfter(plan, chargedAt, Math.max(after + lead, trialEnds));
  return renewsAt === null ? null : { kind: 'renewal', renewsAt, askAt: renewsAt - lead };
}

/** Every reminder a new subscription starts with: its trial's, its first yearly and renewal one. */
export function firstReminders(
  plan: Plan,
  chargedAt: number,
  country: string | null,
): ReminderDue[] {
  return [
    trialReminder(plan, chargedAt, country),
    annualReminder(plan, chargedAt, country, chargedAt),
    renewalReminder(plan, chargedAt, country, chargedAt),
  ].filter((due): due is ReminderDue => due !== null);
}

/**
 * The reminder of `kind` that follows one asked for the renewal at `renewsAt`: the next yearly
 * or renewal reminder; a trial's has none.
 */
export function laterReminder(
  kind: ReminderKind,
  plan: Plan,
  bought: { chargedAt: number; country: string | null },
  renewsAt: number,
): ReminderDue | null {
  if (kind === 'annual') return annualReminder(plan, bought.chargedAt, bought.country, renewsAt);
  if (kind === 'renewal') return renewalReminder(plan, bought.chargedAt, bought.country, renewsAt);
  return null;
}
