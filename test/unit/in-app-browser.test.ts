import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  detectInAppBrowser,
  IN_APP_RULES,
  type InAppApp,
  MAX_USER_AGENT_LENGTH,
} from '../../shared/in-app-browser';
import {
  APP_CRAWLER_USER_AGENTS,
  IN_APP_USER_AGENTS,
  LINKEDIN_WITHOUT_OS,
  MESSENGER_WITH_FACEBOOK_TOKEN,
  NORMAL_USER_AGENTS,
} from '../fixtures/in-app-user-agents';

const APPS = Object.keys(IN_APP_USER_AGENTS) as InAppApp[];

describe('detectInAppBrowser: the apps, from real user agents', () => {
  it('has at least three real user agents for every app on iOS and on Android', () => {
    expect([...APPS].sort()).toEqual(
      [
        'facebook',
        'instagram',
        'linkedin',
        'messenger',
        'pinterest',
        'snapchat',
        'tiktok',
        'x',
      ].sort(),
    );
    for (const app of APPS) {
      expect(IN_APP_USER_AGENTS[app].ios.length, `${app} ios`).toBeGreaterThanOrEqual(3);
      expect(IN_APP_USER_AGENTS[app].android.length, `${app} android`).toBeGreaterThanOrEqual(3);
    }
  });

  for (const app of Object.keys(IN_APP_USER_AGENTS) as InAppApp[]) {
    for (const os of ['ios', 'android'] as const) {
      it.each(IN_APP_USER_AGENTS[app][os])(`tells ${app} on ${os}: %s`, (userAgent) => {
        expect(detectInAppBrowser(userAgent)).toEqual({ app, os });
      });
    }
  }
});

describe('detectInAppBrowser: everything else is a normal browser', () => {
  it.each(Object.entries(NORMAL_USER_AGENTS))('%s → null', (_name, userAgent) => {
    expect(detectInAppBrowser(userAgent)).toBeNull();
  });

  it.each(APP_CRAWLER_USER_AGENTS)("the apps' own crawlers are not their browsers: %s", (ua) => {
    expect(detectInAppBrowser(ua)).toBeNull();
  });

  it.each([null, undefined, '', ' ', 'Mozilla/5.0', '[]', 'FBAN', 'Instagram', 'Snapchat'])(
    'garbage %j → null',
    (userAgent) => {
      expect(detectInAppBrowser(userAgent)).toBeNull();
    },
  );

  it('does not read a user agent longer than the cap, even one carrying an app token', () => {
    const instagram = IN_APP_USER_AGENTS.instagram.ios[0]!;
    const padded = instagram.padEnd(MAX_USER_AGENT_LENGTH, ' ');
    expect(detectInAppBrowser(padded)).toEqual({ app: 'instagram', os: 'ios' });
    expect(detectInAppBrowser(`${padded} `)).toBeNull();
    expect(detectInAppBrowser(`${'('.repeat(100_000)}FBAN/FBIOS`)).toBeNull();
  });
});

describe('detectInAppBrowser: precedence where Meta tokens overlap', () => {
  it('checks Instagram and Messenger before Facebook, whose row ends in catch-alls', () => {
    const order = IN_APP_RULES.map((rule) => rule.app);
    expect(order.indexOf('instagram')).toBeLessThan(order.indexOf('facebook'));
    expect(order.indexOf('messenger')).toBeLessThan(order.indexOf('facebook'));
    // The catch-alls really do match Messenger's tokens: the order is what keeps them apart.
    const facebook = IN_APP_RULES.find((rule) => rule.app === 'facebook')!;
    for (const ua of [
      ...IN_APP_USER_AGENTS.messenger.ios,
      ...IN_APP_USER_AGENTS.messenger.android,
    ]) {
      expect(facebook.tokens.some((token) => token.test(ua))).toBe(true);
    }
  });

  it('never calls an Instagram or a Messenger user agent Facebook', () => {
    for (const app of ['instagram', 'messenger'] as const) {
      for (const ua of [...IN_APP_USER_AGENTS[app].ios, ...IN_APP_USER_AGENTS[app].android]) {
        expect(detectInAppBrowser(ua)?.app).toBe(app);
      }
    }
  });

  it('reads Instagram even where a Facebook token rides along', () => {
    // Not seen in the fixture lists; the order makes it safe should a build ever do it.
    const instagram = IN_APP_USER_AGENTS.instagram.android[0]!;
    expect(detectInAppBrowser(`${instagram} [FB_IAB/FB4A;FBAV/541.0.0.49.79;]`)?.app).toBe(
      'instagram',
    );
  });

  it('calls Messenger for iOS Facebook when it sends only FBAN/FBIOS: the string cannot tell', () => {
    expect(detectInAppBrowser(MESSENGER_WITH_FACEBOOK_TOKEN)).toEqual({
      app: 'facebook',
      os: 'ios',
    });
  });
});

describe('detectInAppBrowser: the OS', () => {
  it('is other when the user agent names no mobile OS and no hint does', () => {
    expect(detectInAppBrowser(LINKEDIN_WITHOUT_OS)).toEqual({ app: 'linkedin', os: 'other' });
  });

  it.each([
    ['"iOS"', 'ios'],
    ['"Android"', 'android'],
    [' "Android" ', 'android'],
    ['Android', 'android'],
  ] as const)(
    'takes the OS from Sec-CH-UA-Platform %j when the user agent is ambiguous',
    (platform, os) => {
      expect(detectInAppBrowser(LINKEDIN_WITHOUT_OS, { platform, mobile: '?1' })).toEqual({
        app: 'linkedin',
        os,
      });
    },
  );

  it.each(['"Windows"', '"Unknown"', '""', 'garbage', null])(
    'falls back to the user agent when the platform hint is %j',
    (platform) => {
      const android = IN_APP_USER_AGENTS.tiktok.android[0]!;
      expect(detectInAppBrowser(android, { platform })).toEqual({ app: 'tiktok', os: 'android' });
      expect(detectInAppBrowser(LINKEDIN_WITHOUT_OS, { platform })?.os).toBe('other');
    },
  );

  it('gives no app to a normal browser whatever the hints say', () => {
    const chrome = NORMAL_USER_AGENTS['Chrome on Android, reduced user agent']!;
    expect(detectInAppBrowser(chrome, { platform: '"Android"', mobile: '?1' })).toBeNull();
  });
});

describe('detectInAppBrowser: properties', () => {
  const validFact = (result: ReturnType<typeof detectInAppBrowser>) =>
    result === null ||
    (APPS.includes(result.app) && ['ios', 'android', 'other'].includes(result.os));

  it('never throws and answers null or a valid fact, for any string and any hints', () => {
    fc.assert(
      fc.property(
        fc.option(fc.string({ maxLength: 2000 }), { nil: undefined }),
        fc.option(fc.string(), { nil: null }),
        fc.option(fc.string(), { nil: null }),
        (userAgent, platform, mobile) => {
          expect(validFact(detectInAppBrowser(userAgent, { platform, mobile }))).toBe(true);
        },
      ),
    );
  });

  it('never throws on strings built from the tokens it looks for', () => {
    const pieces = fc.constantFrom(
      'FBAN/',
      'FB_IAB/',
      'MESSENGER',
      'Instagram ',
      'musical_ly',
      'trill_',
      'Snapchat',
      '[Pinterest/iOS]',
      '[LinkedInApp]',
      'Twitter for iPhone',
      'iPhone',
      'Android',
      ' ',
      '1',
      '"',
    );
    fc.assert(
      fc.property(
        fc.array(pieces, { maxLength: 80 }).map((parts) => parts.join('')),
        (ua) => {
          expect(validFact(detectInAppBrowser(ua))).toBe(true);
        },
      ),
    );
  });

  it('lets a platform hint naming iOS or Android decide the OS of any detected app', () => {
    const detected = APPS.flatMap((app) => [
      ...IN_APP_USER_AGENTS[app].ios,
      ...IN_APP_USER_AGENTS[app].android,
    ]);
    fc.assert(
      fc.property(
        fc.constantFrom(...detected, LINKEDIN_WITHOUT_OS),
        fc.constantFrom(['"iOS"', 'ios'] as const, ['"Android"', 'android'] as const),
        (userAgent, [platform, os]) => {
          const withoutHint = detectInAppBrowser(userAgent)!;
          expect(detectInAppBrowser(userAgent, { platform })).toEqual({ app: withoutHint.app, os });
        },
      ),
    );
  });
});
