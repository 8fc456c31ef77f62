import { reset } from 'cloudflare:test';
import { afterEach, describe, expect, it } from 'vitest';
import { freshApp, ORIGIN, setCookies } from './fetch-app';
import { islandProps, tagWith } from './page-html';

afterEach(() => reset());

const EN_INVALID =
  'This is not a valid phone number for the selected country. Please check it and try again.';
const DE_INVALID =
  'Diese Nummer ist für das gewählte Land ungültig. Bitte prüfe sie und versuche es noch einmal.';
const EN_EMPTY = 'Please enter the phone number you want to locate.';

/** The landing's phone form as a browser posts it without script, from our own page. */
function postPhone(
  fields: Record<string, string>,
  headers: Record<string, string> = {},
  path = '/one_pager?skip_split=true&gclid=x',
) {
  return freshApp()(path, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: ORIGIN, 'sec-fetch-site': 'same-origin', ...headers },
    body: new URLSearchParams(fields),
  });
}

describe('the landing phone form without script (SPEC.md §2)', () => {
  it('refuses phone=abc: the landing again, the English error tied to the field, text kept', async () => {
    const res = await postPhone({ phone: 'abc', country: 'GB' });
    expect(res.status).toBe(422);
    expect(res.headers.get('location')).toBeNull();
    expect(res.headers.get('content-security-policy')).toMatch(/'nonce-[^']+'/);
    const html = await res.text();
    expect(html).toContain('<html lang="en"');
    expect(html).toMatch(/<script type="module" nonce="[^"]+">/);
    const input = tagWith(html, 'name="phone"');
    expect(input).toContain('value="abc"');
    expect(input).toContain('aria-invalid="true"');
    const describedBy = /aria-describedby="([^"]+)"/.exec(input)?.[1];
    expect(html).toContain(
      `<p id="${describedBy}" class="phone-form__error" role="alert">${EN_INVALID}</p>`,
    );
    expect(html).toMatch(/<option value="GB" selected="">/);
    // The island hydrates with the same refusal, so the page does not change under the visitor.
    expect(islandProps(html, 'PhoneForm').refused).toEqual({
      value: 'abc',
      country: 'GB',
      refusal: 'invalid',
    });
    expect(setCookies(res).has('gf_phone')).toBe(false);
  });

  it('refuses in the visitor language: German text for a German browser', async () => {
    const res = await postPhone({ phone: '12', country: 'DE' }, { 'accept-language': 'de-DE,de' });
    expect(res.status).toBe(422);
    const html = await res.text();
    expect(html).toContain('<html lang="de"');
    expect(html).toContain(DE_INVALID);
    expect(html).not.toContain(EN_INVALID);
    expect(tagWith(html, 'name="phone"')).toContain('value="12"');
  });

  it('refuses an empty or missing number with the empty-field message', async () => {
    const bodies: Record<string, string>[] = [{ phone: '  ', country: 'US' }, { country: 'US' }];
    for (const fields of bodies) {
      const res = await postPhone(fields);
      expect(res.status).toBe(422);
      const html = await res.text();
      expect(html).toContain(EN_EMPTY);
      expect(tagWith(html, 'name="phone"')).toContain('aria-invalid="true"');
    }
  });

  it('accepts a valid number: 303 to the next screen with the query, the number in a cookie', async () => {
    const res = await postPhone({ phone: '07400 123456', country: 'GB' });
    expect(res.status).toBe(303);
    const location = res.headers.get('location') ?? '';
    expect(location).toBe('/searching?skip_split=true&gclid=x');
    // Not in the URL, where the tracker's page URL and the ad pixels would read it.
    expect(location).not.toContain('7400');
    const cookie = res.headers.getSetCookie().find((line) => line.startsWith('gf_phone='));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    // The searching screen prefetched before the post, without the number, is not shown.
    expect(res.headers.get('clear-site-data')).toBe('"prefetchCache", "prerenderCache"');

    // The searching screen shows the number at once, hands it to its island, and clears it.
    const next = await freshApp()(location, {
      headers: { cookie: `gf_phone=${setCookies(res).get('gf_phone')}` },
    });
    expect(next.status).toBe(200);
    const html = await next.text();
    expect(html).toContain('+44 7400 123456');
    expect(islandProps(html, 'SearchProgress').posted).toEqual({
      phone: '+447400123456',
      phoneDisplay: '+44 7400 123456',
      country: 'GB',
    });
    expect(setCookies(next).get('gf_phone')).toBe('');
  });

  it('a prefetch of the searching screen leaves the carried number for the real visit', async () => {
    const res = await freshApp()('/searching', {
      headers: { cookie: 'gf_phone=GB:%2B447400123456', 'sec-purpose': 'prefetch' },
    });
    expect(islandProps(await res.text(), 'SearchProgress').posted).toBeUndefined();
    expect(setCookies(res).has('gf_phone')).toBe(false);
  });

  it('ignores a cookie that does not hold a valid number', async () => {
    const res = await freshApp()('/searching', { headers: { cookie: 'gf_phone=GB:%2B123' } });
    expect(islandProps(await res.text(), 'SearchProgress').posted).toBeUndefined();
  });

  it('refuses a post from another site', async () => {
    const res = await postPhone(
      { phone: '07400123456', country: 'GB' },
      { origin: 'https://evil.test', 'sec-fetch-site': 'cross-site' },
    );
    expect(res.status).toBe(403);
    expect(setCookies(res).has('gf_phone')).toBe(false);
  });

  it('refuses a huge body with 413 and a body that is no form with 415', async () => {
    const huge = await postPhone({ phone: '1'.repeat(100_000), country: 'GB' });
    expect(huge.status).toBe(413);
    const json = await freshApp()('/one_pager', {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: ORIGIN, 'content-type': 'application/json' },
      body: JSON.stringify({ phone: '07400123456' }),
    });
    expect(json.status).toBe(415);
  });

  it('leaves the other screens Continue posts as they were', async () => {
    const res = await freshApp()('/searching?a=1', {
      method: 'POST',
      redirect: 'manual',
      headers: { origin: 'https://evil.test' },
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/signup?a=1');
  });
});
