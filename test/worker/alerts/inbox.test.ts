import { describe, expect, it } from 'vitest';
import {
  type AcknowledgeAlertAnswer,
  type AlertsAnswer,
  CONSOLE_ALERTS_ACKNOWLEDGE_PATH,
  CONSOLE_ALERTS_PATH,
} from '../../../shared/console-api/alerts';
import { runAlerts } from '../../../worker/alerts/run-alerts';
import { priceExperiment, resultsAnswer } from '../../fixtures/experiment-results-answer';
import { freshApp } from '../fetch-app';
import {
  ALERTS_ENV,
  configWith,
  consolePost,
  MINUTE,
  NOW,
  readerOf,
  webhookAndLogs,
} from './alerts-fixtures';

/**
 * The console's alerts inbox (/console/api/alerts) against the real CONFIG_DB: every alert the
 * cron raised, posted to a webhook or not, newest first, each acknowledged once by whoever read
 * it first; only the console's own page may acknowledge.
 */

const hook = webhookAndLogs();
const fetchApp = freshApp({ now: () => NOW + 30 * MINUTE });

const SRM = readerOf({ 'pw-us': resultsAnswer({ srmAlarm: true }) });
const DECLINES = readerOf({ 'pw-us': resultsAnswer({ cheap: { declines: 'worse' } }) });

const acknowledgeAs = (email: string, body: unknown, headers: Record<string, string> = {}) =>
  consolePost(fetchApp, CONSOLE_ALERTS_ACKNOWLEDGE_PATH, email, body, headers);

const inbox = async () => (await fetchApp(CONSOLE_ALERTS_PATH)).json() as Promise<AlertsAnswer>;

describe('the alerts inbox', () => {
  it('holds an alert raised with no webhook set, in words, with where it went', async () => {
    await runAlerts(ALERTS_ENV, configWith({ 'pw-us': priceExperiment() }, null), {
      now: NOW,
      readResults: SRM,
    });
    expect(hook.posts).toEqual([]);
    const answer = await inbox();
    expect(answer.unacknowledged).toBe(1);
    expect(answer.alerts).toEqual([
      expect.objectContaining({
        key: 'pw-us|2|srm',
        kind: 'srm',
        headline: 'Sample ratio mismatch',
        experiment: 'pw-us',
        phase: 2,
        at: new Date(NOW).toISOString(),
        delivery: { state: 'inbox', attempts: 0, sentAt: null, lastStatus: null, lastError: null },
        acknowledged: null,
      }),
    ]);
    // Slack's markup and the console's own link are left out; the words are the message's.
    const [alert] = answer.alerts;
    expect(alert?.text).toMatch(
      /^Experiment "US paywall: 3-day intro at 2\.99" \(pw-us, phase 2\): its visitors are not/,
    );
    expect(alert?.text).not.toMatch(/[*<>]|&amp;|Open it in the console/);
  });

  it('lists what the webhook took beside it, newest first', async () => {
    const config = configWith({ 'pw-us': priceExperiment() });
    await runAlerts(ALERTS_ENV, config, { now: NOW, readResults: SRM });
    await runAlerts(ALERTS_ENV, config, { now: NOW + 15 * MINUTE, readResults: DECLINES });
    const { alerts, unacknowledged } = await inbox();
    expect(unacknowledged).toBe(2);
    expect(alerts.map((alert) => [alert.kind, alert.variant, alert.delivery.state])).toEqual([
      ['guardrail_declines', 'cheap', 'sent'],
      ['srm', null, 'sent'],
    ]);
    expect(alerts[1]?.delivery).toMatchObject({ attempts: 1, lastStatus: 200 });
    expect(hook.posts).toHaveLength(2);
  });

  it('is acknowledged once, by the first to do it; a second press changes nothing', async () => {
    await runAlerts(ALERTS_ENV, configWith({ 'pw-us': priceExperiment() }, null), {
      now: NOW,
      readResults: SRM,
    });
    const first = await acknowledgeAs('ada@example.com', { key: 'pw-us|2|srm' });
    expect(first.status).toBe(200);
    const acknowledged = { by: 'ada@example.com', at: new Date(NOW + 30 * MINUTE).toISOString() };
    expect(((await first.json()) as AcknowledgeAlertAnswer).alert.acknowledged).toEqual(
      acknowledged,
    );
    const second = await acknowledgeAs('bob@example.com', { key: 'pw-us|2|srm' });
    expect(((await second.json()) as AcknowledgeAlertAnswer).alert.acknowledged).toEqual(
      acknowledged,
    );
    const answer = await inbox();
    expect(answer.unacknowledged).toBe(0);
    expect(answer.alerts[0]?.acknowledged).toEqual(acknowledged);
  });

  it('refuses an unknown key, a body that is not one, and a post from another site', async () => {
    await runAlerts(ALERTS_ENV, configWith({ 'pw-us': priceExperiment() }, null), {
      now: NOW,
      readResults: SRM,
    });
    const unknown = await acknowledgeAs('ada@example.com', { key: 'pw-us|9|srm' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ ok: false, error: 'unknown_alert' });
    for (const body of [{}, { key: 7 }, { key: '' }, { key: 'x'.repeat(301) }, 'pw-us|2|srm']) {
      const refused = await acknowledgeAs('ada@example.com', body);
      expect(refused.status).toBe(400);
    }
    const crossSite = await acknowledgeAs(
      'mallory@example.com',
      { key: 'pw-us|2|srm' },
      { 'Sec-Fetch-Site': 'cross-site' },
    );
    expect(crossSite.status).toBe(403);
    expect((await inbox()).unacknowledged).toBe(1);
  });
});
