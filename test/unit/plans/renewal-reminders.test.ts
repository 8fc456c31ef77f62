import { describe, expect, it } from 'vitest';
import { type Plan, planById } from '../../../shared/plans/catalogue';
import {
  ANNUAL_LEAD_DAYS,
  annualReminder,
  firstReminders,
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

  it('asks 28 days before a yearly renewal in the US, inside California’s, New York’s and Colorado’s windows', () => {
    const us = ANNUAL_LEAD_DAYS.US!;
    for (const [from, to] of [
      [15, 45],
      [15, 30],
      [25, 40],
    ]) {
      expect(us).toBeGreaterThanOrEqual(from!);
      expect(us).toBeLessThanOrEqual(to!);
    }
    expect(ANNUAL_LEAD_DAYS.default).toBe(30);
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
  it('of a yearly plan comes 28 days before each renewal in the US, 30 elsewhere', () => {
    const renews = Date.UTC(2027, 0, 31, 12, 0, 0);
    expect(annualReminder(yearly(), BOUGHT, 'US', BOUGHT)).toEqual({
      kind: 'annual',
      renewsAt: renews,
      askAt: renews - 28 * DAY,
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

describe('a new subscription’s reminders', () => {
  it('are its trial’s and, in the US, its first anniversary’s', () => {
    const plan = planById('monthly_7d_intro_usd');
    expect(firstReminders(plan, BOUGHT, 'US').map((due) => due.kind)).toEqual([
      'trial_end',
      'annual',
    ]);
    expect(firstReminders(plan, BOUGHT, 'DE').map((due) => due.kind)).toEqual(['trial_end']);
    expect(firstReminders(planById('quarterly_eur'), BOUGHT, 'DE')).toEqual([]);
  });
});
