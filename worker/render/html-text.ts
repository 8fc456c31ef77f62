import type { HtmlEscapedString } from 'hono/utils/html';

/** A fragment written with hono/html's `html` template: its values are escaped already. */
export type HtmlFragment = HtmlEscapedString | Promise<HtmlEscapedString>;

/**
 * An `html` template's text. The template escapes every value except another `html` fragment or
 * `raw()`, so HTML written outside React cannot forget an escape; it returns a Promise only when a
 * value is one, which no page here passes.
 */
export function htmlText(fragment: HtmlFragment): string {
  if (fragment instanceof Promise) throw new TypeError('an html template was given a Promise');
  return fragment.toString();
}
