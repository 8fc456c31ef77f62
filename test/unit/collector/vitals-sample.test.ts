import { describe, expect, it } from 'vitest';
import {
  DEFAULT_VITALS_SAMPLE_RATE,
  inVitalsSample,
  pageVitals,
  ticketPageView,
  VITALS_TICKET_TTL_MS,
  vitalsSampleRate,
} from '../../../worker/collector/vitals-sample';
import { shardOfVisitor } from '../../../worker/experiments/assignment/assign';
import { signCookie } from '../../../worker/signing';

const KEY = 'cookie-key-of-this-test';
const VISITOR = '8b0c5f0e-4a8e-4c47-9a8e-3d1c2b7e6f10';
const OTHER = '0f7a3c1e-92d4-4b6e-8a51-7c2d9e4b1a03';
const NOW = 1_790_000_000_000;
const NO_ARMS = () => [];

/** Random-looking v4 uuids, the same on every run. */
function uuids(count: number): string[] {
  let state = 12345;
  const hex = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state >>> 8).toString(16).padStart(6, '0');
  };
  return Array.from({ length: count }, () => {
    const digits = `${hex()}${hex()}${hex()}${hex()}${hex()}${hex()}`.slice(0, 32);
    return `${digits.slice(0, 8)}-${digits.slice(8, 12)}-4${digits.slice(13, 16)}-a${digits.slice(17, 20)}-${digits.slice(20)}`;
  });
}

async function sampled(visitors: readonly string[], rate: number, key = KEY): Promise<string[]> {
  const inside = await Promise.all(visitors.map((id) => inVitalsSample(key, id, rate)));
  return visitors.filter((_, n) => inside[n]);
}

/** A sampled page's ticket, served to `visitor` at `now`. */
async function ticket(visitor = VISITOR, now = NOW): Promise<string> {
  const vitals = await pageVitals({ rate: 1, key: KEY, now }, visitor, NO_ARMS);
  return vitals?.ticket ?? '';
}

describe('the field vitals sample', () => {
  it('takes a tenth of the page views by default, set by VITALS_SAMPLE_RATE from 0 to 1', () => {
    expect(vitalsSampleRate({})).toBe(DEFAULT_VITALS_SAMPLE_RATE);
    expect(DEFAULT_VITALS_SAMPLE_RATE).toBe(0.1);
    expect(vitalsSampleRate({ VITALS_SAMPLE_RATE: '0.25' })).toBe(0.25);
    expect(vitalsSampleRate({ VITALS_SAMPLE_RATE: '1' })).toBe(1);
    expect(vitalsSampleRate({ VITALS_SAMPLE_RATE: '0' })).toBe(0);
    expect(vitalsSampleRate({ VITALS_SAMPLE_RATE: '7' })).toBe(1);
    expect(vitalsSampleRate({ VITALS_SAMPLE_RATE: '-1' })).toBe(0);
    expect(vitalsSampleRate({ VITALS_SAMPLE_RATE: 'ten percent' })).toBe(0.1);
    expect(vitalsSampleRate({ VITALS_SAMPLE_RATE: '' })).toBe(0.1);
  });

  it('draws that share of visitors, within the binomial spread', async () => {
    // 4σ either side: at a tenth of 4 000 visitors, 400 give or take 76 (1.9 points).
    const visitors = uuids(4000);
    for (const rate of [0.1, 0.5]) {
      const taken = (await sampled(visitors, rate)).length;
      const spread = 4 * Math.sqrt(visitors.length * rate * (1 - rate));
      expect(Math.abs(taken - visitors.length * rate)).toBeLessThan(spread);
    }
    // Exact for each visitor, so a few show it.
    const few = visitors.slice(0, 200);
    expect(await sampled(few, 0)).toEqual([]);
    expect(await sampled(few, 1)).toEqual(few);
  });

  it('keeps a visitor in or out for good, whatever the letters’ case', async () => {
    for (const id of uuids(200)) {
      const first = await inVitalsSample(KEY, id, 0.1);
      expect(await inVitalsSample(KEY, id, 0.1)).toBe(first);
      expect(await inVitalsSample(KEY, id.toUpperCase(), 0.1)).toBe(first);
    }
  });

  it('a larger share keeps everyone a smaller one took', async () => {
    const visitors = await sampled(uuids(1000), 0.1);
    expect(await sampled(visitors, 0.3)).toEqual(visitors);
  });

  it('cannot be told from the id without the key: another key draws another tenth', async () => {
    const visitors = uuids(5000);
    const ours = new Set(await sampled(visitors, 0.1));
    const guessed = await sampled(visitors, 0.1, 'a-key-someone-guessed');
    const both = guessed.filter((id) => ours.has(id)).length;
    // As two independent tenths meet: a hundredth of the visitors, give or take 4σ.
    expect(Math.abs(both - 50)).toBeLessThan(4 * Math.sqrt(50));
  });

  it('is drawn apart from the experiment shards: every shard has about its tenth', async () => {
    const perShard = new Array<number>(64).fill(0);
    for (const id of await sampled(uuids(32_000), 0.1)) perShard[shardOfVisitor(id)]!++;
    // 50 expected per shard, σ about 7: all shards within 4.5σ of it.
    expect(Math.min(...perShard)).toBeGreaterThan(18);
    expect(Math.max(...perShard)).toBeLessThan(82);
  });

  it('hands a page its arms and a ticket only inside the sample, and works the arms out only then', async () => {
    let asked = 0;
    const arms = () => {
      asked++;
      return [{ experiment: 'landing-hero', variant: 'b' }];
    };
    const visitors = uuids(50);
    const inside = await sampled(visitors, 0.1);
    const notSampled = visitors.find((id) => !inside.includes(id))!;
    const draw = { rate: 0.1, key: KEY, now: NOW };
    expect(await pageVitals(draw, notSampled, arms)).toBeUndefined();
    expect(asked).toBe(0);
    expect(await pageVitals(draw, inside[0]!, arms)).toEqual({
      arms: { 'landing-hero': 'b' },
      ticket: expect.any(String),
    });
    expect(await pageVitals({ ...draw, rate: 0 }, inside[0]!, arms)).toBeUndefined();
    // Without a signing key no page could prove it was served: none is sampled.
    expect(await pageVitals({ ...draw, rate: 1, key: null }, inside[0]!, arms)).toBeUndefined();
  });
});

describe('a sampled page’s ticket', () => {
  it('names a page view of its own, for the visitor it was served to, whatever the id’s case', async () => {
    const first = await ticketPageView(KEY, VISITOR, await ticket(), NOW);
    const second = await ticketPageView(KEY, VISITOR, await ticket(), NOW);
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    expect(second).toMatch(/^[0-9a-f]{32}$/);
    expect(second).not.toBe(first);
    expect(await ticketPageView(KEY, VISITOR.toUpperCase(), await ticket(), NOW)).not.toBeNull();
  });

  it('is taken for a day after its page was served, and not before it', async () => {
    const served = await ticket(VISITOR, NOW);
    expect(await ticketPageView(KEY, VISITOR, served, NOW + VITALS_TICKET_TTL_MS)).not.toBeNull();
    expect(
      await ticketPageView(KEY, VISITOR, served, NOW + VITALS_TICKET_TTL_MS + 1000),
    ).toBeNull();
    expect(await ticketPageView(KEY, VISITOR, served, NOW - 10 * 60_000)).toBeNull();
  });

  it.each([
    ['another visitor’s', async () => ticket(OTHER)],
    [
      'one signed with another key',
      async () => {
        const vitals = await pageVitals(
          { rate: 1, key: 'another-key', now: NOW },
          VISITOR,
          NO_ARMS,
        );
        return vitals?.ticket;
      },
    ],
    [
      'one with its page view edited',
      async () => (await ticket()).replace(/^./, (c) => (c === 'a' ? 'b' : 'a')),
    ],
    [
      'one with its time moved',
      async () => (await ticket()).replace(/\.(\d+)\./, (_, s) => `.${Number(s) + 1}.`),
    ],
    // Signed with the same key for the same visitor, under a cookie's name.
    ['a signed cookie’s value', async () => signCookie(KEY, 'gf_variant', VISITOR, 'default')],
    ['made up', async () => '0123456789abcdef0123456789abcdef.1790000000.forged'],
    ['no text', async () => 42],
  ])('refuses %s', async (_, make) => {
    expect(await ticketPageView(KEY, VISITOR, await make(), NOW)).toBeNull();
  });
});
