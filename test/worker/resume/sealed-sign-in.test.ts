import { describe, expect, it } from 'vitest';
import { openSignIn, sealSignIn } from '../../../worker/resume/sealed-sign-in';

/**
 * The login token a resume link keeps, sealed in workerd's own WebCrypto: it opens only with the
 * key and the record it was sealed for, and anything altered, moved or in another shape opens
 * nothing rather than throwing.
 */

const KEY = 'resume-link-key-for-the-test';
const RECORD = 'rl_0123456789abcdef';
const TOKEN = 'deeplink-token-4f1c2e';

/** `sealed` with one character of segment `index` changed to another base64url character. */
function altered(sealed: string, index: number): string {
  const parts = sealed.split('.');
  const part = parts[index] ?? '';
  parts[index] = `${part[0] === 'A' ? 'B' : 'A'}${part.slice(1)}`;
  return parts.join('.');
}

describe('the sealed login token', () => {
  it('opens for its record under its key, and never shows the token in the seal', async () => {
    const sealed = await sealSignIn(KEY, RECORD, TOKEN);
    expect(sealed).toMatch(/^v1\.[\w-]{16}\.[\w-]+$/);
    expect(sealed).not.toContain(TOKEN);
    expect(await openSignIn(KEY, RECORD, sealed)).toBe(TOKEN);
  });

  it('seals the same token differently each time: a fresh nonce', async () => {
    const [one, two] = await Promise.all([
      sealSignIn(KEY, RECORD, TOKEN),
      sealSignIn(KEY, RECORD, TOKEN),
    ]);
    expect(one).not.toBe(two);
  });

  it('opens nothing for another record, under another key, or altered anywhere', async () => {
    const sealed = await sealSignIn(KEY, RECORD, TOKEN);
    expect(await openSignIn(KEY, 'rl_another_record', sealed)).toBeNull();
    expect(await openSignIn('another-key', RECORD, sealed)).toBeNull();
    expect(await openSignIn(KEY, RECORD, altered(sealed, 1))).toBeNull();
    expect(await openSignIn(KEY, RECORD, altered(sealed, 2))).toBeNull();
    expect(await openSignIn(KEY, RECORD, sealed.slice(0, -2))).toBeNull();
  });

  it('opens nothing of another shape: another version, extra or missing parts, not base64url', async () => {
    const sealed = await sealSignIn(KEY, RECORD, TOKEN);
    const [, nonce, cipher] = sealed.split('.');
    for (const shape of [
      `v2.${nonce}.${cipher}`,
      `${sealed}.extra`,
      `v1.${nonce}`,
      `v1.${nonce?.slice(2)}.${cipher}`,
      `v1.${nonce}.not*base64url`,
      '',
      // The JWE (dir, A256GCM) links were sealed as before this shape.
      'eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..aGVsbG8td29ybGQh.Y2lwaGVy.dGFnLXRhZy10YWc',
    ]) {
      expect(await openSignIn(KEY, RECORD, shape), shape).toBeNull();
    }
  });
});
