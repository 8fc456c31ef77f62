import { describe, expect, it } from 'vitest';
import { PLATFORMS } from '../../shared/routing';
import { PLATFORM_USER_AGENTS } from '../../worker/console/described-visitor';
import { browserOf, platformOf } from '../../worker/routing/attributes';

/**
 * The console's "test a visitor" hands the router a typical user agent for the platform chosen
 * (worker/console/route-test.ts): each must read back as that platform, or the test would route
 * a visitor other than the one the marketer described.
 */
describe('the user agent the route test uses for each platform', () => {
  it.each(PLATFORMS)('reads back as %s', (platform) => {
    expect(platformOf(PLATFORM_USER_AGENTS[platform], undefined)).toBe(platform);
  });

  it('is the browser most visitors of the platform have', () => {
    expect(browserOf(PLATFORM_USER_AGENTS.ios, null)).toBe('safari');
    expect(browserOf(PLATFORM_USER_AGENTS.android, null)).toBe('chrome');
    expect(browserOf(PLATFORM_USER_AGENTS.desktop, null)).toBe('chrome');
  });
});
