import { describe, expect, it } from 'vitest';
import { EMPTY_CONTENT } from '../../../shared/config/content';
import { CONSOLE_API } from '../../../shared/console-api/config';
import { DEFAULT_FLOWS, DEFAULT_ROUTING, DEFAULT_SPLIT } from '../../../worker/config/defaults';
import { checkFullDocument } from '../../../worker/config/document';
import { validateExperiments } from '../../../worker/experiments/config/validate';
import { CONTEXT, section } from '../experiments/config/config-fixtures';
import { freshApp } from '../fetch-app';

/**
 * The alerts' webhook as the experiments' validator takes it (worker/experiments/config/
 * validate.ts): what the console's publish and `npm run config` refuse.
 */

function webhookIssues(webhook: string, development?: boolean) {
  const doc = { ...section({}), alerts: { webhook } };
  return validateExperiments(doc, { ...CONTEXT, development }).issues;
}

describe('the alerts webhook', () => {
  it('takes a public https address', () => {
    expect(webhookIssues('https://hooks.slack.com/services/T000/B000/XXXX')).toEqual([]);
  });

  it('refuses http, at the field', () => {
    expect(webhookIssues('http://hooks.slack.com/services/T000/B000/XXXX')).toEqual([
      { path: 'experiments.alerts.webhook', message: 'must be an https:// address' },
    ]);
  });

  it.each([
    'https://127.0.0.1/hook',
    'https://10.1.2.3/hook',
    'https://169.254.169.254/',
    'https://localhost/hook',
    // Literal forms the URL parser normalises, and IPv4 inside IPv6 (ipaddr.js in workerd).
    'https://2130706433/hook',
    'https://0x7f.1/hook',
    'https://[::ffff:7f00:1]/hook',
    'https://[64:ff9b::a9fe:a9fe]/latest/meta-data',
    'https://[2002:c0a8:101::1]/hook',
    'https://[fec0::1]/hook',
    'https://203.0.113.9/hook',
  ])('refuses the private or loopback %s', (webhook) => {
    expect(webhookIssues(webhook)).toEqual([
      {
        path: 'experiments.alerts.webhook',
        message: expect.stringMatching(/is not a public host/),
      },
    ]);
  });

  it('takes a listener on this machine over http in development only', () => {
    expect(webhookIssues('http://localhost:9000/hook', true)).toEqual([]);
    expect(webhookIssues('http://localhost:9000/hook')).toEqual([
      { path: 'experiments.alerts.webhook', message: 'must be an https:// address' },
    ]);
  });

  it("the console's check of a whole document refuses it too", () => {
    const checked = checkFullDocument({
      split: DEFAULT_SPLIT,
      flows: DEFAULT_FLOWS,
      routing: DEFAULT_ROUTING,
      experiments: {
        version: 'v1',
        experiments: {},
        alerts: { webhook: 'https://192.168.1.10/hook' },
      },
      content: EMPTY_CONTENT,
    });
    expect(checked).toEqual({
      ok: false,
      errors: [
        {
          path: 'experiments.alerts.webhook',
          message: expect.stringContaining('"192.168.1.10" is not a public host'),
        },
      ],
    });
  });

  it('the console of npm start takes a local receiver; a deployment refuses it', async () => {
    const document = {
      split: DEFAULT_SPLIT,
      flows: DEFAULT_FLOWS,
      routing: DEFAULT_ROUTING,
      experiments: {
        version: 'v1',
        experiments: {},
        alerts: { webhook: 'http://localhost:9000/hook' },
      },
      content: EMPTY_CONTENT,
    };
    const check = (app: ReturnType<typeof freshApp>) =>
      app(CONSOLE_API.check, {
        method: 'POST',
        headers: { 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'application/json' },
        body: JSON.stringify({ base: null, document }),
      });
    expect((await check(freshApp())).status).toBe(200);
    expect(checkFullDocument(document).ok).toBe(false);
    expect(checkFullDocument(document, undefined, { development: true }).ok).toBe(true);
  });
});
