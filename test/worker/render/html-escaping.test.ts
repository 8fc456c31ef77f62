import { html } from 'hono/html';
import { describe, expect, it } from 'vitest';
import { DEFAULT_BRANDS } from '../../../shared/brand';
import { errorPage } from '../../../worker/render/render-page';
import { loginPageHtml } from '../../../worker/routes/app-login-page';
import { plainPageHtml } from '../../../worker/routes/plain-page';

/** A value that breaks out of text, a double- and a single-quoted attribute if left raw. */
const HOSTILE = `"'><script>alert(1)</script>&`;
const ESCAPED = '&quot;&#39;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&amp;';

describe('HTML written outside React escapes every value it is given', () => {
  it("the error page: title, lead, action, retry link, reference and the brand's name", async () => {
    const response = errorPage({
      language: 'en',
      theme: 'geozilla',
      brand: { ...DEFAULT_BRANDS.geozilla, name: HOSTILE },
      title: HOSTILE,
      lead: HOSTILE,
      action: HOSTILE,
      retryUrl: HOSTILE,
      requestId: HOSTILE,
    });
    const text = await response.text();
    expect(text).not.toContain('<script>');
    // Six values, and the brand's name in the logo's label and the application-name.
    expect(text.split(ESCAPED)).toHaveLength(9);
  });

  it('a plain page: language, title, body values, data attributes and script URL; its CSS stays as written', () => {
    const text = plainPageHtml({
      language: HOSTILE,
      title: HOSTILE,
      body: html`<p>${HOSTILE}</p>`,
      css: 'a>b{color:red}',
      data: { 'intent-id': HOSTILE },
      script: { url: HOSTILE, nonce: 'n0nce' },
    });
    expect(text).not.toContain('<script>alert');
    expect(text.split(ESCAPED)).toHaveLength(6);
    expect(text).toContain('<style>a>b{color:red}</style>');
  });

  it("the login link's page: the token in its form and the translated texts", () => {
    const text = loginPageHtml({
      kind: 'open',
      t: (() => HOSTILE) as never,
      language: 'en',
      brand: DEFAULT_BRANDS.geozilla,
      token: HOSTILE,
      nonce: 'n0nce',
    });
    expect(text).toContain(`<input type="hidden" name="token" value="${ESCAPED}">`);
    expect(text).not.toContain('<script>alert');
    // The auto-submit script itself is ours and goes in as code.
    expect(text).toContain("document.getElementById('login')");
  });
});
