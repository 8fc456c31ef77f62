import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type {
  AdCostsAnswer,
  AdCostsImportedAnswer,
  AdCostsInvalidAnswer,
} from '../../../shared/console-api/ad-costs';
import { CONSOLE_API } from '../../../shared/console-api/config';
import {
  CONSOLE_TOKENS_API,
  type TokenCreatedAnswer,
  type TokenScope,
} from '../../../shared/console-api/tokens';
import { LOCAL_AUTHOR } from '../../../worker/access/console-access';
import { readAdCosts } from '../../../worker/ad-costs/ad-costs';
import { USD_PER_UNIT } from '../../../worker/experiments/results/reporting-currency';
import { freshApp } from '../fetch-app';

/**
 * The ad costs (shared/console-api/ad-costs.ts) through the console against the real D1: a file
 * or a tool's JSON imported all or none, read back in the reporting currency, replaced by a
 * re-upload, and written only by a person or a token allowed traffic and money.
 */

const NOW = Date.parse('2026-11-20T12:00:00Z');
const fetchApp = freshApp({ now: () => NOW });

const SAME_ORIGIN = { 'Sec-Fetch-Site': 'same-origin' };
const CSV = { 'Content-Type': 'text/csv' };
const JSON_BODY = { 'Content-Type': 'application/json' };

const upload = (text: string, headers: Record<string, string> = SAME_ORIGIN) =>
  fetchApp(CONSOLE_API.adCosts, { method: 'POST', headers: { ...CSV, ...headers }, body: text });

const read = async (from: string, to: string) => {
  const answer = await fetchApp(`${CONSOLE_API.adCosts}?from=${from}&to=${to}`);
  expect(answer.status).toBe(200);
  return (await answer.json()) as AdCostsAnswer;
};

const stored = async () =>
  (await env.CONFIG_DB.prepare('SELECT COUNT(*) AS n FROM ad_costs').first<number>('n')) ?? 0;

async function makeToken(name: string, scopes: TokenScope[]) {
  const made = await fetchApp(CONSOLE_TOKENS_API.tokens, {
    method: 'POST',
    headers: { ...SAME_ORIGIN, ...JSON_BODY },
    body: JSON.stringify({ name, scopes }),
  });
  expect(made.status).toBe(201);
  return ((await made.json()) as TokenCreatedAnswer).secret;
}

const FILE = [
  'day,source,campaign,currency,amount',
  '2026-11-02,meta,"Spring, DE",EUR,120.50',
  '2026-11-02,tiktok,,USD,80',
  '2026-11-03,google,brand,EUR,0.99',
].join('\r\n');

beforeEach(async () => {
  await env.CONFIG_DB.exec('DELETE FROM ad_costs');
  await env.CONFIG_DB.exec('DELETE FROM console_tokens');
  vi.spyOn(console, 'log').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

describe('importing ad costs', () => {
  it('takes a CSV in EUR and USD and reads it back converted to cents at the dated rates', async () => {
    const answer = await upload(FILE);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ ok: true, imported: 3, replaced: 0 });

    const costs = await read('2026-11-01', '2026-11-30');
    expect(costs).toMatchObject({ ok: true, reportingCurrency: 'USD', ratesDate: '2026-11-02' });
    expect(costs.rows).toEqual([
      {
        day: '2026-11-02',
        source: 'meta',
        campaign: 'Spring, DE',
        currency: 'EUR',
        amountMinor: 12050,
        amount: '120.50',
        reportingMinor: Math.round(120.5 * USD_PER_UNIT.EUR * 100),
      },
      {
        day: '2026-11-02',
        source: 'tiktok',
        campaign: '',
        currency: 'USD',
        amountMinor: 8000,
        amount: '80.00',
        reportingMinor: 8000,
      },
      {
        day: '2026-11-03',
        source: 'google',
        campaign: 'brand',
        currency: 'EUR',
        amountMinor: 99,
        amount: '0.99',
        reportingMinor: Math.round(0.99 * USD_PER_UNIT.EUR * 100),
      },
    ]);
    // The funnel report's read: both days included, in order.
    expect(await readAdCosts(env.CONFIG_DB, '2026-11-02', '2026-11-02')).toEqual([
      {
        day: '2026-11-02',
        source: 'meta',
        campaign: 'Spring, DE',
        currency: 'EUR',
        amountMinor: 12050,
      },
      { day: '2026-11-02', source: 'tiktok', campaign: '', currency: 'USD', amountMinor: 8000 },
    ]);
    const who = await env.CONFIG_DB.prepare(
      'SELECT DISTINCT uploaded_by, uploaded_at FROM ad_costs',
    ).all();
    expect(who.results).toEqual([{ uploaded_by: LOCAL_AUTHOR, uploaded_at: NOW }]);
  });

  it('replaces a day, source and campaign uploaded again, and keeps the rest', async () => {
    await upload(FILE);
    const again = await upload(
      'day,source,campaign,currency,amount\n2026-11-02,meta,"Spring, DE ",GBP,10\n2026-11-04,meta,,JPY,5000\n',
    );
    expect(await again.json()).toEqual({ ok: true, imported: 2, replaced: 1 });
    const rows = (await read('2026-11-01', '2026-11-30')).rows;
    expect(
      rows.map(({ day, source, campaign, currency, amount }) => [
        day,
        source,
        campaign,
        currency,
        amount,
      ]),
    ).toEqual([
      ['2026-11-02', 'meta', 'Spring, DE', 'GBP', '10.00'],
      ['2026-11-02', 'tiktok', '', 'USD', '80.00'],
      ['2026-11-03', 'google', 'brand', 'EUR', '0.99'],
      ['2026-11-04', 'meta', '', 'JPY', '5000'],
    ]);
    // The same file twice is the same costs.
    expect(await (await upload(FILE)).json()).toEqual({ ok: true, imported: 3, replaced: 3 });
    expect(await stored()).toBe(4);
  });

  it('refuses a bad file whole, each problem with its line, and writes nothing', async () => {
    const bad = [
      'day,source,campaign,currency,amount',
      '2026-11-02,meta,a,EUR,10',
      '2026-11-02,meta,b,NOK,10',
      '2026-13-01,meta,c,EUR,10',
      '2026-11-02,meta,d,EUR,-5',
      '2026-11-02,meta,e,EUR,1.234',
      '2026-11-02,meta,a,USD,3',
    ].join('\n');
    const answer = await upload(bad);
    expect(answer.status).toBe(400);
    const body = (await answer.json()) as AdCostsInvalidAnswer;
    expect(body).toMatchObject({ ok: false, error: 'invalid_ad_costs', more: 0 });
    expect(body.errors.map(({ line, field }) => [line, field])).toEqual([
      [3, 'currency'],
      [4, 'day'],
      [5, 'amount'],
      [6, 'amount'],
      [7, null],
    ]);
    expect(body.errors[0]?.message).toContain('"NOK" has no reporting rate');
    expect(body.errors[4]?.message).toContain('repeats line 2');

    const noAmount = await upload('day,source,campaign,currency\n2026-11-02,meta,a,EUR\n');
    expect(noAmount.status).toBe(400);
    expect(((await noAmount.json()) as AdCostsInvalidAnswer).errors).toEqual([
      {
        line: 1,
        field: 'amount',
        message:
          'Line 1, amount: the header has no amount column: it needs day,source,campaign,currency,amount',
      },
    ]);
    expect(await stored()).toBe(0);
  });

  it('takes the documented JSON call, by the same rules', async () => {
    const rows = [
      { day: '2026-11-05', source: 'meta', campaign: 'Spring, DE', currency: 'CHF', amount: '12' },
      { day: '2026-11-05', source: 'organic', currency: 'USD', amount: '0' },
    ];
    const answer = await fetchApp(CONSOLE_API.adCosts, {
      method: 'POST',
      headers: { ...SAME_ORIGIN, ...JSON_BODY },
      body: JSON.stringify({ rows }),
    });
    expect(await answer.json()).toEqual({
      ok: true,
      imported: 2,
      replaced: 0,
    } satisfies AdCostsImportedAnswer);
    expect((await read('2026-11-05', '2026-11-05')).rows.map((row) => row.amountMinor)).toEqual([
      1200, 0,
    ]);

    const refused = await fetchApp(CONSOLE_API.adCosts, {
      method: 'POST',
      headers: { ...SAME_ORIGIN, ...JSON_BODY },
      body: JSON.stringify({ rows: [{ ...rows[0], day: '2026-11-06', amount: '1.5.0' }] }),
    });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as AdCostsInvalidAnswer).errors).toEqual([
      expect.objectContaining({ line: 1, field: 'amount' }),
    ]);
    // Not an import at all: no rows, or another body.
    for (const body of ['{"costs":[]}', '[1]', 'not json']) {
      const answer = await fetchApp(CONSOLE_API.adCosts, {
        method: 'POST',
        headers: { ...SAME_ORIGIN, ...JSON_BODY },
        body,
      });
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({ ok: false, error: 'bad_request' });
    }
    expect(await stored()).toBe(2);
  });

  it('takes 5,000 rows in one upload beyond the config calls’ body size, and no more than 1 MB', async () => {
    const campaign = 'c'.repeat(70);
    const lines = Array.from({ length: 5000 }, (_, index) => {
      const day = new Date(Date.parse('2026-01-01T00:00:00Z') + (index % 300) * 86_400_000);
      return `${day.toISOString().slice(0, 10)},meta,${campaign}${Math.floor(index / 300)},EUR,1.25`;
    });
    const file = ['day,source,campaign,currency,amount', ...lines].join('\n');
    expect(file.length).toBeGreaterThan(400 * 1024);
    expect(await (await upload(file)).json()).toEqual({ ok: true, imported: 5000, replaced: 0 });
    expect(await stored()).toBe(5000);
    const tooLarge = await upload(`${file}\n${'x'.repeat(1024 * 1024)}`);
    expect(tooLarge.status).toBe(413);
  });

  it('deletes one row, and says when there is none', async () => {
    await upload(FILE);
    const path = `${CONSOLE_API.adCosts}?day=2026-11-02&source=tiktok`;
    const deleted = await fetchApp(path, { method: 'DELETE', headers: SAME_ORIGIN });
    expect(await deleted.json()).toEqual({ ok: true });
    const again = await fetchApp(path, { method: 'DELETE', headers: SAME_ORIGIN });
    expect(again.status).toBe(404);
    expect(await again.json()).toEqual({ ok: false, error: 'unknown_ad_cost' });
    const named = `${CONSOLE_API.adCosts}?day=2026-11-02&source=meta&campaign=${encodeURIComponent(' Spring, DE')}`;
    expect((await fetchApp(named, { method: 'DELETE', headers: SAME_ORIGIN })).status).toBe(200);
    expect(await stored()).toBe(1);
  });
});

describe('who may import', () => {
  it('refuses a POST from another site, and reads only ranges of a known length', async () => {
    const elsewhere: Record<string, string>[] = [
      { 'Sec-Fetch-Site': 'cross-site' },
      { Origin: 'https://evil.test' },
      {},
    ];
    for (const headers of elsewhere) {
      const answer = await upload(FILE, headers);
      expect(answer.status).toBe(403);
      expect(await answer.json()).toEqual({ ok: false, error: 'cross_origin' });
    }
    // A form's content type is no import, even from the console's own page.
    const form = await fetchApp(CONSOLE_API.adCosts, {
      method: 'POST',
      headers: { ...SAME_ORIGIN, 'Content-Type': 'text/plain' },
      body: FILE,
    });
    expect(form.status).toBe(415);
    expect(await stored()).toBe(0);
    for (const query of [
      'from=2026-11-01',
      'from=2026-11-02&to=2026-11-01',
      'from=2025-01-01&to=2026-02-05',
      'from=2026-02-30&to=2026-03-01',
    ]) {
      expect((await fetchApp(`${CONSOLE_API.adCosts}?${query}`)).status, query).toBe(400);
    }
    expect((await fetchApp(`${CONSOLE_API.adCosts}?from=2025-01-01&to=2026-02-04`)).status).toBe(
      200,
    );
  });

  it('lets a token read with read, and write only with traffic', async () => {
    const reader = await makeToken('reader', ['read', 'content']);
    const bearer = (secret: string) => ({ Authorization: `Bearer ${secret}` });
    const refused = await upload(FILE, bearer(reader));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ ok: false, error: 'token_scope' });
    const deleting = await fetchApp(`${CONSOLE_API.adCosts}?day=2026-11-02&source=meta`, {
      method: 'DELETE',
      headers: bearer(reader),
    });
    expect(deleting.status).toBe(403);
    expect(await stored()).toBe(0);

    const importer = await makeToken('cost-importer', ['read', 'traffic']);
    // A tool's call: its token, no browser headers.
    const imported = await upload(FILE, bearer(importer));
    expect(await imported.json()).toEqual({ ok: true, imported: 3, replaced: 0 });
    const who = await env.CONFIG_DB.prepare('SELECT DISTINCT uploaded_by FROM ad_costs').all();
    expect(who.results).toEqual([{ uploaded_by: 'token:cost-importer' }]);
    const readBack = await fetchApp(`${CONSOLE_API.adCosts}?from=2026-11-01&to=2026-11-30`, {
      headers: bearer(reader),
    });
    expect(((await readBack.json()) as AdCostsAnswer).rows).toHaveLength(3);
  });
});
