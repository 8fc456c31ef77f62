import { describe, expect, it } from 'vitest';
import { googleAdsPixel } from '../../../islands/pixels/google-ads';
import { runPixels } from '../../../islands/pixels/run';
import type { ConsentState } from '../../../shared/analytics/tracking';
import {
  CONSENT_DENIED as DENIED,
  CONSENT_GRANTED as GRANTED,
} from '../../fixtures/google-consent';
import { fakePage, gtagCommands, type PixelWindow, purchaseEvent, settings } from './fakes';

/**
 * Google's Consent Mode v2 in "basic" mode, as gtag.js reads it from dataLayer: the default (all
 * four signals denied) before any command that measures, then the update from the visitor's
 * answer (developers.google.com/tag-platform/security/guides/consent?consentmode=basic; the order
 * default, update: support.google.com/analytics/answer/14009635). Before a yes nothing reaches
 * dataLayer at all: pixels.test.ts, 'loads nothing while consent is …'.
 */

type FakePage = ReturnType<typeof fakePage>;

/** Each command by its name (and the consent command's kind); js's date left out. */
function commandNames(page: FakePage): string[] {
  return gtagCommands(page.win).map(([command, arg]) =>
    command === 'event' || command === 'consent' ? `${command} ${arg}` : String(command),
  );
}

const consentCommands = (page: FakePage) =>
  gtagCommands(page.win).filter(([command]) => command === 'consent');

describe('Google Consent Mode v2 (basic)', () => {
  const allowed: [string, (page: FakePage) => void][] = [
    ['consent is not required where the visitor is', (page) => runPixels(settings(), page.deps)],
    [
      'the visitor said yes on an earlier page',
      (page) => runPixels(settings({ consent: 'granted' }), page.deps),
    ],
    [
      'the visitor accepts the banner on this page',
      (page) => {
        runPixels(settings({ consent: 'pending' }), page.deps);
        expect(page.win.dataLayer).toBeUndefined();
        page.consent.answer('granted');
      },
    ],
  ];

  it.each(allowed)('%s: default denied, update granted, then js and config', (_, start) => {
    const page = fakePage();
    page.hub.emit(purchaseEvent());
    start(page);
    expect(consentCommands(page)).toEqual([
      ['consent', 'default', DENIED],
      ['consent', 'update', GRANTED],
    ]);
    // The purchase heard before the pixels started is replayed after config, so every hit
    // Google gets carries the granted state.
    expect(commandNames(page)).toEqual([
      'consent default',
      'consent update',
      'js',
      'config',
      'event purchase',
      'event conversion',
    ]);
  });

  it.each([
    ['not_required', GRANTED],
    ['granted', GRANTED],
    ['pending', DENIED],
    ['denied', DENIED],
  ] as [ConsentState, typeof DENIED][])(
    'installed under %s, the tag is told exactly that state',
    (state, update) => {
      // run.ts installs only where the ad tools may run; the tag still grants nothing it was not
      // given, should it ever be installed earlier (Google's "advanced" mode).
      const win: PixelWindow = {};
      googleAdsPixel(win, { id: 'AW-555', conversionLabel: null }, true).install(state);
      expect(gtagCommands(win).slice(0, 2)).toEqual([
        ['consent', 'default', DENIED],
        ['consent', 'update', update],
      ]);
    },
  );
});
