import fc from 'fast-check';
import { html } from 'hono/html';
import { describe, expect, it } from 'vitest';
import { serializeJson } from '../../shared/serialize-json';
import { htmlText } from '../../worker/render/html-text';

/** JSON values whose strings draw from every UTF-16 code unit, so '<', U+2028 and U+2029 occur. */
const jsonValueArb = fc.jsonValue({ stringUnit: 'binary' });
const hostileStringArb = fc
  .array(
    fc.oneof(
      fc.constantFrom('<', '>', '&', '\u2028', '\u2029', '</script>', '<!--', '-->', '"', '\\'),
      fc.string({ unit: 'binary', maxLength: 3 }),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''));

describe('serializeJson', () => {
  it('escapes a closing script tag, an HTML comment opener and the JS line separators', () => {
    const out = serializeJson({ html: '</script><!--x-->&', lines: 'a\u2028b\u2029c' });
    expect(out).toBe(
      '{"html":"\\u003c/script\\u003e\\u003c!--x--\\u003e\\u0026","lines":"a\\u2028b\\u2029c"}',
    );
  });

  it('property: the output never contains <, U+2028 or U+2029', () => {
    fc.assert(
      fc.property(fc.oneof(jsonValueArb, hostileStringArb), (value) => {
        const out = serializeJson(value);
        expect(out).not.toMatch(/[<\u2028\u2029]/);
      }),
    );
  });

  it('property: JSON.parse of the output gives back the same value as plain JSON does', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          jsonValueArb,
          hostileStringArb,
          fc.json().map((text) => JSON.parse(text)),
        ),
        (value) => {
          expect(JSON.parse(serializeJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
        },
      ),
    );
  });

  it('property: the output, evaluated as a JavaScript expression, is the same value', () => {
    // In a JavaScript object literal a "__proto__" key sets the prototype instead of a property;
    // the page only serialises objects whose keys are ours, so such keys are outside the contract.
    const withoutProtoKeys = (value: unknown) => !JSON.stringify(value).includes('"__proto__":');
    fc.assert(
      fc.property(fc.oneof(jsonValueArb, hostileStringArb).filter(withoutProtoKeys), (value) => {
        const evaluated = new Function(`return (${serializeJson(value)});`)();
        expect(evaluated).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });
});

/** A value as hono/html's template writes it, which every page outside React uses. */
const escapeHtml = (text: string) => htmlText(html`${text}`);

describe('hono/html escapes values', () => {
  it('escapes the five HTML-significant characters', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;',
    );
  });

  it('leaves other text unchanged', () => {
    expect(escapeHtml('Payment declined — try again ✓')).toBe('Payment declined — try again ✓');
  });

  it('property: the output has no raw <, >, " or \' and decodes back to the input', () => {
    const decode = (html: string) =>
      html
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&amp;/g, '&');
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), hostileStringArb), (text) => {
        const out = escapeHtml(text);
        expect(out).not.toMatch(/[<>"']/);
        expect(decode(out)).toBe(text);
      }),
    );
  });
});
