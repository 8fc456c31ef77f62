// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { Island, renderWithIslands } from '../../../screens/layout/Island';

/**
 * A page is rendered first and each island's own root after it, in the place the page marked
 * (screens/layout/Island.tsx): what a visitor gets must be the island where it stands, its words
 * as written, whatever the page or the island says.
 */
describe('islands rendered into their places', () => {
  it('puts each island where it stands, with its own id prefix, and names it', async () => {
    const { html, islands } = await renderWithIslands(
      <main>
        <p>before</p>
        <Island name="TryAgain" props={{ action: '/checkout', next: null, label: 'Try again' }} />
        <p>between</p>
        <Island name="ErrorToast" props={{ closeLabel: 'Close' }} />
      </main>,
    );
    expect([...islands]).toEqual(['TryAgain', 'ErrorToast']);
    expect(html).not.toContain('<!--island');
    document.body.innerHTML = html;
    const order = [...document.querySelectorAll('main > *')].map(
      (element) => element.getAttribute('data-island') ?? element.textContent,
    );
    expect(order).toEqual(['before', 'TryAgain', 'between', 'ErrorToast']);
    // Each root's HTML sits inside its own marker element, under the prefix it hydrates with.
    const tryAgain = document.querySelector('[data-island=TryAgain]');
    expect(tryAgain?.getAttribute('data-prefix')).toBe('i1-');
    expect(tryAgain?.querySelector('button')?.textContent).toBe('Try again');
    const toast = document.querySelector('[data-island=ErrorToast]');
    expect(toast?.getAttribute('data-prefix')).toBe('i2-');
    expect(toast?.querySelector('.toast-area')?.getAttribute('role')).toBe('alert');
  });

  it('keeps an island’s words as written, replacement patterns included', async () => {
    const label = "Pay $& $' $` $$ $1 again";
    const { html } = await renderWithIslands(
      <Island name="TryAgain" props={{ action: '/checkout', next: null, label }} />,
    );
    document.body.innerHTML = html;
    expect(document.querySelector('[data-island=TryAgain] button')?.textContent).toBe(label);
  });

  it('leaves a mark the page spells itself (text, or raw markup guessing one) as it is', async () => {
    const guessed = '<!--island 00000000-0000-4000-8000-000000000000 i1--->';
    const { html } = await renderWithIslands(
      <main>
        <p>{guessed}</p>
        <div dangerouslySetInnerHTML={{ __html: guessed }} />
        <Island name="ErrorToast" props={{ closeLabel: 'Close' }} />
      </main>,
    );
    expect(html).toContain(`<div>${guessed}</div>`);
    expect(html).toContain('&lt;!--island 00000000');
    expect(html.match(/data-island="ErrorToast"/g)).toHaveLength(1);
  });
});
