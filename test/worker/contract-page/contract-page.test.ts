import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { listDeclarations } from '../../../portal/store/listings';
import type { ContractRequest } from '../../../shared/api/contract-calls';
import { LIFECYCLE_PATH } from '../../../shared/api/lifecycle';
import { developmentKit } from '../../../worker/dev/kit';
import type { PortalFetch } from '../../../worker/portal-client/portal-call';
import { freshApp } from '../fetch-app';
import { freshStorage } from '../fresh-storage';
import { aBuyer, remember } from '../lifecycle/lifecycle-fixtures';
import { boughtWithLink, PAGE_APP } from '../subscriber-links/subscriber-fixtures';

/**
 * The contract page (`/contract/withdraw`, `/contract/cancel`, worker/contract-page/): the EU's
 * withdrawal function and Germany's cancellation button, without a login. A buyer's email and
 * order reference end the contract through the product API (a withdrawal within 14 days refunds
 * the first charge), which is asked to send the acknowledgement; the page shows it with the time.
 * An unknown email gets the same page; a bad form, a post from another site, a burst from one
 * address and a product API that is down are each refused, losing nothing.
 */

let logSpy: ReturnType<typeof vi.spyOn>;
beforeEach(async () => {
  await freshStorage();
  logSpy = vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

/** The contract page's calls the embedded portal received, and the lifecycle events it sent. */
function watchedPortal() {
  const declarations: { body: ContractRequest; key: string | null }[] = [];
  const events: string[] = [];
  const portalFetch: PortalFetch = async (request, bindings, ctx) => {
    if (new URL(request.url).pathname === '/contract-requests') {
      const body = (await request.clone().json()) as ContractRequest;
      declarations.push({ body, key: request.headers.get('idempotency-key') });
    }
    const hook = async (sent: Request) => {
      events.push(((await sent.json()) as { type: string }).type);
      return Response.json({ recorded: true });
    };
    return developmentKit.portal(request, { ...bindings, PORTAL_HOOK_FETCH: hook }, ctx);
  };
  return { portalFetch, declarations, events };
}

/** A form post of the page, from the page itself unless `site` says otherwise. */
function declare(
  fields: Record<string, string>,
  options: { site?: string; ip?: string; language?: string } = {},
): RequestInit {
  return {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'sec-fetch-site': options.site ?? 'same-origin',
      'accept-language': options.language ?? 'en',
      'cf-connecting-ip': options.ip ?? '203.0.113.20',
    },
    body: new URLSearchParams(fields).toString(),
  };
}

async function subscriptionRow(id: string) {
  return env.PORTAL_DB.prepare(
    'SELECT canceled_at, refunded_at, created_at FROM subscriptions WHERE id = ?',
  )
    .bind(id)
    .first<{ canceled_at: string | null; refunded_at: string | null }>();
}

async function keptDeclarations() {
  const { results } = await env.PORTAL_DB.prepare(
    'SELECT kind, outcome, subscription_id, statement, brand, language FROM contract_requests',
  ).all<{ kind: string; outcome: string; subscription_id: string | null; statement: string }>();
  return results;
}

/** The page's text without its tags, for what a reader sees. */
const textOf = (html: string) =>
  html
    .replace(/<style[\s\S]*?<\/style>|<script[\s\S]*?<\/script>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');

describe('the contract page in German, without a login', () => {
  it('offers "Vertrag widerrufen" with one "Widerruf bestätigen" asking only email, reference and an optional name', async () => {
    const fetchApp = freshApp();
    const page = await fetchApp('/contract/withdraw', { headers: { 'accept-language': 'de' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.getSetCookie()).toEqual([]);
    const html = await page.text();
    expect(html).toMatch(/<title>Vertrag widerrufen · Geozilla<\/title>/);
    expect(html).toContain('>Widerruf bestätigen</button>');
    const fields = [...html.matchAll(/<input[^>]*name="([^"]+)"/g)].map((match) => match[1]);
    expect(fields).toEqual(['declaration', 'email', 'reference', 'name']);
    expect(html).toMatch(/<label[^>]*for="name"[^>]*>Name \(optional\)<\/label>/);
    expect(html).not.toMatch(/<input[^>]*name="name"[^>]*required/);
    expect(html).not.toMatch(/type="password"/);
  });

  it('offers "Verträge hier kündigen": ordinary or extraordinary with its reason, then "jetzt kündigen"', async () => {
    const html = await (
      await freshApp()('/contract/cancel?theme=findo', { headers: { 'accept-language': 'de' } })
    ).text();
    expect(html).toMatch(/<title>Verträge hier kündigen · Findo<\/title>/);
    expect(html).toContain('>jetzt kündigen</button>');
    expect(html).toMatch(/<input type="radio" name="type" checked="" value="ordinary"/);
    expect(html).toMatch(/<input[^>]*type="radio"[^>]*value="extraordinary"/);
    expect(html).toContain('Grund (bei außerordentlicher Kündigung)');
    // Only Findo's name and addresses, the footer's links to this page in Findo's brand too.
    expect(html).not.toMatch(/Geozilla|geozilla\.com/);
    expect(html).toContain('href="/contract/withdraw?theme=findo"');
    // Posted in Findo's brand too, so the statement names Findo.
    expect(html).toContain('action="/contract/cancel?theme=findo"');
  });

  it('is linked from every funnel page’s footer in the page’s brand and language', async () => {
    const html = await (
      await freshApp()('/?theme=brainbloom', { headers: { 'accept-language': 'de' } })
    ).text();
    expect(html).toMatch(
      /<a[^>]*href="\/contract\/withdraw\?theme=brainbloom"[^>]*>Vertrag widerrufen<\/a>/,
    );
    expect(html).toMatch(
      /<a[^>]*href="\/contract\/cancel\?theme=brainbloom"[^>]*>Verträge hier kündigen<\/a>/,
    );
  });
});

describe('a buyer’s declaration', () => {
  it('withdraws within 14 days: the first charge refunded, the acknowledgement shown with its time and asked of the product API', async () => {
    const portal = watchedPortal();
    const fetchApp = freshApp({ portalFetch: portal.portalFetch }, PAGE_APP);
    const { email, subscriptionId } = await boughtWithLink(fetchApp);
    portal.events.length = 0;
    const before = Date.now();
    const answer = await fetchApp(
      '/contract/withdraw',
      declare(
        { email: email.toUpperCase(), reference: subscriptionId, name: 'Ann' },
        { language: 'de' },
      ),
    );
    expect(answer.status).toBe(200);
    const text = textOf(await answer.text());
    expect(text).toContain('Ihr Widerruf ist eingegangen');
    expect(text).toContain(
      `Hiermit widerrufe ich meinen Vertrag mit Geozilla, Bestellreferenz ${subscriptionId}.`,
    );
    expect(text).toMatch(/Eingegangen \d{1,2}\. \w+ 2\d{3} um \d{2}:\d{2} UTC/);
    expect(text).toContain(email.toUpperCase());
    // The portal refunded and ended it, and told the worker's hook so: counted as any cancellation.
    const row = await subscriptionRow(subscriptionId);
    expect(row?.refunded_at).not.toBeNull();
    expect(row?.canceled_at).not.toBeNull();
    expect(portal.events).toEqual(['refund', 'cancellation']);
    const [declared] = portal.declarations;
    expect(declared?.body).toMatchObject({
      kind: 'withdrawal',
      reference: subscriptionId,
      name: 'Ann',
      brand: 'geozilla',
      language: 'de',
    });
    expect(Date.parse(declared?.body.submitted_at ?? '')).toBeGreaterThanOrEqual(before - 1000);
    expect(await keptDeclarations()).toMatchObject([
      { kind: 'withdrawal', outcome: 'withdrawn', subscription_id: subscriptionId },
    ]);
  });

  it('is counted like any cancellation: the worker’s lifecycle hook takes the refund and the cancellation', async () => {
    // The development kit's portal, which tells this app's own hook, as the product API would.
    const fetchApp = freshApp({}, PAGE_APP);
    const { email, subscriptionId } = await boughtWithLink(fetchApp);
    await remember(aBuyer({ subscriptionId, paidMinor: 699 }));
    const before = logSpy.mock.calls.length;
    const answer = await fetchApp(
      '/contract/withdraw',
      declare({ email, reference: subscriptionId }),
    );
    expect(answer.status).toBe(200);
    const hookCalls = logSpy.mock.calls
      .slice(before)
      .map(([line]: unknown[]): Record<string, unknown> => {
        try {
          return JSON.parse(String(line)) as Record<string, unknown>;
        } catch {
          return {};
        }
      })
      .filter((line: Record<string, unknown>) => line.path === LIFECYCLE_PATH);
    expect(hookCalls).toMatchObject([
      { method: 'POST', status: 200 },
      { method: 'POST', status: 200 },
    ]);
  });

  it('after 14 days a withdrawal cancels without a refund; a cancellation stops the renewals', async () => {
    const portal = watchedPortal();
    const fetchApp = freshApp({ portalFetch: portal.portalFetch }, PAGE_APP);
    const late = await boughtWithLink(fetchApp);
    const twentyDaysAgo = new Date(Date.now() - 20 * 86_400_000).toISOString();
    await env.PORTAL_DB.prepare('UPDATE subscriptions SET created_at = ? WHERE id = ?')
      .bind(twentyDaysAgo, late.subscriptionId)
      .run();
    const withdrawn = await fetchApp(
      '/contract/withdraw',
      declare({ email: late.email, reference: late.subscriptionId }),
    );
    expect(withdrawn.status).toBe(200);
    expect((await subscriptionRow(late.subscriptionId))?.refunded_at).toBeNull();
    expect((await subscriptionRow(late.subscriptionId))?.canceled_at).not.toBeNull();

    const ongoing = await boughtWithLink(fetchApp);
    const canceled = await fetchApp(
      '/contract/cancel',
      declare(
        { email: ongoing.email, reference: ongoing.subscriptionId, type: 'ordinary' },
        { ip: '203.0.113.21' },
      ),
    );
    expect(textOf(await canceled.text())).toContain(
      `I cancel my contract with Geozilla, order reference ${ongoing.subscriptionId}, at the earliest possible date.`,
    );
    const row = await subscriptionRow(ongoing.subscriptionId);
    expect(row?.canceled_at).not.toBeNull();
    expect(row?.refunded_at).toBeNull();
    expect((await keptDeclarations()).map((kept) => kept.outcome)).toEqual([
      'canceled',
      'canceled',
    ]);
  });

  it('answers an unknown email, or another account’s reference, exactly as a match', async () => {
    const portal = watchedPortal();
    const fetchApp = freshApp({ portalFetch: portal.portalFetch }, PAGE_APP);
    const { email, subscriptionId } = await boughtWithLink(fetchApp);
    const pageFor = async (address: string, ip: string) => {
      const answer = await fetchApp(
        '/contract/cancel',
        declare({ email: address, reference: subscriptionId }, { ip }),
      );
      // Only what the visitor typed and the product API's number differ.
      const text = textOf(await answer.text())
        .replaceAll(address, '<email>')
        .replace(/ctr_[\w-]+/, '<number>')
        .replace(/Received [^U]+UTC/, 'Received <time>');
      return { status: answer.status, text };
    };
    const stranger = await pageFor('someone.else@example.test', '203.0.113.30');
    expect((await subscriptionRow(subscriptionId))?.canceled_at).toBeNull();
    const owner = await pageFor(email, '203.0.113.31');
    expect((await subscriptionRow(subscriptionId))?.canceled_at).not.toBeNull();
    expect(stranger).toEqual(owner);
    expect((await keptDeclarations()).map((kept) => kept.outcome)).toEqual([
      'not_matched',
      'canceled',
    ]);
  });

  it('answers a match and a stranger no sooner than the floor, so the time tells neither apart', async () => {
    const floorMs = 400;
    // The product API finds nothing fast and takes a while on a match (it cancels and emails).
    const portal = watchedPortal();
    const slowOnMatch: PortalFetch = async (request, bindings, ctx) => {
      const answer = await portal.portalFetch(request, bindings, ctx);
      if (new URL(request.url).pathname !== '/contract-requests') return answer;
      const { data } = (await answer.clone().json()) as { data: { outcome: string } };
      if (data.outcome !== 'not_matched') await new Promise((done) => setTimeout(done, 250));
      return answer;
    };
    const fetchApp = freshApp(
      { portalFetch: slowOnMatch, contractAnswerFloorMs: floorMs },
      PAGE_APP,
    );
    const { email, subscriptionId } = await boughtWithLink(fetchApp);
    const timed = async (address: string, ip: string) => {
      const started = performance.now();
      const answer = await fetchApp(
        '/contract/cancel',
        declare({ email: address, reference: subscriptionId }, { ip }),
      );
      expect(answer.status).toBe(200);
      return performance.now() - started;
    };
    expect(await timed('someone.else@example.test', '203.0.113.40')).toBeGreaterThanOrEqual(
      floorMs,
    );
    expect(await timed(email, '203.0.113.41')).toBeGreaterThanOrEqual(floorMs);
    expect((await keptDeclarations()).map((kept) => kept.outcome)).toEqual([
      'not_matched',
      'canceled',
    ]);
  });

  it('cancels as of the day the visitor names, and refuses a day past or far off', async () => {
    const portal = watchedPortal();
    const fetchApp = freshApp({ portalFetch: portal.portalFetch }, PAGE_APP);
    const form = await (
      await fetchApp('/contract/cancel', { headers: { 'accept-language': 'de' } })
    ).text();
    const today = new Date().toISOString().slice(0, 10);
    expect(form).toMatch(new RegExp(`<input[^>]*id="end_date"[^>]*type="date"[^>]*min="${today}"`));
    expect(form).toContain('Kündigen zum (optional)');
    const { email, subscriptionId } = await boughtWithLink(fetchApp);
    const day = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
    const fields = { email, reference: subscriptionId, type: 'ordinary' };
    const answer = await fetchApp(
      '/contract/cancel',
      declare({ ...fields, end_date: day }, { language: 'de' }),
    );
    expect(answer.status).toBe(200);
    const written = new Intl.DateTimeFormat('de', { dateStyle: 'long' }).format(new Date(day));
    expect(textOf(await answer.text())).toContain(
      `Bestellreferenz ${subscriptionId}, zum ${written}, hilfsweise zum nächstmöglichen Zeitpunkt danach.`,
    );
    expect(portal.declarations.at(-1)?.body.end_date).toBe(day);
    const kept = await env.PORTAL_DB.prepare('SELECT end_date FROM contract_requests').first();
    expect(kept).toEqual({ end_date: day });

    for (const refused of ['2020-01-01', '2999-01-01', '2026-02-30', 'soon']) {
      const again = await fetchApp(
        '/contract/cancel',
        declare({ ...fields, end_date: refused }, { ip: '203.0.113.60' }),
      );
      expect(again.status, refused).toBe(422);
      expect(await again.text()).toContain('Please choose a date from today on, within two years');
    }
    expect(portal.declarations).toHaveLength(1);
  });

  it('declares once when the confirm is pressed twice', async () => {
    const portal = watchedPortal();
    const fetchApp = freshApp({ portalFetch: portal.portalFetch }, PAGE_APP);
    const form = await (await fetchApp('/contract/withdraw')).text();
    const declaration = /name="declaration" value="([^"]+)"/.exec(form)?.[1] ?? '';
    const fields = { declaration, email: 'ann@example.test', reference: 'sub_unknown1' };
    const first = await fetchApp('/contract/withdraw', declare(fields));
    const second = await fetchApp('/contract/withdraw', declare(fields));
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(portal.declarations.map((sent) => sent.key)).toEqual([
      `contract:${declaration}`,
      `contract:${declaration}`,
    ]);
    expect(await keptDeclarations()).toHaveLength(1);
  });
});

describe('what the page refuses', () => {
  it('gives a bad form back with each field’s error and asks the product API nothing', async () => {
    const portal = watchedPortal();
    const fetchApp = freshApp({ portalFetch: portal.portalFetch });
    const answer = await fetchApp(
      '/contract/cancel',
      declare({ email: 'not-an-email', reference: 'sub 1; drop', type: 'extraordinary' }),
    );
    expect(answer.status).toBe(422);
    const html = await answer.text();
    expect(html).toContain('Please enter a valid email address');
    expect(html).toContain('An order reference has only letters, digits and _ - .');
    expect(html).toContain('Please give the reason for an extraordinary cancellation');
    expect(html).toMatch(
      /<input[^>]*id="email"[^>]*aria-invalid="true"[^>]*aria-describedby="email-error"/,
    );
    // What was typed stays in the form.
    expect(html).toContain('value="not-an-email"');
    expect(html).toMatch(/<input type="radio" name="type" checked="" value="extraordinary"/);
    expect(portal.declarations).toEqual([]);
  });

  it('refuses another site’s post, an oversized one and a burst from one address or for one email', async () => {
    const portal = watchedPortal();
    const fetchApp = freshApp({ portalFetch: portal.portalFetch });
    const fields = { email: 'ann@example.test', reference: 'sub_abc' };
    expect(
      (await fetchApp('/contract/withdraw', declare(fields, { site: 'cross-site' }))).status,
    ).toBe(403);
    const huge = { ...fields, reason: 'x'.repeat(20_000) };
    expect((await fetchApp('/contract/cancel', declare(huge))).status).toBe(413);
    expect(portal.declarations).toEqual([]);

    const fromOneAddress: number[] = [];
    for (let n = 0; n < 11; n += 1) {
      const each = { email: `person${n}@example.test`, reference: 'sub_abc' };
      fromOneAddress.push((await fetchApp('/contract/withdraw', declare(each))).status);
    }
    expect(fromOneAddress.slice(0, 10).every((status) => status === 200)).toBe(true);
    expect(fromOneAddress[10]).toBe(429);

    const forOneEmail: number[] = [];
    for (let n = 0; n < 6; n += 1) {
      const ip = `198.51.100.${n + 1}`;
      forOneEmail.push((await fetchApp('/contract/cancel', declare(fields, { ip }))).status);
    }
    expect(forOneEmail).toEqual([200, 200, 200, 200, 200, 429]);
    expect(portal.declarations).toHaveLength(15);
  });

  it('says nothing was sent when the product API is down, and names the support address', async () => {
    const down: PortalFetch = async () => new Response('down', { status: 503 });
    const fetchApp = freshApp({ portalFetch: down });
    const answer = await fetchApp(
      '/contract/withdraw',
      declare({ email: 'ann@example.test', reference: 'sub_abc' }),
    );
    expect(answer.status).toBe(503);
    const text = textOf(await answer.text());
    expect(text).toContain('Nothing was sent.');
    expect(text).toContain('support@geozilla.com');
  });
});

describe('“Email me a link to my subscription”', () => {
  async function linksKept() {
    const { results } = await env.PORTAL_DB.prepare(
      'SELECT email, subscription_id, manage_url, brand, language FROM link_requests',
    ).all<{ subscription_id: string | null; manage_url: string | null }>();
    return results;
  }

  it('emails the buyer a day-long manage link in the page’s brand; an unknown address reads the same page', async () => {
    const fetchApp = freshApp({}, PAGE_APP);
    const { email, subscriptionId } = await boughtWithLink(fetchApp);
    const form = await (
      await fetchApp('/contract/link?theme=findo', { headers: { 'accept-language': 'de' } })
    ).text();
    const fields = [...form.matchAll(/<input[^>]*name="([^"]+)"/g)].map((match) => match[1]);
    expect(fields).toEqual(['declaration', 'email']);
    expect(form).toContain('action="/contract/link?theme=findo"');

    const pageFor = async (address: string, ip: string) => {
      const answer = await fetchApp(
        '/contract/link?theme=findo',
        declare({ email: address }, { ip, language: 'de' }),
      );
      return {
        status: answer.status,
        text: textOf(await answer.text()).replaceAll(address, '<email>'),
      };
    };
    const owner = await pageFor(email, '203.0.113.40');
    const stranger = await pageFor('nobody@example.test', '203.0.113.41');
    expect(owner).toEqual(stranger);
    expect(owner.text).toContain('Sehen Sie in Ihr Postfach');
    expect(owner.text).toContain('Der Link gilt 24 Stunden.');

    // What `npm run portal -- declarations` lists of them.
    expect(await listDeclarations(env.PORTAL_DB)).toMatchObject([
      { kind: 'link', subscription_id: subscriptionId, outcome: 'emailed', brand: 'findo' },
      { kind: 'link', email: 'nobody@example.test', outcome: 'not_matched' },
    ]);
    const kept = await linksKept();
    expect(kept).toMatchObject([
      { subscription_id: subscriptionId, brand: 'findo', language: 'de' },
      { email: 'nobody@example.test', subscription_id: null, manage_url: null },
    ]);
    // The link the product API emails opens the subscription in Findo's brand, for a day only.
    const url = new URL(kept[0]?.manage_url ?? '');
    expect(url.pathname).toMatch(/^\/subscription\/manage\.[^.]+\.(\d+)\.[0-9a-f]+\.findo~de\./);
    const expiresAt = Number(url.pathname.split('.')[2]);
    expect(expiresAt * 1000 - Date.now()).toBeGreaterThan(23 * 3600_000);
    expect(expiresAt * 1000 - Date.now()).toBeLessThanOrEqual(24 * 3600_000);
    const opened = await fetchApp(url.pathname, { headers: { 'accept-language': 'en' } });
    expect(opened.status).toBe(200);
    const page = await opened.text();
    // An English browser, the page in the link's language and brand.
    expect(page).toMatch(/^<!doctype html><html lang="de"/);
    expect(page).toMatch(/<title>[^<]+ · Findo<\/title>/);
  });

  it('asks the product API once per allowed request: a double press once, the fourth for one email an hour refused', async () => {
    const portal = watchedPortal();
    const asked: string[] = [];
    const counting: PortalFetch = (request, bindings, ctx) => {
      if (new URL(request.url).pathname === '/subscriber-link-requests') {
        asked.push(request.headers.get('idempotency-key') ?? '');
      }
      return portal.portalFetch(request, bindings, ctx);
    };
    const fetchApp = freshApp({ portalFetch: counting });
    const form = await (await fetchApp('/contract/link')).text();
    const declaration = /name="declaration" value="([^"]+)"/.exec(form)?.[1] ?? '';
    const fields = { declaration, email: 'ann@example.test' };
    await fetchApp('/contract/link', declare(fields));
    await fetchApp('/contract/link', declare(fields));
    expect(await linksKept()).toHaveLength(1);
    const statuses = [];
    for (let n = 0; n < 2; n += 1) {
      const ip = `198.51.100.${n + 20}`;
      statuses.push(
        (await fetchApp('/contract/link', declare({ email: 'ann@example.test' }, { ip }))).status,
      );
    }
    expect(statuses).toEqual([200, 429]);
    // Four posts got through the limits, the fourth for that email refused before any call.
    expect(asked).toHaveLength(3);
    expect(asked[0]).toBe(`link:${declaration}`);
    expect(asked[1]).toBe(`link:${declaration}`);
  });

  it('is offered on the contract page and on a link that no longer opens', async () => {
    const fetchApp = freshApp();
    const withdraw = await (await fetchApp('/contract/withdraw?theme=findo')).text();
    expect(withdraw).toMatch(
      /<a href="\/contract\/link\?theme=findo">Lost your receipt\? Email me a link to my subscription<\/a>/,
    );
    const expired = await fetchApp('/subscription/manage.c3ViXzE.1.00.sig', {
      headers: { 'accept-language': 'en' },
    });
    const html = await expired.text();
    expect(html).toMatch(
      /<a[^>]*href="\/contract\/link\?theme=geozilla"[^>]*>Email me a link to my subscription<\/a>/,
    );
  });
});
