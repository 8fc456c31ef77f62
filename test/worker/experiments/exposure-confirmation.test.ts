import { describe, expect, it } from 'vitest';
import {
  confirmVisitorExposures,
  recordVisitorExposures,
} from '../../../worker/experiments/exposure/exposure-store';
import { NOW } from '../collector/fixtures';
import { exposureTicketIn, freshApp, ORIGIN } from '../fetch-app';
import {
  aBrowser,
  countedShards,
  exposureOf,
  funnel,
  SEGMENTS,
  startEachTestAfresh,
  stores,
  totalsOf,
} from './experiment-fixtures';

/**
 * An exposure counts only once its visitor's page script has sent back the page's signed ticket
 * (worker/collector/exposure-confirmation-route.ts): ids minted by a script that only loads pages
 * count in no arm, and are shown apart as `unconfirmed`.
 */

startEachTestAfresh();

/** A landing loaded by a client that runs no script: the page and its ticket. */
async function pageOnly(fetchApp: ReturnType<typeof freshApp>) {
  const visitor = aBrowser(fetchApp, new Map(), { script: false });
  const page = await visitor.get('/');
  expect(page.status).toBe(200);
  const ticket = exposureTicketIn(page.body);
  expect(ticket).not.toBeNull();
  return { visitor, ticket: ticket ?? '' };
}

describe('an exposure confirmed by its page script', () => {
  it('a visitor whose page script never answers adds nothing to exposed, and shows as unconfirmed', async () => {
    const { fetchApp } = funnel();
    await pageOnly(fetchApp);
    await pageOnly(fetchApp);
    const [arm] = (await totalsOf(1)).arms;
    expect(arm).toMatchObject({ variant: 'default', exposed: 0, unconfirmed: 2 });
  });

  it('counts a confirmed visitor once, however often the ticket comes back', async () => {
    const { fetchApp } = funnel();
    const { visitor, ticket } = await pageOnly(fetchApp);
    expect(await exposureOf(visitor.visitorId())).toBeNull();
    for (let sent = 0; sent < 3; sent++) expect(await visitor.confirm(ticket)).toBe(204);
    expect(await exposureOf(visitor.visitorId())).toMatchObject({ variant: 'default' });
    const [arm] = (await totalsOf(1)).arms;
    expect(arm).toMatchObject({ variant: 'default', exposed: 1, unconfirmed: 0 });
  });

  it('a forged, expired or another visitor’s ticket confirms nothing', async () => {
    const { fetchApp } = funnel();
    const { visitor, ticket } = await pageOnly(fetchApp);
    const other = await pageOnly(fetchApp);
    const forged = `${ticket.slice(0, -4)}AAAA`;
    expect(await visitor.confirm(forged)).toBe(403);
    expect(await visitor.confirm('')).toBe(403);
    // The other visitor's own ticket, sent with this visitor's cookie.
    expect(await visitor.confirm(other.ticket)).toBe(403);
    // Its own ticket, two hours after its page was served.
    const late = aBrowser(freshApp({ now: () => NOW + 2 * 60 * 60_000 }), visitor.cookies);
    expect(await late.confirm(ticket)).toBe(403);
    const [arm] = (await totalsOf(1)).arms;
    expect(arm).toMatchObject({ exposed: 0, unconfirmed: 2 });
  });

  it('refuses a ticket from another site or without the visitor’s cookie', async () => {
    const { fetchApp } = funnel();
    const { ticket } = await pageOnly(fetchApp);
    const crossSite = await fetchApp('/e/exposure', {
      method: 'POST',
      body: ticket,
      headers: { 'content-type': 'text/plain', 'sec-fetch-site': 'cross-site', origin: ORIGIN },
    });
    expect(crossSite.status).toBe(403);
    expect(await crossSite.json()).toMatchObject({ error: 'cross_site' });
    const cookieless = await aBrowser(fetchApp).confirm(ticket);
    expect(cookieless).toBe(400);
    expect((await totalsOf(1)).arms[0]).toMatchObject({ exposed: 0, unconfirmed: 1 });
  });

  it('takes 60 confirmations an hour from one address, then answers 429', async () => {
    const { fetchApp } = funnel();
    const { visitor, ticket } = await pageOnly(fetchApp);
    const from = { 'cf-connecting-ip': '203.0.113.77' };
    const send = () =>
      fetchApp('/e/exposure', {
        method: 'POST',
        body: ticket,
        headers: {
          'content-type': 'text/plain',
          origin: ORIGIN,
          'sec-fetch-site': 'same-origin',
          cookie: `userUuid=${visitor.visitorId()}`,
          ...from,
        },
      });
    for (let sent = 0; sent < 60; sent++) expect((await send()).status).toBe(204);
    const refused = await send();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect((await totalsOf(1)).arms[0]).toMatchObject({ exposed: 1, unconfirmed: 0 });
  });

  it('a page that exposes nobody carries no ticket', async () => {
    const { fetchApp } = funnel();
    const visitor = aBrowser(fetchApp);
    await visitor.get('/');
    // Pinned now: the landing again exposes them to nothing.
    const again = await visitor.get('/');
    expect(exposureTicketIn(again.body)).toBeNull();
    expect((await totalsOf(1)).arms[0]).toMatchObject({ exposed: 1, unconfirmed: 0 });
  });

  it('an unconfirmed visitor’s steps count nowhere; a confirmed one’s count', async () => {
    const { fetchApp, steps, consume } = funnel();
    const unconfirmed = await pageOnly(fetchApp);
    const confirmed = await pageOnly(fetchApp);
    expect(await confirmed.visitor.confirm(confirmed.ticket)).toBe(204);
    await steps.lookUp(unconfirmed.visitor);
    await steps.lookUp(confirmed.visitor, '+14155550199');
    await consume();
    const [arm] = (await totalsOf(1)).arms;
    expect(arm).toMatchObject({ exposed: 1, unconfirmed: 1, steps: { lookup: 1 } });
  });

  it('a confirmation that comes before its page’s exposures are written still counts them', async () => {
    const visitorId = crypto.randomUUID();
    const at = NOW - 1000;
    expect(await confirmVisitorExposures(stores, [{ visitorId, until: NOW }])).toBe(0);
    const exposure = {
      visitorId,
      experiment: 'split',
      phase: 1,
      variant: 'default',
      configVersion: 'v1',
      at,
      segments: SEGMENTS,
    };
    await recordVisitorExposures(stores, [exposure], { returning: false });
    // A later page's exposure, past what the confirmation covered, waits for its own.
    await recordVisitorExposures(stores, [{ ...exposure, experiment: 'later', at: NOW + 1 }], {
      returning: false,
    });
    expect((await totalsOf(1)).arms[0]).toMatchObject({ exposed: 1, unconfirmed: 0 });
    expect(await confirmVisitorExposures(stores, [{ visitorId, until: NOW + 1 }])).toBe(1);
  });

  it('costs one request to the visitor’s shard', async () => {
    const { shards, calls } = countedShards();
    const fetchApp = freshApp({ random: () => 0.2, now: () => NOW }, { EXPERIMENT_SHARDS: shards });
    const { visitor, ticket } = await pageOnly(fetchApp);
    expect(calls).toEqual(['recordExperimentExposures']);
    expect(await visitor.confirm(ticket)).toBe(204);
    expect(calls).toEqual(['recordExperimentExposures', 'confirmExposures']);
  });
});
