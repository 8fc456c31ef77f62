import { describe, expect, it } from 'vitest';
import { freshApp } from '../fetch-app';

/**
 * SPEC.md §2 Layout, §9: a screen wrapped with a bottom button gets 88px bottom padding (else
 * 16px) and its Continue stays 24px above the bottom edge. The features screen pins its Continue.
 */

async function page(path: string) {
  const html = await (await freshApp()(path)).text();
  const css = /<style>(.*?)<\/style>/s.exec(html)?.[1] ?? '';
  return { html, css };
}

describe('the bottom-button layout', () => {
  it('/features pins its Continue form in the bottom button, its page padded for it', async () => {
    const { html, css } = await page('/features?utm_source=x');
    expect(html).toContain('<main class="page page--bottom-button">');
    expect(html).toMatch(
      /<div class="bottom-button"><form [^>]*action="\/features\?utm_source=x"[^>]*><button id="continue-button" type="submit"/,
    );
    expect(css).toContain('.page--bottom-button{padding-bottom:88px}');
    expect(css).toMatch(/\.bottom-button\{position:fixed;[^}]*bottom:24px/);
    // From a tablet's width its own layout puts Continue under the heading, a phone's width wide.
    expect(css).toMatch(
      /@media \(min-width:768px\)\{[^@]*\.features>\.bottom-button\{justify-content:flex-start\}/,
    );
  });

  it.each(['/one_pager', '/signup', '/checkout_v3_tr', '/success'])(
    '%s keeps its Continue in the flow of the page, and carries none of the layout’s CSS',
    async (path) => {
      const { html, css } = await page(path);
      expect(html).toContain('<main class="page">');
      expect(html).not.toContain('class="bottom-button"');
      // Neither the bar's rules nor the features screen's wide rules, which name it.
      expect(css).not.toContain('bottom-button');
    },
  );
});
