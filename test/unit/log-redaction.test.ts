import { afterEach, describe, expect, it, vi } from 'vitest';
import { logError, logLine, logWarning } from '../../shared/log';
import { redactText } from '../../shared/log-redaction';
import { newResumeId, signResumeId } from '../../worker/resume/resume-token';
import { signSubscriberLink } from '../../worker/subscriber-links/link-token';
import { secretsIn } from '../log-secrets';

afterEach(() => vi.restoreAllMocks());

const KEY = 'a-signing-key-of-the-tests-0123456789';

/** What logLine, logWarning or logError printed, parsed. */
function printed(write: () => void): Record<string, unknown> {
  const lines: string[] = [];
  for (const stream of ['log', 'warn', 'error'] as const) {
    vi.spyOn(console, stream).mockImplementation((line) => lines.push(String(line)));
  }
  write();
  expect(lines).toHaveLength(1);
  expect(secretsIn(lines[0] as string)).toEqual([]);
  return JSON.parse(lines[0] as string) as Record<string, unknown>;
}

describe('a link in a path', () => {
  it('keeps a subscriber link’s purpose, subscription and link id, not its signature', async () => {
    const { token, link } = await signSubscriberLink(KEY, 'manage', 'sub_42', Date.now());
    expect(secretsIn(`/subscription/${token}`)).not.toEqual([]);
    const line = printed(() => logLine({ id: 'req-1', path: `/subscription/${token}/guarantee` }));
    const unsigned = token.slice(0, token.lastIndexOf('.'));
    expect(line).toMatchObject({
      id: 'req-1',
      path: `/subscription/${unsigned}.[redacted]/guarantee`,
    });
    expect(String(line.path)).toContain(link.linkId);
    expect(JSON.stringify(line)).not.toContain(token);
  });

  it('keeps a resume link’s record id, not its signature', async () => {
    const id = newResumeId();
    const token = await signResumeId(KEY, id);
    const line = printed(() => logWarning('resume_link_refused', { path: `/resume/${token}` }));
    expect(line).toMatchObject({
      path: `/resume/${id}.[redacted]`,
      warning: 'resume_link_refused',
    });
  });
});

describe('a value named as a secret', () => {
  const accessToken = 'q3Vw9zK1bX0yT5nR2mL8hJ4gF6dS7aP0oI9uY3tR1eW';

  it('is replaced whole in a field of that name, text or number', () => {
    const line = printed(() =>
      logError('portal_bad_response', {
        access_token: accessToken,
        payment_method_nonce: 'fake-valid-nonce',
        cvc: 123,
        cookie: 'gf_variant',
      }),
    );
    expect(line).toMatchObject({
      error: 'portal_bad_response',
      access_token: '[redacted]',
      payment_method_nonce: '[redacted]',
      cvc: '[redacted]',
      // A field that names a cookie holds its name, no secret.
      cookie: 'gf_variant',
    });
  });

  it('is replaced in a query string, a Cookie header, a Bearer header and a JSON text', () => {
    const detail = [
      `https://funnel.test/app/login?token=${accessToken}&lang=de`,
      `gf_session=${accessToken}; userUuid=7f0c`,
      `Authorization: Bearer ${accessToken}`,
      `{"access_token":"${accessToken}","deeplink_token":"${accessToken}","cvc":"737"}`,
    ].join(' | ');
    const line = printed(() => logLine({ detail }));
    expect(line.detail).toBe(
      [
        'https://funnel.test/app/login?token=[redacted]&lang=de',
        'gf_session=[redacted]; userUuid=7f0c',
        'Authorization: Bearer [redacted]',
        '{"access_token":"[redacted]","deeplink_token":"[redacted]","cvc":"[redacted]"}',
      ].join(' | '),
    );
  });

  it('takes a client secret and a JSON web token whatever they are named', () => {
    const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJl';
    const line = printed(() =>
      logLine({ detail: `confirm tpi_0a1b2c_secret_Zx81kLmQ0pR7 with ${jwt}` }),
    );
    expect(line.detail).toBe('confirm tpi_0a1b2c_secret_[redacted] with [redacted]');
  });
});

describe('a card number', () => {
  it.each([
    ['4242424242424242'],
    ['4000 0000 0000 0002'],
    ['4000-0027-6000-3184'],
    ['378282246310005'],
    ['5555555555554444'],
  ])('%s, in a message or as a number, is [card]', (card) => {
    const line = printed(() =>
      logLine({
        detail: `portal said: card ${card} declined`,
        number: Number(card.replace(/\D/g, '')),
      }),
    );
    expect(line).toMatchObject({ detail: 'portal said: card [card] declined', number: '[card]' });
  });

  it('leaves what only looks like one: ids, timestamps, a number failing Luhn', () => {
    const kept = [
      // A uuid whose last group and a digit before it pass Luhn (a request id once did).
      '6a9cbcd4-0774-4294-89e4-086034273370',
      // Milliseconds since 1970, 13 digits from 1.
      '1764370507836',
      '4242424242424241',
      'sub_4242424242424242',
      '12345',
    ];
    for (const text of kept) expect(redactText(text)).toBe(text);
    const line = printed(() => logLine({ at: 1764370507836, amount: 39.99, polling_id: kept[0] }));
    expect(line).toMatchObject({ at: 1764370507836, amount: 39.99, polling_id: kept[0] });
  });
});

it('leaves an ordinary request line as it was', () => {
  const fields = {
    id: '55c50b89-a1bc-48b9-9be2-0b3622616104',
    method: 'GET',
    path: '/checkout_v3_tr',
    status: 200,
    ms: 4.2,
    country: 'DE',
    variant: 'default',
    experiments: 'split:default',
  };
  expect(printed(() => logLine(fields))).toMatchObject(fields);
});

it('stays linear on a long hostile value (no backtracking blow-up)', () => {
  const hostile = [
    '4'.repeat(50_000),
    `.${'a'.repeat(50_000)}`,
    `token=${'x'.repeat(50_000)}`,
    '4 '.repeat(25_000),
    `"${'a'.repeat(10_000)}token": "`.repeat(5),
  ];
  for (const text of hostile) {
    const started = performance.now();
    redactText(text);
    // Linear passes take about a millisecond; a backtracking one would take minutes.
    expect(performance.now() - started).toBeLessThan(500);
  }
});
