import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeKeptRoute, encodeKeptRoute } from '../../worker/routing/router';
import { keysWithPrevious, signCookie, verifyCookie } from '../../worker/signing';

/**
 * The signed cookie values (worker/signing.ts): a value signed for one visitor and cookie
 * reads back for them only, and no change to it, or to its signature, passes.
 */

const KEY = 'a-test-key';
const ANNA = '3f0c4a8e-2b1d-4c5e-9f6a-7b8c9d0e1f2a';
const BEN = '9f8e7d6c-5b4a-4392-8817-161514131211';

describe('a signed cookie value', () => {
  it('reads back for the visitor, cookie and key it was signed for', async () => {
    const cookie = await signCookie(KEY, 'gf_route', ANNA, 'tiktok.1790000000');
    expect(cookie).toMatch(/^tiktok\.1790000000\.[\w-]{43}$/);
    expect(await verifyCookie(KEY, 'gf_route', ANNA, cookie)).toEqual({
      ok: true,
      value: 'tiktok.1790000000',
    });
  });

  it('does not for another visitor, another cookie or another key', async () => {
    const cookie = await signCookie(KEY, 'gf_route', ANNA, 'tiktok.1790000000');
    const refused = { ok: false, reason: 'bad_signature' };
    expect(await verifyCookie(KEY, 'gf_route', BEN, cookie)).toEqual(refused);
    expect(await verifyCookie(KEY, 'gf_touch', ANNA, cookie)).toEqual(refused);
    expect(await verifyCookie('another-key', 'gf_route', ANNA, cookie)).toEqual(refused);
  });

  it('a value without a signature of the right shape is unsigned', async () => {
    for (const cookie of [
      'tiktok',
      'split~a.',
      'x.',
      `x.${'A'.repeat(42)}`,
      `x.${'*'.repeat(43)}`,
    ]) {
      expect(await verifyCookie(KEY, 'gf_x', ANNA, cookie), cookie).toEqual({
        ok: false,
        reason: 'unsigned',
      });
    }
    const long = await signCookie(KEY, 'gf_x', ANNA, 'a~b.'.repeat(1100));
    expect(await verifyCookie(KEY, 'gf_x', ANNA, long)).toMatchObject({ ok: false });
  });

  it('no edit of the value or the signature passes (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 200 }),
        fc.nat(),
        fc.string({ minLength: 1, maxLength: 3 }),
        async (value, at, inserted) => {
          const cookie = await signCookie(KEY, 'gf_x', ANNA, value);
          const where = at % (cookie.length + 1);
          const edited = cookie.slice(0, where) + inserted + cookie.slice(where);
          const verdict = await verifyCookie(KEY, 'gf_x', ANNA, edited);
          if (verdict.ok) expect(verdict.value).toBe(value);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('the route a gf_route value keeps', () => {
  const NOW = Date.UTC(2026, 10, 25, 22, 30);
  const HOUR = 60 * 60 * 1000;

  it('for a day after it was chosen', () => {
    expect(decodeKeptRoute(encodeKeptRoute('tiktok', NOW), NOW)).toBe('tiktok');
    expect(decodeKeptRoute(encodeKeptRoute('tiktok', NOW - 23 * HOUR), NOW)).toBe('tiktok');
    expect(decodeKeptRoute(encodeKeptRoute('tiktok', NOW - 24 * HOUR), NOW)).toBeNull();
  });

  it('nothing from a value encodeKeptRoute could not write', () => {
    for (const value of ['tiktok', 'tiktok.', '.1790000000', 'Tiktok.1790000000', 'a.b', 'a.1.2']) {
      expect(decodeKeptRoute(value, NOW), value).toBeNull();
    }
  });
});

describe('a key rotated with its value before kept (docs/operate.md, "Rotating a signing key")', () => {
  it('verifies with either while both are given, signs with neither but the current', async () => {
    const old = await signCookie('old-key', 'gf_route', ANNA, 'tiktok.1790000000');
    expect(
      await verifyCookie(keysWithPrevious('new-key', 'old-key'), 'gf_route', ANNA, old),
    ).toEqual({
      ok: true,
      value: 'tiktok.1790000000',
    });
    expect(
      await verifyCookie(keysWithPrevious('new-key', undefined), 'gf_route', ANNA, old),
    ).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
  });

  it('keeps no empty or repeated key', () => {
    expect(keysWithPrevious('new-key', undefined)).toEqual(['new-key']);
    expect(keysWithPrevious('new-key', '  ')).toEqual(['new-key']);
    expect(keysWithPrevious('new-key', 'new-key')).toEqual(['new-key']);
    expect(keysWithPrevious('new-key', 'old-key\n')).toEqual(['new-key', 'old-key\n']);
  });
});
