import { reset } from 'cloudflare:test';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_FLOWS } from '../../../worker/config/defaults';
import { freshApp, putConfig } from '../fetch-app';
import { tagWith } from '../page-html';

/**
 * SPEC.md §2 shared building blocks: the segmented linear progress bar shows the visitor's step
 * in their flow on the screens after the landing, as server HTML (no island).
 */

afterEach(() => reset());

/** The progress bar of a page: its opening tag and its segments, done or not. */
async function progressOn(path: string, headers: Record<string, string> = {}) {
  const html = await (await freshApp()(path, { headers })).text();
  const at = html.indexOf('class="linear-progress"');
  if (at === -1) return null;
  const bar = html.slice(at, html.indexOf('</div>', at));
  return {
    html,
    tag: tagWith(html, 'class="linear-progress"'),
    segments: [...bar.matchAll(/class="(linear-progress__segment[^"]*)"/g)].map((match) =>
      match[1]!.endsWith('--done') ? 'done' : 'to do',
    ),
  };
}

describe('the linear progress bar (SPEC.md §2)', () => {
  it('is not on the landing, the first screen of the flow', async () => {
    expect(await progressOn('/one_pager')).toBeNull();
    expect(await progressOn('/')).toBeNull();
  });

  it.each(
    DEFAULT_FLOWS.flows.default!.slice(1).map((screen, index) => [screen, index + 1] as const),
  )('/%s is step %i of the 5 screens after the default flow’s landing', async (screen, step) => {
    const progress = await progressOn(`/${screen}`);
    expect(progress).not.toBeNull();
    expect(progress!.tag).toContain('role="progressbar"');
    expect(progress!.tag).toContain('aria-label="Your progress"');
    expect(progress!.tag).toContain('aria-valuemin="0"');
    expect(progress!.tag).toContain('aria-valuemax="5"');
    expect(progress!.tag).toContain(`aria-valuenow="${step}"`);
    expect(progress!.tag).toContain(`aria-valuetext="Step ${step} of 5"`);
    expect(progress!.segments).toEqual([
      ...Array<string>(step).fill('done'),
      ...Array<string>(5 - step).fill('to do'),
    ]);
    // The bar opens the page's content, before the screen's heading.
    expect(progress!.html.indexOf('class="linear-progress"')).toBeLessThan(
      progress!.html.indexOf('<h1'),
    );
  });

  it("follows the visitor's own flow: stripe_test has two screens after its first", async () => {
    await putConfig('split', {
      version: 1,
      defaultVariant: 'qa',
      variants: { qa: { weight: 1, flow: 'stripe_test' } },
    });
    expect(await progressOn('/auto-signup')).toBeNull();
    const checkout = await progressOn('/checkout-test');
    expect(checkout?.tag).toContain('aria-valuetext="Step 1 of 2"');
    expect(checkout?.segments).toEqual(['done', 'to do']);
    expect((await progressOn('/success'))?.segments).toEqual(['done', 'done']);
  });

  it('is not on a screen outside the flow, whose step there is none', async () => {
    expect(await progressOn('/features')).toBeNull();
    expect(await progressOn('/payment_declined')).toBeNull();
  });

  it("speaks the page's language", async () => {
    const progress = await progressOn('/signup', { 'accept-language': 'de' });
    expect(progress?.tag).toContain('aria-label="Dein Fortschritt"');
    expect(progress?.tag).toContain('aria-valuetext="Schritt 2 von 5"');
  });
});
