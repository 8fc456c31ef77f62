import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Bindings } from '../../../worker/env';
import { signResumeId } from '../../../worker/resume/resume-token';
import {
  DEVELOPMENT_SUBSCRIBER_LINK_KEY,
  subscriberLinkKey,
} from '../../../worker/subscriber-links/link-key';
import {
  LINK_LIFETIME_SECONDS,
  lookInPath,
  signSubscriberLink,
  subscriberLinkUrl,
  verifySubscriberLink,
} from '../../../worker/subscriber-links/link-token';

const KEY = 'a-test-subscriber-link-key';
const NOW = Date.UTC(2026, 10, 28, 12, 0, 0);
const DAY_MS = 86_400_000;

/** The token with its `index`th dot-separated part replaced. */
function withPart(token: string, index: number, part: string): string {
  const parts = token.split('.');
  parts[index] = part;
  return parts.join('.');
}

describe('a subscriber link', () => {
  it('says what it was signed for, until its purpose’s lifetime ends', async () => {
    const { token, link } = await signSubscriberLink(KEY, 'manage', 'sub_123', NOW);
    expect(link).toMatchObject({ purpose: 'manage', subscriptionId: 'sub_123' });
    expect(link.expiresAt).toBe(NOW / 1000 + LINK_LIFETIME_SECONDS.manage);
    expect(await verifySubscriberLink(KEY, token, NOW + 399 * DAY_MS)).toEqual({ ok: true, link });
    expect(await verifySubscriberLink(KEY, token, NOW + 400 * DAY_MS)).toEqual({
      ok: false,
      reason: 'expired',
    });
    const recovery = await signSubscriberLink(KEY, 'recover', 'sub_123', NOW);
    expect(await verifySubscriberLink(KEY, recovery.token, NOW + 31 * DAY_MS)).toEqual({
      ok: false,
      reason: 'expired',
    });
  });

  it('names each link apart, so a done action can refuse that one link', async () => {
    const first = await signSubscriberLink(KEY, 'manage', 'sub_123', NOW);
    const second = await signSubscriberLink(KEY, 'manage', 'sub_123', NOW);
    expect(first.link.linkId).toMatch(/^[0-9a-f]{32}$/);
    expect(second.link.linkId).not.toBe(first.link.linkId);
  });

  it('refuses an edited purpose, subscription, date or id as a forgery, not another link', async () => {
    const { token } = await signSubscriberLink(KEY, 'recover', 'sub_123', NOW);
    const [, id] = token.split('.');
    const edits = [
      withPart(token, 0, 'manage'),
      withPart(token, 1, `${id}A`),
      withPart(token, 2, String(NOW / 1000 + 900 * 86_400)),
      withPart(token, 3, '0'.repeat(32)),
    ];
    for (const edited of edits) {
      expect(await verifySubscriberLink(KEY, edited, NOW)).toEqual({
        ok: false,
        reason: 'bad_signature',
      });
    }
    expect(await verifySubscriberLink('another-key', token, NOW)).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
  });

  it('refuses what no link of ours looks like, and another signed thing of the worker', async () => {
    const { token } = await signSubscriberLink(KEY, 'manage', 'sub_123', NOW);
    const resume = await signResumeId(KEY, 'ab'.repeat(16));
    for (const bad of [
      '',
      'manage',
      token.slice(0, -1),
      `${token}x`,
      withPart(token, 0, 'cancel'),
      withPart(token, 2, '-5'),
      resume,
      `manage.${resume}`,
    ]) {
      expect((await verifySubscriberLink(KEY, bad, NOW)).ok, bad).toBe(false);
    }
  });

  it('carries any subscription id the product API gives, dots and letters of any script included', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 40, unit: 'grapheme' }), async (id) => {
        const { token } = await signSubscriberLink(KEY, 'manage', id, NOW);
        expect(subscriberLinkUrl('https://funnel.example.com/', token)).toMatch(
          /^https:\/\/funnel\.example\.com\/subscription\/[A-Za-z0-9._-]+$/,
        );
        const verdict = await verifySubscriberLink(KEY, token, NOW);
        expect(verdict.ok && verdict.link.subscriptionId).toBe(id);
      }),
      { numRuns: 50 },
    );
    await expect(signSubscriberLink(KEY, 'manage', '', NOW)).rejects.toThrow(RangeError);
    await expect(signSubscriberLink(KEY, 'manage', 'x'.repeat(129), NOW)).rejects.toThrow(
      RangeError,
    );
  });
});

describe('the look a subscriber link carries', () => {
  const look = { theme: 'brainbloom', language: 'de' };

  it('signs the purchase’s brand and language into the token, and says them back', async () => {
    const { token, link } = await signSubscriberLink(KEY, 'manage', 'sub_123', NOW, look);
    expect(token).toMatch(
      /^manage\.[A-Za-z0-9_-]+\.\d+\.[0-9a-f]{32}\.brainbloom~de\.[A-Za-z0-9_-]{43}$/,
    );
    expect(link.look).toEqual(look);
    expect(await verifySubscriberLink(KEY, token, NOW)).toEqual({ ok: true, link });
    // The page reads it from its address for what it wears, before the signature is checked.
    expect(lookInPath(`/subscription/${token}`)).toEqual(look);
    expect(lookInPath(`/subscription/${token}/cancel`)).toEqual(look);
  });

  it('keeps opening a link made without one, which wears the request’s look', async () => {
    const { token, link } = await signSubscriberLink(KEY, 'recover', 'sub_123', NOW);
    expect(token.split('.')).toHaveLength(5);
    expect(link.look).toBeNull();
    expect(await verifySubscriberLink(KEY, token, NOW)).toEqual({ ok: true, link });
    expect(lookInPath(`/subscription/${token}`)).toBeNull();
  });

  it('refuses another brand or language put in a signed link as a forgery, and adds none to one without', async () => {
    const { token } = await signSubscriberLink(KEY, 'manage', 'sub_123', NOW, look);
    const plain = await signSubscriberLink(KEY, 'manage', 'sub_123', NOW);
    const [purpose, id, expiry, linkId, signature] = plain.token.split('.');
    for (const forged of [
      withPart(token, 4, 'findo~de'),
      withPart(token, 4, 'brainbloom~en'),
      // A look added to a link signed without one.
      [purpose, id, expiry, linkId, 'findo~en', signature].join('.'),
      // The look taken out of a link signed with one.
      token.split('.').toSpliced(4, 1).join('.'),
    ]) {
      expect(await verifySubscriberLink(KEY, forged, NOW), forged).toEqual({
        ok: false,
        reason: 'bad_signature',
      });
    }
  });

  it('signs no look of a shape it cannot carry, and reads none from an address without a link', async () => {
    for (const odd of [
      { theme: 'Brain.bloom', language: 'de' },
      { theme: 'brainbloom', language: 'de.x' },
      { theme: '', language: 'de' },
    ]) {
      const { token, link } = await signSubscriberLink(KEY, 'manage', 'sub_123', NOW, odd);
      expect(link.look, JSON.stringify(odd)).toBeNull();
      expect((await verifySubscriberLink(KEY, token, NOW)).ok).toBe(true);
    }
    expect(lookInPath('/one_pager')).toBeNull();
    expect(lookInPath('/subscription/not-a-link')).toBeNull();
  });
});

describe('the key subscriber links are signed with', () => {
  const env = (vars: Partial<Bindings>) => vars as Bindings;

  it('is missing when unset, and the public development key counts only in development', () => {
    expect(subscriberLinkKey(env({ ENVIRONMENT: 'production' })).ok).toBe(false);
    expect(
      subscriberLinkKey(
        env({ ENVIRONMENT: 'production', SUBSCRIBER_LINK_KEY: DEVELOPMENT_SUBSCRIBER_LINK_KEY }),
      ),
    ).toEqual({ ok: false, reason: 'SUBSCRIBER_LINK_KEY is the public development key' });
    expect(
      subscriberLinkKey(
        env({ ENVIRONMENT: 'development', SUBSCRIBER_LINK_KEY: DEVELOPMENT_SUBSCRIBER_LINK_KEY }),
      ),
    ).toEqual({ ok: true, key: DEVELOPMENT_SUBSCRIBER_LINK_KEY });
    expect(subscriberLinkKey(env({ ENVIRONMENT: 'staging', SUBSCRIBER_LINK_KEY: KEY }))).toEqual({
      ok: true,
      key: KEY,
    });
  });
});
