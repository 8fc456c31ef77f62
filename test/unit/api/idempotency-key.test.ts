import { describe, expect, it } from 'vitest';
import { idempotencyKeyOrRefuse } from '../../../portal/charges';
import { parseIdempotencyKey } from '../../../shared/api/contract';
import { readIdempotencyKey } from '../../../worker/http/api-json';

/**
 * One Idempotency-Key rule: the worker refuses what the portal would, so
 * a key the page sends is judged the same on both sides of the BFF.
 */
const MALFORMED = ['k'.repeat(256), 'with space', 'naïve', 'tab\there'];
const FINE = ['k', 'k'.repeat(255), '3f0c4a8e-2b1d-4c5e-9f6a-7b8c9d0e1f2a:3ds', '  padded  '];

describe('parseIdempotencyKey', () => {
  it('takes 1 to 255 printable ASCII characters, trimmed', () => {
    for (const key of FINE) expect(parseIdempotencyKey(key)).toEqual({ ok: true, key: key.trim() });
  });

  it('reads no header, or a blank one, as no key', () => {
    for (const header of [undefined, '', '   ']) {
      expect(parseIdempotencyKey(header)).toEqual({ ok: true, key: null });
    }
  });

  it.each(MALFORMED)('refuses %j, in the worker and in the portal alike', (key) => {
    expect(parseIdempotencyKey(key)).toEqual({ ok: false });
    expect(readIdempotencyKey(key)).toMatchObject({
      ok: false,
      refusal: { code: 'invalid_request', status: 400 },
    });
    expect(() => idempotencyKeyOrRefuse(key)).toThrow(/1 to 255 printable characters/);
  });
});
