import { beforeEach, describe, expect, it } from 'vitest';
import { freshApp, ORIGIN, setCookies } from './fetch-app';
import { freshStorage } from './fresh-storage';
import { mainText, tagWith } from './page-html';

/**
 * The landing's and the signup's forms as a browser without script sends them: read from the
 * page the worker served (their method, address and named fields), filled, and posted as the
 * browser posts them. What the worker answers each post in every case is
 * test/worker/phone-form.test.ts's and signup-form.test.ts's; here, that the page's own form
 * leads there and what the visitor then sees.
 */

let app = freshApp();
beforeEach(async () => {
  // The embedded portal's tables, for the sign-up.
  await freshStorage();
  app = freshApp();
});

interface PageForm {
  method: string;
  action: string;
  fields: string[];
}

const unescaped = (value: string) => value.replaceAll('&amp;', '&');

/** The form holding the element whose tag contains `marker`, as a browser reads it. */
function formAround(html: string, marker: string): PageForm {
  const at = html.indexOf(marker);
  expect(at).toBeGreaterThan(-1);
  const start = html.lastIndexOf('<form', at);
  const form = html.slice(start, html.indexOf('</form>', at));
  const tag = form.slice(0, form.indexOf('>') + 1);
  return {
    method: /method="([^"]+)"/.exec(tag)?.[1] ?? 'get',
    action: unescaped(/action="([^"]+)"/.exec(tag)?.[1] ?? ''),
    fields: [...form.matchAll(/<(?:input|select|textarea)[^>]*name="([^"]+)"/g)].map(
      (match) => match[1] ?? '',
    ),
  };
}

/** The cookies a response set, as the browser sends them back. */
const cookieHeader = (...responses: Response[]) =>
  responses
    .flatMap((response) => [...setCookies(response)])
    .map(([name, value]) => `${name}=${value}`)
    .join('; ');

/** Posts `form` as the browser does from our page: its fields, typed, to its address. */
function submit(form: PageForm, typed: Record<string, string>, cookie: string) {
  expect(Object.keys(typed).every((name) => form.fields.includes(name))).toBe(true);
  return app(form.action, {
    method: form.method.toUpperCase(),
    redirect: 'manual',
    headers: { origin: ORIGIN, 'sec-fetch-site': 'same-origin', cookie },
    body: new URLSearchParams(typed),
  });
}

describe('the landing’s phone form without script (SPEC.md §2)', () => {
  it('refuses a bad number, keeping it and the country chosen; carries a good one to searching', async () => {
    const landing = await app('/one_pager?skip_split=true&gclid=nojs');
    const form = formAround(await landing.text(), 'name="phone"');
    expect(form).toMatchObject({ method: 'post', action: '/one_pager?skip_split=true&gclid=nojs' });
    expect(form.fields).toEqual(expect.arrayContaining(['phone', 'country']));
    const cookie = cookieHeader(landing);

    // Away from the visitor's default (the US), so the answer must keep the choice.
    const refused = await submit(form, { country: 'GB', phone: '07400 12345x' }, cookie);
    expect(refused.status).toBe(422);
    const html = await refused.text();
    expect(tagWith(html, 'name="phone"')).toContain('value="07400 12345x"');
    expect(html).toContain('not a valid phone number');
    expect(html).toMatch(/<option value="GB" selected="">/);
    // The short summary the select lies over, as the visitor reads it (React's text markers out).
    const summary = /<span class="phone-input__summary"[^>]*>(.*?)<\/span>/.exec(html)?.[1];
    expect(summary?.replaceAll('<!-- -->', '')).toBe('GB +44');
    // The refused page's form posts the same way again.
    expect(formAround(html, 'name="phone"')).toEqual(form);

    const carried = await submit(form, { country: 'GB', phone: '07400 123456' }, cookie);
    expect(carried.status).toBe(303);
    // The number travels in a cookie, not the address the tracker and the pixels read.
    const next = carried.headers.get('location') ?? '';
    expect(next).toBe('/searching?skip_split=true&gclid=nojs');
    const searching = await app(next, { headers: { cookie: cookieHeader(landing, carried) } });
    expect(await searching.text()).toContain('+44 7400 123456');
  });
});

describe('the signup form without script (SPEC.md §4 Signup)', () => {
  it('refuses an empty address, then signs up and moves on, signed in by an HttpOnly cookie', async () => {
    const signup = await app('/signup?gclid=nojs');
    const form = formAround(await signup.text(), 'name="email"');
    expect(form).toMatchObject({ method: 'post', action: '/signup?gclid=nojs' });
    expect(form.fields).toContain('email');
    const cookie = cookieHeader(signup);

    const empty = await submit(form, { email: '' }, cookie);
    expect(empty.status).toBe(422);
    const refusedHtml = await empty.text();
    expect(tagWith(refusedHtml, 'name="email"')).toContain('aria-invalid="true"');
    // Said once on the page, beside the field.
    expect(mainText(refusedHtml).match(/Please enter your email address/g)).toHaveLength(1);

    const signedUp = await submit(form, { email: 'nojs-form@example.com' }, cookie);
    expect(signedUp.status).toBe(303);
    const next = signedUp.headers.get('location') ?? '';
    expect(next).toBe('/checkout_v3_tr?gclid=nojs');
    const session = signedUp.headers.getSetCookie().find((line) => line.startsWith('gf_session='));
    expect(session).toMatch(/HttpOnly/);
    const checkout = await app(next, { headers: { cookie: cookieHeader(signup, signedUp) } });
    expect(await checkout.text()).toMatch(/<h1 id="screen-title">Choose your plan<\/h1>/);
  });
});
