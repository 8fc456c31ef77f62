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
 *   reminded before each renewal, 30 days ahead by default; in the US 28 days, inside every
 *   state window for terms of a year or more (California 15–45 days, New York GBL §527-a 15–30,
 *   Colorado C.R.S. §6-1-732 25–40). The countries of `ANNUAL_NOTICE_COUNTRIES` also remind every
 *   shorter subscription once a year, on each anniversary of its purchase: California's law as
 *   amended by AB 2863 (from 1 July 2025) wants an annual reminder of the terms, price and how to
 *   cancel for every automatic renewal, and a visitor's state cannot be told from the country
 *   (as for the consent box, shared/plans/renewal-consent.ts), so every US subscription gets it.
 * - Any other country takes the defaults. No country (Cloudflare's XX) takes them too.
 */

export const REMINDER_KINDS = ['trial_end', 'annual'] as const;
export type ReminderKind = (typeof REMINDER_KINDS)[number];

const DAY_MS = 86_400_000;

/** Days before a trial or intro turns paid; `default` for every country not listed. */
export const TRIAL_LEAD_DAYS: Readonly<Record<string, number>> = { default: 7, US: 7 };

/** Days before the yearly renewal of a plan of a year or more; `default` for the rest. */
export const ANNUAL_LEAD_DAYS: Readonly<Record<string, number>> = { default: 30, US: 28 };

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

/** The plan's `index`-th renewal (0: the first), or null for a one-time payment. */
function renewalAt(plan: Plan, chargedAt: number, index: number): number | null {
  const first = firstRenewalAt(plan, chargedAt);
  if (first === null || plan.billing.kind !== 'recurring') return null;
  return index === 0 ? first : addUtcMonths(first, index * plan.billing.months);
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

/** Every reminder a new subscription starts with: its trial's, and its first yearly one. */
export function firstReminders(
  plan: Plan,
  chargedAt: number,
  country: string | null,
): ReminderDue[] {
  return [
    trialReminder(plan, chargedAt, country),
    annualReminder(plan, chargedAt, country, chargedAt),
  ].filter((due): due is ReminderDue => due !== null);
}
