import { describe, expect, it } from 'vitest';
import { webhookAddressProblem } from '../../../worker/alerts/webhook-address';

/** Which addresses may take the alerts (worker/alerts/webhook-address.ts). */

const production = { development: false };
const development = { development: true };

describe('in production', () => {
  it.each([
    'https://hooks.slack.com/services/T000/B000/XXXX',
    'https://example.webhook.office.com/webhookb2/abc',
    'https://relay.example.com:8443/alerts?team=growth',
    'https://8.8.8.8/hook',
  ])('takes %s', (address) => {
    expect(webhookAddressProblem(address, production)).toBeNull();
  });

  it.each([
    ['http://hooks.slack.com/services/T000', 'must be an https:// address'],
    ['ftp://hooks.example.com/x', 'must be an https:// address'],
    ['http://localhost:9000/hook', 'must be an https:// address'],
    ['not a url', 'is not a web address'],
    ['https://user:secret@hooks.example.com/x', 'must not carry a user name or password'],
  ])('refuses %s', (address, problem) => {
    expect(webhookAddressProblem(address, production)).toContain(problem);
  });

  it.each([
    'https://localhost/hook',
    'https://api.localhost/hook',
    'https://127.0.0.1/hook',
    'https://127.1.2.3/hook',
    'https://0x7f.1/hook',
    'https://2130706433/hook',
    'https://10.0.0.5/hook',
    'https://172.16.0.1/hook',
    'https://172.31.255.255/hook',
    'https://192.168.1.1/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://100.64.0.1/hook',
    'https://0.0.0.0/hook',
    'https://[::1]/hook',
    'https://[::]/hook',
    'https://[fd00::1]/hook',
    'https://[fe80::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://[::ffff:10.1.2.3]/hook',
    'https://printer.local/hook',
    'https://metadata.google.internal/hook',
    'https://router.home.arpa/hook',
    'https://intranet/hook',
    'https://LOCALHOST./hook',
  ])('refuses the private or loopback host of %s', (address) => {
    expect(webhookAddressProblem(address, production)).toMatch(/is not a public host/);
  });

  it.each([
    'https://172.32.0.1/hook',
    'https://192.169.0.1/hook',
    'https://[2606:4700::1111]/hook',
  ])('takes the public neighbour %s', (address) => {
    expect(webhookAddressProblem(address, production)).toBeNull();
  });
});

describe('in development', () => {
  it.each(['http://localhost:9000/hook', 'http://127.0.0.1:9000/hook', 'http://[::1]:9000/hook'])(
    'takes a listener on this machine over http: %s',
    (address) => {
      expect(webhookAddressProblem(address, development)).toBeNull();
    },
  );

  it('still refuses http to another host', () => {
    expect(webhookAddressProblem('http://hooks.example.com/x', development)).toBe(
      'must be an https:// address',
    );
  });
});
