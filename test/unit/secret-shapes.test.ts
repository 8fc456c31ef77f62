import { describe, expect, it } from 'vitest';
import { unstable_readConfig } from 'wrangler';
import { malformedSecrets, SECRET_SHAPES } from '../../shared/secret-shapes';
import { SECRETS } from '../../worker/env';
import { MALFORMED, WELL_FORMED } from '../fixtures/secret-values';

/**
 * The secrets' shapes (shared/secret-shapes.ts), which `npm run doctor` holds `.dev.vars` and a
 * secrets file to and the worker's cron its own secrets.
 */

describe('the secrets’ shapes', () => {
  it('every secret of the worker has a shape, and every shape is of a secret', () => {
    expect(Object.keys(SECRET_SHAPES).sort()).toEqual([...SECRETS].sort());
  });

  it.each(SECRETS)('%s: takes a value of its shape, refuses those pasted by mistake', (name) => {
    const shape = SECRET_SHAPES[name];
    expect(shape.fits(WELL_FORMED[name])).toBe(true);
    // wrangler secret put trims a piped value's end; the providers' keys are trimmed again.
    for (const value of MALFORMED[name]) expect(shape.fits(value), value).toBe(false);
  });

  it('names each malformed secret with its shape; an unset or empty one is not checked', () => {
    const environment: Record<string, string | undefined> = {
      ...WELL_FORMED,
      STRIPE_FINGERPRINT_KEY: MALFORMED.STRIPE_FINGERPRINT_KEY[0],
      AMPLITUDE_API_KEY: MALFORMED.AMPLITUDE_API_KEY[0],
      META_ACCESS_TOKEN: '',
      TIKTOK_ACCESS_TOKEN: undefined,
      PORTAL_URL: 'not a secret',
    };
    expect(malformedSecrets(environment)).toEqual([
      {
        name: 'STRIPE_FINGERPRINT_KEY',
        expected: 'a Stripe restricted key: rk_live_… or rk_test_… (a secret key, sk_…, works too)',
      },
      {
        name: 'AMPLITUDE_API_KEY',
        expected: 'an Amplitude project API key: 32 hexadecimal digits',
      },
    ]);
    expect(malformedSecrets(WELL_FORMED)).toEqual([]);
  });

  it('wrangler.toml’s development values are of their shapes, so npm start’s cron logs none', () => {
    const development = unstable_readConfig({ config: 'wrangler.toml', env: 'development' });
    expect(malformedSecrets(development.vars as Record<string, unknown>)).toEqual([]);
  });
});
