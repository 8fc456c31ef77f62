import { expect } from 'vitest';
import type { PageState } from '../../islands/protocol';

/** Reading a rendered page's HTML as the browser's script would: its state and islands' props. */

/** The page state's JSON as the page's module script hands it to boot: `boot({...})`. */
export function pageStateJson(html: string): string | undefined {
  return /boot\((\{.*?\})\)\)/.exec(html)?.[1];
}

/**
 * What the page's module script does once the page has painted (render-page.tsx): the body of
 * its `go` function.
 */
export function afterPaintCode(html: string): string {
  const code = /const go=\(\)=>\{(.*?)\};if\(PerformanceObserver/s.exec(html)?.[1];
  if (!code) throw new Error('no after-paint code in the page');
  return code;
}

/** The state the page's boot script receives. */
export function pageStateOf(html: string): PageState {
  const json = pageStateJson(html);
  if (!json) throw new Error('no boot state in the page');
  return JSON.parse(json) as PageState;
}

/** The opening tag of the one element whose opening tag contains `marker`. */
export function tagWith(html: string, marker: string): string {
  const at = html.indexOf(marker);
  expect(at).toBeGreaterThan(-1);
  return html.slice(html.lastIndexOf('<', at), html.indexOf('>', at) + 1);
}

/** The props the page hands an island (its data-props attribute, unescaped). */
export function islandProps(html: string, name: string): Record<string, unknown> {
  const attribute = new RegExp(`data-island="${name}" data-props="([^"]*)"`).exec(html)?.[1];
  expect(attribute).toBeDefined();
  const json = (attribute ?? '').replaceAll('&quot;', '"').replaceAll('&amp;', '&');
  return JSON.parse(json) as Record<string, unknown>;
}

/** The text a visitor reads in the page's `<main>`, its tags dropped and its spaces collapsed. */
export function mainText(html: string): string {
  const main = /<main[\s>].*?<\/main>/s.exec(html)?.[0];
  if (!main) throw new Error('no <main> in the page');
  return main
    .replace(/<(script|style)[\s>].*?<\/\1>/gs, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replaceAll('&amp;', '&')
    .replace(/\s+/g, ' ');
}

/** The rows of a page's `<dl>` lists (a receipt's, the subscriber's page's), label to value. */
export function listRows(html: string): Record<string, string> {
  const rows = html.matchAll(/<dt>([^<]*)<\/dt><dd>(?:<bdi[^>]*>)?([^<]*)(?:<\/bdi>)?<\/dd>/g);
  return Object.fromEntries([...rows].map(([, label, value]) => [label, value]));
}
