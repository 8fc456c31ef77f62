import { describe, expect, it } from 'vitest';
import { freshApp, setCookies } from '../fetch-app';
import { signUp } from './portal-client';

const fetchApp = freshApp();

describe('GET /app/login?token=… (the deeplink, issue 5)', () => {
  it('logs the visitor in once: the session cookie works for the signed-in calls', async () => {
    const { deeplinkToken } = await signUp();
    const response = await fetchApp(`/app/login?token=${encodeURIComponent(deeplinkToken)}`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<h1>You are logged in</h1>');
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const session = setCookies(response).get('gf_session');
    expect(session).toBeTruthy();

    const settings = await fetchApp('/api/users/me/payments-settings', {
      headers: { cookie: `gf_session=${session}` },
    });
    expect(settings.status).toBe(200);
  });

  it('refuses the same token the second time (410) and sets no cookie', async () => {
    const { deeplinkToken } = await signUp();
    await fetchApp(`/app/login?token=${encodeURIComponent(deeplinkToken)}`);
    const again = await fetchApp(`/app/login?token=${encodeURIComponent(deeplinkToken)}`);
    expect(again.status).toBe(410);
    expect(await again.text()).toContain('This login link has already been used.');
    expect(setCookies(again).has('gf_session')).toBe(false);
  });

  it('answers 404 for a token it never gave, and for none', async () => {
    expect((await fetchApp('/app/login?token=not-a-token')).status).toBe(404);
    expect((await fetchApp('/app/login')).status).toBe(404);
  });

  it('answers 502 when the portal cannot be reached, and sets no cookie', async () => {
    const down = freshApp({ portalFetch: () => Promise.reject(new Error('down')) });
    const response = await down('/app/login?token=whatever');
    expect(response.status).toBe(502);
    expect(setCookies(response).has('gf_session')).toBe(false);
  });
});
