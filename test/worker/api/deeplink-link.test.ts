import { describe, expect, it } from 'vitest';
import { sessionCookies } from '../../fixtures/signed-cookies';
import { freshApp } from '../fetch-app';
import { expectRefusal, fakePortal } from './fake-portal';
import { captureLogsPerTest } from './log-capture';

const logs = captureLogsPerTest();

/** GET /api/users/me/deeplink-qr-code for a signed-in visitor, the portal linking to `link`. */
async function deeplinkAnswering(link: string) {
  const portal = fakePortal(() =>
    Response.json({
      data: { short_deeplink: link, qr_code: 'data:image/svg+xml;base64,PHN2Zy8+' },
    }),
  );
  return freshApp({ portalFetch: portal.portalFetch })('/api/users/me/deeplink-qr-code', {
    headers: { cookie: await sessionCookies('secret-access-token-123') },
  });
}

describe('the deeplink the page shows is https or nothing', () => {
  it('passes an https link on', async () => {
    const res = await deeplinkAnswering('https://gz.example/l/abc?token=t');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      data: { short_deeplink: 'https://gz.example/l/abc?token=t' },
    });
  });

  it.each([
    'http://gz.example/l/abc?token=t',
    'javascript:alert(document.cookie)',
    'data:text/html,<script>alert(1)</script>',
  ])('refuses a portal answer linking to %s: 502 portal_bad_response', async (link) => {
    const res = await deeplinkAnswering(link);
    await expectRefusal(res, 502, 'portal_bad_response');
    expect(logs.errors()).toContainEqual(
      expect.objectContaining({ error: 'portal_bad_response', call: 'deeplink' }),
    );
  });
});
