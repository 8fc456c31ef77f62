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

export const CHROMIUM_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
