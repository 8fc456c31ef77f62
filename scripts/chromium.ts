import { existsSync } from 'node:fs';

/**
 * ARCHITECTURE.md: Debian's Chromium runs headless here with these flags; without the
 * background-networking ones it keeps trying to reach hosts this closed network refuses.
 */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const FULL_CHROMIUM = '/usr/bin/chromium';

/** Debian's full Chromium: the benchmark's browser, as a visitor's Chrome is a full browser. */
export const CHROMIUM_PATH = process.env.CHROME_PATH ?? FULL_CHROMIUM;

const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

/**
 * The tests' browser: Debian's chromium-headless-shell when it is installed, the same Chromium
 * release (same Blink, V8 and fonts) without the desktop browser's window layer, the build
 * Playwright itself drives headless by default. A page load cost its browser process about 40%
 * less CPU than in the full Chromium, and `npm test` took 8:40 instead of 10:48 (run back to
 * back, every test passing). Without it, the full Chromium; CHROME_PATH overrides both.
 */
export const TEST_CHROMIUM_PATH =
  process.env.CHROME_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_CHROMIUM);
