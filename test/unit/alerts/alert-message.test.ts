import { describe, expect, it } from 'vitest';
import { alertMessage, consoleExperimentLink } from '../../../worker/alerts/alert-message';
import { alertsDue, NO_EXPOSURES_AFTER_MS } from '../../../worker/alerts/alert-rules';
import {
  priceExperiment,
  resultsAnswer,
  STARTED_AT,
} from '../../fixtures/experiment-results-answer';

/** What a marketer reads in Slack (worker/alerts/alert-message.ts). */

const LATER = new Date(Date.parse(STARTED_AT) + NO_EXPOSURES_AFTER_MS + 6 * 3_600_000);
const CONSOLE = 'https://funnel.example.com/console';

function only(options: Parameters<typeof resultsAnswer>[0], name?: string) {
  const due = alertsDue(
    'pw-us',
    priceExperiment(name ? { name } : {}),
    resultsAnswer(options),
    LATER,
  );
  expect(due).toHaveLength(1);
  return due[0]!;
}

describe('alert messages', () => {
  it('a ramp rolled back says what it did, why, and the version it published', () => {
    const message = alertMessage(
      {
        key: 'lp-ai|1|ramp|rollback-move',
        experiment: 'lp-ai',
        name: 'AI landing',
        phase: 1,
        facts: {
          kind: 'ramp',
          action: 'rollback',
          reason: 'broken: declines (6.00% against 3.00%)',
          version: 'v12',
        },
      },
      CONSOLE,
    );
    expect(message.text).toBe(
      '*Guarded ramp*: Experiment "AI landing" (lp-ai, phase 1): its guarded ramp rolled back its variant: new visitors and those exposed to it get the control, and every exposure stays counted (config version v12): broken: declines (6.00% against 3.00%). <https://funnel.example.com/console?experiment=lp-ai&phase=1#results|Open it in the console>',
    );
  });

  it("a route's or a roll-out's ramp rolled back says what it did to whom", () => {
    const rampAlert = (subject: 'roll_out' | 'route', experiment: string, name: string) =>
      alertMessage(
        {
          key: `${experiment}|1|ramp|rollback-move`,
          experiment,
          name,
          phase: 1,
          facts: {
            kind: 'ramp',
            action: 'rollback',
            reason: 'broken: declines',
            version: 'v3',
            subject,
          },
        },
        CONSOLE,
      ).text;
    expect(rampAlert('route', 'route:tiktok_bf', 'Route tiktok_bf on a ramp')).toBe(
      '*Guarded ramp*: Route tiktok_bf on a ramp (route:tiktok_bf): its guarded ramp rolled back the route: it takes no one, its visitors get the route they would have got without it, and every exposure stays counted (config version v3): broken: declines.',
    );
    expect(rampAlert('roll_out', 'lp-ai', 'AI landing')).toMatch(
      /^\*Guarded ramp\*: Experiment "AI landing" \(lp-ai, phase 1\): its guarded ramp rolled back its roll-out: everyone is on the control again, .*<https:\/\/funnel\.example\.com\/console\?experiment=lp-ai&phase=1#results\|Open it in the console>$/,
    );
  });

  it('an SRM alarm names the experiment, the phase, the arms and links to its results', () => {
    const message = alertMessage(only({ srmAlarm: true }), CONSOLE);
    expect(message.text).toBe(
      '*Sample ratio mismatch*: Experiment "US paywall: 3-day intro at 2.99" (pw-us, phase 2): its visitors are not split as its weights say (sample ratio mismatch, p below 0.001): control 1,000 (weights: 50%), cheap 1,000 (weights: 50%). Something counts or assigns visitors unevenly, so its results cannot be trusted until the cause is found; no verdict is shown meanwhile. <https://funnel.example.com/console?experiment=pw-us&phase=2#results|Open it in the console>',
    );
    expect(message.blocks).toEqual([
      { type: 'section', text: { type: 'mrkdwn', text: message.text } },
      {
        type: 'context',
        elements: [{ type: 'mrkdwn', text: 'Geofunnel alert, sent once: pw-us|2|srm' }],
      },
    ]);
  });

  it('no exposures says since when and what to check', () => {
    const { text } = alertMessage(
      only({ control: { exposed: 0 }, cheap: { exposed: 0 } }),
      CONSOLE,
    );
    expect(text).toContain(
      '(pw-us, phase 2): it has been running for 30 hours (since 2026-06-01T08:00:00Z) and has exposed no visitor.',
    );
    expect(text).toContain('Check its routes, audience and coverage');
  });

  it('a guardrail names the variant, both rates and the lift with its interval', () => {
    const { text } = alertMessage(only({ cheap: { refunds: 'worse' } }), CONSOLE);
    expect(text).toContain(
      '*Refunds up*: Experiment "US paywall: 3-day intro at 2.99" (pw-us, phase 2): variant "cheap" (2.99 intro) has more payments refunded or charged back than the control, significantly: 3% of its exposed visitors against 1% (+80%, interval +20% to +140%). Consider pausing it.',
    );
  });

  it.each([null, 'funnel.example.com/console'])('with the console address %s, no link', (url) => {
    const { text } = alertMessage(only({ srmAlarm: true }), url);
    expect(text).not.toContain('<');
    expect(text).toMatch(/no verdict is shown meanwhile\.$/);
  });

  it('a slower LCP says how much, over how many visitors, and what to look at', () => {
    const { text } = alertMessage(only({ cheap: { lcp: 'worse' } }), CONSOLE);
    expect(text).toContain(
      '*Pages load slower*: Experiment "US paywall: 3-day intro at 2.99" (pw-us, phase 2): variant "cheap" (2.99 intro) loads its pages slower (Largest Contentful Paint) than the control, significantly: 75th percentile 2,700 ms against 2,100 ms over 400 sampled visitors (difference +200 ms to +960 ms).',
    );
  });

  it('a slower INP is named as responsiveness', () => {
    const { text } = alertMessage(only({ cheap: { inp: 'worse' } }), CONSOLE);
    expect(text).toContain('*Pages answer slower*');
    expect(text).toContain('answers taps and clicks slower (Interaction to Next Paint)');
    expect(text).toContain('75th percentile 300 ms against 180 ms');
  });

  it('a name cannot make Slack markup: <, > and & are escaped', () => {
    const { text } = alertMessage(
      only({ srmAlarm: true }, 'Price <!channel> & <https://evil.example|click>'),
      CONSOLE,
    );
    expect(text).toContain('"Price &lt;!channel&gt; &amp; &lt;https://evil.example|click&gt;"');
    expect(text.match(/</g)).toHaveLength(1);
  });

  it("the link keeps the console's address and path", () => {
    expect(consoleExperimentLink('https://x.example/console/', 'pw-us', 3)).toBe(
      'https://x.example/console/?experiment=pw-us&phase=3#results',
    );
  });
});
