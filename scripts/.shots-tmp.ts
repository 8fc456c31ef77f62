import { chromium } from 'playwright-core';
import { startBuiltWorker } from './built-worker';
import { CHROMIUM_FLAGS, TEST_CHROMIUM_PATH } from './chromium';

// Ad-hoc: every console area at 390, 1024 and 1920 px, to look at. Not committed.
const worker = await startBuiltWorker({ quiet: true });
const browser = await chromium.launch({ executablePath: TEST_CHROMIUM_PATH, args: CHROMIUM_FLAGS });
try {
  for (const width of [390, 1024, 1920]) {
    const page = await browser.newPage({ baseURL: worker.url.href, viewport: { width, height: 900 } });
    await page.goto('/console');
    await page.getByRole('heading', { name: 'Traffic map' }).waitFor();
    await page.waitForTimeout(1500);
    for (const id of ['overview', 'edit', 'traffic', 'experiments', 'results', 'content', 'copy', 'history']) {
      const section = page.locator(`#${id}`);
      if ((await section.count()) === 0) { console.log('no section', id); continue; }
      await section.screenshot({ path: `/tmp/shots/${id}-${width}.png` });
    }
    await page.close();
  }
} finally {
  await browser.close();
  await worker.stop();
}
