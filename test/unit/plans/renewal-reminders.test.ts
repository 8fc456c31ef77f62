import { describe, expect, it } from 'vitest';
import { type Plan, planById } from '../../../shared/plans/catalogue';
import {
  ANNUAL_LEAD_DAYS,
  annualReminder,
  firstReminders,
  laterReminder,
  RENEWAL_LEAD_DAYS,
  renewalReminder,
  TRIAL_LEAD_DAYS,
  trialReminder,
} from '../../../shared/plans/renewal-reminders';

/** The reminders' lead times by country and their schedule (shared/plans/renewal-reminders.ts). */

const DAY = 86_400_000;
const BOUGHT = Date.UTC(2026, 0, 31, 12, 0, 0);

/** A yearly plan: the catalogue sells none yet, the schedule is ready for one. */
function yearly(): Plan {
  const monthly = planById('monthly_usd');
  return { ...monthly, billing: { kind: 'recurring', months: 12 as 1, intro: null } };
}

describe('the lead-time table', () => {
  it('asks 7 days before a trial ends everywhere (Visa), the US inside its states’ 3–21 days', () => {
    expect(TRIAL_LEAD_DAYS).toEqual({ default: 7, US: 7 });
    expect(TRIAL_LEAD_DAYS.US).toBeGreaterThanOrEqual(3);
    expect(TRIAL_LEAD_DAYS.US).toBeLessThanOrEqual(21);
  });

  // The US states' windows for a notice before a renewal, in days (docs/payments.md, "Renewal
  // reminders by market"): a visitor's state cannot be told from the country, so the US lead
  // must sit inside every window that covers the term.
  const YEARLY_TERM_WINDOWS = {
    california: [15, 45],
    newYork: [15, 45],
    colorado: [25, 40],
    utah: [30, 60],
    massachusetts: [5, 30],
    florida: [30, 60],
  };
  const QUARTERLY_TERM_WINDOWS = { utah: [30, 60], massachusetts: [5, 30] };

  it('asks 30 days before a yearly renewal in the US, the one day inside every state’s window', () => {
    const us = ANNUAL_LEAD_DAYS.US!;
    for (const [from, to] of Object.values(YEARLY_TERM_WINDOWS)) {
      expect(us).toBeGreaterThanOrEqual(from!);
      expect(us).toBeLessThanOrEqual(to!);
    }
    expect(ANNUAL_LEAD_DAYS.default).toBe(30);
  });

  it('asks 30 days before each renewal of a US term over a month, inside Utah’s and Massachusetts’ windows, and nowhere else', () => {
    const us = RENEWAL_LEAD_DAYS.US!;
    for (const [from, to] of Object.values(QUARTERLY_TERM_WINDOWS)) {
      expect(us).toBeGreaterThanOrEqual(from!);
      expect(us).toBeLessThanOrEqual(to!);
    }
    expect(Object.keys(RENEWAL_LEAD_DAYS)).toEqual(['US']);
  });
});

describe('a trial’s reminder', () => {
  it('of a 7-day trial is asked half-way, 3½ days before it turns paid, whatever the country', () => {
    const plan = planById('monthly_7d_intro_usd');
    for (const country of ['US', 'DE', null]) {
      expect(trialReminder(plan, BOUGHT, country)).toEqual({
        kind: 'trial_end',
        renewsAt: BOUGHT + 7 * DAY,
        askAt: BOUGHT + 3.5 * DAY,
      });
    }
  });

  it('of a 3-day trial is asked 36 hours before it turns paid, never with the receipt', () => {
    const due = trialReminder(planById('monthly_3d_intro_usd'), BOUGHT, 'US')!;
    expect(due.renewsAt - due.askAt).toBe(1.5 * DAY);
  });

  it('of a trial longer than the lead is asked 7 days before', () => {
    const long: Plan = {
      ...planById('monthly_7d_intro_usd'),
      billing: { kind: 'recurring', months: 1, intro: { days: 30, price: 699 } },
    };
    expect(trialReminder(long, BOUGHT, 'GB')).toEqual({
      kind: 'trial_end',
      renewsAt: BOUGHT + 30 * DAY,
      askAt: BOUGHT + 23 * DAY,
    });
  });

  it('is none for a plan without a trial or a one-time payment', () => {
    expect(trialReminder(planById('monthly_usd'), BOUGHT, 'US')).toBeNull();
    expect(trialReminder(planById('guide_899_usd'), BOUGHT, 'US')).toBeNull();
  });
});

describe('the yearly reminder', () => {
  it('of a yearly plan comes 30 days before each renewal, in the US as elsewhere', () => {
    const renews = Date.UTC(2027, 0, 31, 12, 0, 0);
    expect(annualReminder(yearly(), BOUGHT, 'US', BOUGHT)).toEqual({
      kind: 'annual',
      renewsAt: renews,
      askAt: renews - 30 * DAY,
    });
    expect(annualReminder(yearly(), BOUGHT, 'FR', BOUGHT)?.askAt).toBe(renews - 30 * DAY);
    // After the first is asked, the next is a year on.
    expect(annualReminder(yearly(), BOUGHT, 'US', renews)?.renewsAt).toBe(
      Date.UTC(2028, 0, 31, 12, 0, 0),
    );
  });

  it('of a monthly US subscription comes on each anniversary, naming the next renewal', () => {
    // Bought 31 January: the anniversary is 31 January 2027, the renewal after it 28 February.
    expect(annualReminder(planById('monthly_usd'), BOUGHT, 'US', BOUGHT)).toEqual({
      kind: 'annual',
      askAt: Date.UTC(2027, 0, 31, 12, 0, 0),
      renewsAt: Date.UTC(2027, 1, 28, 12, 0, 0),
    });
    expect(
      annualReminder(planById('monthly_usd'), BOUGHT, 'us', Date.UTC(2027, 0, 31, 12, 0, 0))?.askAt,
    ).toBe(Date.UTC(2028, 0, 31, 12, 0, 0));
  });

  it('is none for a monthly subscription outside the US, or a one-time payment', () => {
    expect(annualReminder(planById('monthly_usd'), BOUGHT, 'DE', BOUGHT)).toBeNull();
    expect(annualReminder(planById('monthly_usd'), BOUGHT, null, BOUGHT)).toBeNull();
    expect(annualReminder(planById('guide_899_usd'), BOUGHT, 'US', BOUGHT)).toBeNull();
  });
});

describe('the reminder before each renewal', () => {
  it('of a US quarterly plan comes 30 days before each renewal, the next after the last asked', () => {
    const plan = planById('quarterly_usd');
    const bought = Date.UTC(2026, 0, 15, 12, 0, 0);
    const april = Date.UTC(2026, 3, 15, 12, 0, 0);
    const july = Date.UTC(2026, 6, 15, 12, 0, 0);
    const first = renewalReminder(plan, bought, 'US', bought);
    expect(first).toEqual({ kind: 'renewal', renewsAt: april, askAt: april - 30 * DAY });
    const next = laterReminder('renewal', plan, { chargedAt: bought, country: 'US' }, april);
    expect(next).toEqual({ kind: 'renewal', renewsAt: july, askAt: july - 30 * DAY });
  });

  it('counts each renewal from the purchase’s day, not from the renewal before (31 January → 30 April → 31 July)', () => {
    const plan = planById('quarterly_usd');
    const april = Date.UTC(2026, 3, 30, 12, 0, 0);
    const july = Date.UTC(2026, 6, 31, 12, 0, 0);
    expect(renewalReminder(plan, BOUGHT, 'US', BOUGHT)?.renewsAt).toBe(april);
    const bought = { chargedAt: BOUGHT, country: 'US' };
    expect(laterReminder('renewal', plan, bought, april)?.renewsAt).toBe(july);
  });

  it('leaves the first renewal after a trial to the trial’s reminder', () => {
    // The catalogue's 7-day intro on a quarterly term.
    const intro = planById('monthly_7d_intro_usd').billing as Extract<
      Plan['billing'],
      { kind: 'recurring' }
    >;
    const plan: Plan = { ...planById('quarterly_usd'), billing: { ...intro, months: 3 } };
    const trial = trialReminder(plan, BOUGHT, 'US')!;
    const renewal = renewalReminder(plan, BOUGHT, 'US', BOUGHT)!;
    expect(renewal.renewsAt).toBeGreaterThan(trial.renewsAt);
    expect(renewal.renewsAt - renewal.askAt).toBe(30 * DAY);
  });

  it('is none outside the US, for a monthly or yearly plan, or a one-time payment', () => {
    expect(renewalReminder(planById('quarterly_eur'), BOUGHT, 'DE', BOUGHT)).toBeNull();
    expect(renewalReminder(planById('quarterly_usd'), BOUGHT, null, BOUGHT)).toBeNull();
    expect(renewalReminder(planById('monthly_usd'), BOUGHT, 'US', BOUGHT)).toBeNull();
    expect(renewalReminder(yearly(), BOUGHT, 'US', BOUGHT)).toBeNull();
    expect(renewalReminder(planById('guide_899_usd'), BOUGHT, 'US', BOUGHT)).toBeNull();
    expect(
      laterReminder(
        'trial_end',
        planById('quarterly_usd'),
        { chargedAt: BOUGHT, country: 'US' },
        BOUGHT,
      ),
    ).toBeNull();
  });
});

describe('a new subscription’s reminders', () => {
  it('are its trial’s and, in the US, its first anniversary’s', () => {
    const plan = planById('monthly_7d_intro_usd');
    expect(firstReminders(plan, BOUGHT, 'US').map((due) => due.kind)).toEqual([
      'trial_end',
      'annual',
    ]);
    expect(firstReminders(plan, BOUGHT, 'DE').map((due) => due.kind)).toEqual(['trial_end']);
    expect(firstReminders(planById('quarterly_eur'), BOUGHT, 'DE')).toEqual([]);
    expect(firstReminders(planById('quarterly_usd'), BOUGHT, 'US').map((due) => due.kind)).toEqual([
      'annual',
      'renewal',
    ]);
  });
});
