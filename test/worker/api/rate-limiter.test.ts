import { reset, runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it } from 'vitest';
import { addressSubject, numberPrefix } from '../../../worker/rate-limits/rate-limit-gate';
import { decide, type RateRule } from '../../../worker/rate-limits/rate-limiter';

afterEach(() => reset());

const RULE: RateRule = { limit: 3, windowMs: 60_000 };

/** Runs hits through decide() the way the Durable Object does, keeping its stored hits. */
function counter(rule = RULE) {
  let hits: Parameters<typeof decide>[0] = [];
  return (now: number, member: string) => {
    const result = decide(hits, rule, now, member);
    hits = result.hits;
    return result.decision;
  };
}

describe('decide (sliding window)', () => {
  it('allows up to the limit, then refuses until the oldest hit leaves the window', () => {
    const hit = counter();
    expect([hit(0, 'a'), hit(10_000, 'b'), hit(20_000, 'c')].map((d) => d.allowed)).toEqual([
      true,
      true,
      true,
    ]);
    expect(hit(30_000, 'd')).toEqual({ allowed: false, retryAfterSeconds: 30 });
    expect(hit(59_999, 'd')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(hit(60_000, 'd')).toEqual({ allowed: true, retryAfterSeconds: 0 });
  });

  it('counts a repeated member once: the same number looked up again is free', () => {
    const hit = counter();
    for (let at = 0; at < 10; at++) expect(hit(at * 1_000, 'same').allowed).toBe(true);
    expect(hit(11_000, 'b').allowed).toBe(true);
    expect(hit(12_000, 'c').allowed).toBe(true);
    expect(hit(13_000, 'd').allowed).toBe(false);
    // A counted member is still allowed while the others are refused.
    expect(hit(14_000, 'same').allowed).toBe(true);
  });

  it('does not count refused hits, so a client that keeps trying is let in after the window', () => {
    const hit = counter({ limit: 1, windowMs: 1_000 });
    expect(hit(0, 'a').allowed).toBe(true);
    for (let at = 100; at < 1_000; at += 100) expect(hit(at, `x${at}`).allowed).toBe(false);
    expect(hit(1_000, 'y').allowed).toBe(true);
  });

  it('never tells a refused client to retry in less than a second', () => {
    const hit = counter({ limit: 1, windowMs: 1_000 });
    hit(0, 'a');
    expect(hit(999.5, 'b')).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });
});

describe('RateLimiter Durable Object', () => {
  it('keeps the count across calls, and forgets the key at its alarm', async () => {
    const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName('test:key'));
    const rule = { limit: 2, windowMs: 60_000 };
    expect((await stub.hit(rule)).allowed).toBe(true);
    expect((await stub.hit(rule)).allowed).toBe(true);
    const refused = await stub.hit(rule);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBeGreaterThan(55);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await runInDurableObject(stub, (_, state) => state.storage.get('hits'))).toBeUndefined();
    expect((await stub.hit(rule)).allowed).toBe(true);
  });

  it('counts a member once', async () => {
    const stub = env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName('test:members'));
    const rule = { limit: 1, windowMs: 60_000 };
    expect((await stub.hit(rule, '+15551234567')).allowed).toBe(true);
    expect((await stub.hit(rule, '+15551234567')).allowed).toBe(true);
    expect((await stub.hit(rule, '+15551234568')).allowed).toBe(false);
  });
});

describe('counter keys', () => {
  it('a number prefix is its E.164 form without the last three digits', () => {
    expect(numberPrefix('+15551234567')).toBe('+15551234');
    expect(numberPrefix('+15551234000')).toBe(numberPrefix('+15551234999'));
  });

  it.each([
    ['203.0.113.7', '203.0.113.7'],
    [' 203.0.113.7 ', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:85a3:1:8a2e:370:7334:1', '2001:db8:85a3:1::/64'],
    ['2001:0DB8:85a3:0001::1', '2001:db8:85a3:1::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    [undefined, 'unknown'],
    ['', 'unknown'],
  ])('%s counts as %s', (ip, subject) => {
    expect(addressSubject(ip)).toBe(subject);
  });

  it('addresses of one IPv6 /64 share a counter', () => {
    expect(addressSubject('2001:db8:1:2:aaaa::1')).toBe(addressSubject('2001:db8:1:2:bbbb::2'));
    expect(addressSubject('2001:db8:1:2::1')).not.toBe(addressSubject('2001:db8:1:3::1'));
  });
});
