import { afterAll, beforeAll, describe, it } from 'vitest';
import { type BrowserSession, startBrowserSession } from '../browser/harness';
import { EVERY_RENDER, MATRIX_WIDTHS, WALK_TEST, walkOf } from '../browser/screen-walk';

/**
 * `npm run test:matrix` (vitest.matrix.config.ts), not `npm test`: the screen walk
 * (test/browser/screen-walk.ts) over the whole cross product, every screen × every theme × en,
 * ar, ru, each load resized to 320, 390, 432, 768, 1024, 1280 and 1440 px (and to 991 and 992
 * for sideways scrolling in the default theme): 288 loads. `npm test` walks every theme in
 * English and every language in the default theme at the layout's widths
 * (test/browser/every-screen.test.ts); run this after a change to the screens, the themes, the
 * copy or the kit, and before a release (docs/testing.md, docs/operate.md).
 */

let session: BrowserSession;
beforeAll(async () => {
  session = await startBrowserSession();
});
afterAll(() => session?.stop());

describe.concurrent('every screen × theme × en, ar, ru × 320 to 1440 px', () => {
  const walk = walkOf(() => session, MATRIX_WIDTHS);
  it.each(EVERY_RENDER)(WALK_TEST, walk.check);
});
