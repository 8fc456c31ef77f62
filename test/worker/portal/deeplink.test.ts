import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { DeeplinkConsumeResponse, DeeplinkResponse } from '../../../shared/api/contract';
import { bearer, callPortal, failureOf, postJson, signUp } from './portal-client';

async function deeplinkOf(
  accessToken: string,
  headers: Record<string, string> = {},
  bindings: Record<string, string> = {},
) {
  const response = await callPortal(
    '/users/me/deeplink-qr-code',
    { headers: { ...bearer(accessToken), ...headers } },
    bindings,
  );
  expect(response.status).toBe(200);
  return DeeplinkResponse.parse(await response.json()).data;
}

function svgOf(dataUrl: string): string {
  const prefix = 'data:image/svg+xml;base64,';
  expect(dataUrl.startsWith(prefix)).toBe(true);
  return new TextDecoder().decode(
    Uint8Array.from(atob(dataUrl.slice(prefix.length)), (c) => c.charCodeAt(0)),
  );
}

describe('GET /users/me/deeplink-qr-code', () => {
  it('links to the funnel’s /app/login with the sign-up’s one-time token', async () => {
    const { accessToken, deeplinkToken } = await signUp();
    const { short_deeplink } = await deeplinkOf(accessToken, {
      'x-funnel-origin': 'https://funnel.example',
    });
    expect(short_deeplink).toBe(`https://funnel.example/app/login?token=${deeplinkToken}`);
  });

  it('links with https even for a funnel served on plain http: the contract takes no other', async () => {
    const { accessToken, deeplinkToken } = await signUp();
    const { short_deeplink } = await deeplinkOf(accessToken, {
      'x-funnel-origin': 'http://funnel.example',
    });
    expect(short_deeplink).toBe(`https://funnel.example/app/login?token=${deeplinkToken}`);
  });

  it('keeps http for the local funnel (npm start), whose link never leaves the machine', async () => {
    const { accessToken, deeplinkToken } = await signUp();
    const { short_deeplink } = await deeplinkOf(accessToken, {
      'x-funnel-origin': 'http://localhost:8787',
    });
    expect(short_deeplink).toBe(`http://localhost:8787/app/login?token=${deeplinkToken}`);
  });

  it('uses PORTAL_DEEPLINK_BASE when it is set', async () => {
    const { accessToken, deeplinkToken } = await signUp();
    const { short_deeplink } = await deeplinkOf(
      accessToken,
      { 'x-funnel-origin': 'http://localhost:8787' },
      { PORTAL_DEEPLINK_BASE: 'https://go.example.test/open' },
    );
    expect(short_deeplink).toBe(`https://go.example.test/open?token=${deeplinkToken}`);
  });

  it('ignores an x-funnel-origin that is not an origin and uses its own', async () => {
    const { accessToken } = await signUp();
    const { short_deeplink } = await deeplinkOf(accessToken, {
      'x-funnel-origin': 'javascript:alert(1)//',
    });
    expect(new URL(short_deeplink).origin).toBe('https://portal.internal');
  });

  it('answers the link’s QR code as an SVG data URL', async () => {
    const { accessToken } = await signUp();
    const { qr_code } = await deeplinkOf(accessToken);
    const svg = svgOf(qr_code);
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('<path');
    // A QR of a ~80-character URL at level M is version 5 or 6: 37–41 modules plus the margin.
    const [, size] = /viewBox="0 0 (\d+) \1"/.exec(svg) ?? [];
    expect(Number(size)).toBeGreaterThanOrEqual(37 + 8);
  });

  it('draws a different QR code for a different link', async () => {
    const first = await deeplinkOf((await signUp()).accessToken);
    const second = await deeplinkOf((await signUp()).accessToken);
    expect(second.short_deeplink).not.toBe(first.short_deeplink);
    expect(svgOf(second.qr_code)).not.toBe(svgOf(first.qr_code));
  });

  it('answers a fresh token once the sign-up’s token has been used', async () => {
    const { accessToken, deeplinkToken } = await signUp();
    await postJson('/deeplink/consume', { token: deeplinkToken });

    const { short_deeplink } = await deeplinkOf(accessToken);
    const token = new URL(short_deeplink).searchParams.get('token');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(token).not.toBe(deeplinkToken);
    // Asking again reuses the unused one instead of piling up tokens.
    expect((await deeplinkOf(accessToken)).short_deeplink).toBe(short_deeplink);
  });

  it('answers 401 without a bearer token', async () => {
    const response = await callPortal('/users/me/deeplink-qr-code');
    expect((await failureOf(response)).status).toBe(401);
  });
});

describe('POST /deeplink/consume', () => {
  it('signs the link’s user in once, then answers 410', async () => {
    const { deeplinkToken, userId } = await signUp();

    const first = await postJson('/deeplink/consume', { token: deeplinkToken });
    expect(first.status).toBe(200);
    const { data } = DeeplinkConsumeResponse.parse(await first.json());
    expect(data.external_user_id).toBe(userId);
    // The new access token works as a bearer token.
    const settings = await callPortal('/users/me/payments-settings', {
      headers: bearer(data.access_token),
    });
    expect(settings.status).toBe(200);

    const second = await postJson('/deeplink/consume', { token: deeplinkToken });
    expect(await failureOf(second)).toEqual({
      status: 410,
      code: 'deeplink_used',
      messages: ['This login link has already been used.'],
    });
  });

  it('lets only one of two simultaneous uses through', async () => {
    const { deeplinkToken } = await signUp();
    const statuses = await Promise.all(
      [1, 2].map(
        async () => (await postJson('/deeplink/consume', { token: deeplinkToken })).status,
      ),
    );
    expect(statuses.sort()).toEqual([200, 410]);
  });

  it('answers 404 for a token it never gave', async () => {
    const response = await postJson('/deeplink/consume', { token: 'never-issued' });
    expect(await failureOf(response)).toMatchObject({ status: 404, code: 'not_found' });
    const count = await env.PORTAL_DB.prepare(
      "SELECT COUNT(*) AS n FROM deeplink_tokens WHERE token = 'never-issued'",
    ).first('n');
    expect(count).toBe(0);
  });

  it('answers 400 without a token', async () => {
    const response = await postJson('/deeplink/consume', {});
    expect(await failureOf(response)).toMatchObject({ status: 400, code: 'invalid_body' });
  });
});
