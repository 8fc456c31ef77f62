import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The static floor: the landing's own HTML with every script and script preload taken out, so
 * the same text, styles and images, and no JavaScript. workerd serves it from dist/client like
 * any asset, so it goes through the same server as the screens and differs from them only in
 * what the page does, which is what a ratio to it should isolate.
 */
export const FLOOR_PATH = '/__bench/floor';

/** Served at FLOOR_PATH: the assets server drops `.html` (and redirects a request that has it). */
const FLOOR_FILE = join('dist/client', `${FLOOR_PATH}.html`);

/** Removes what makes a page run code: scripts, module preloads and next-screen prefetches. */
export function staticFloor(html: string): string {
  return html
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, '')
    .replace(/<link\b[^>]*\brel=["']?(modulepreload|prefetch|prerender)\b[^>]*>/gi, '')
    .replace(/<script\b[^>]*\/>/gi, '');
}

/**
 * The floor of a move from one screen to the next: a static page whose one link leads to the
 * next screen's static floor, prefetched by the same speculation rule the screens use, so a tap
 * there is the browser's own share of screen to screen (navigation, parsing, style, first paint)
 * with none of our scripts. `booted` as a screen's is once its islands are awake.
 */
export const FLOOR_MOVE = {
  from: '/__bench/move-from',
  to: '/__bench/move-to',
  button: '.bench-next',
} as const;

export function moveFrom(floor: string): string {
  const rules = JSON.stringify({ prefetch: [{ source: 'list', urls: [FLOOR_MOVE.to] }] });
  const link = `<a class="bench-next button button--primary" href="${FLOOR_MOVE.to}">Next</a>`;
  return floor
    .replace(/<html\b/i, '<html data-booted="yes"')
    .replace(/<body([^>]*)>/i, `<body$1>${link}<script type="speculationrules">${rules}</script>`);
}

/** Writes the floor and the floor of a move (FLOOR_MOVE) to the next screen, `nextHtml`. */
export async function writeFloor(landingHtml: string, nextHtml: string): Promise<number> {
  const floor = staticFloor(landingHtml);
  await mkdir(join('dist/client', '__bench'), { recursive: true });
  await writeFile(FLOOR_FILE, floor);
  await writeFile(join('dist/client', `${FLOOR_MOVE.from}.html`), moveFrom(floor));
  await writeFile(join('dist/client', `${FLOOR_MOVE.to}.html`), staticFloor(nextHtml));
  return Buffer.byteLength(floor);
}

/**
 * The floor of a screen whose own content differs from the landing's (a composed landing with
 * its picture): its HTML without scripts, at FLOOR_PATH-<screen>, so its ratios compare it with
 * itself as plain HTML, pictures and all.
 */
export const floorPathOf = (screen: string) => `${FLOOR_PATH}-${screen}`;

export async function writeScreenFloor(screen: string, html: string): Promise<void> {
  await mkdir(join('dist/client', '__bench'), { recursive: true });
  await writeFile(join('dist/client', `${floorPathOf(screen)}.html`), staticFloor(html));
}

export async function removeFloor(): Promise<void> {
  await rm(join('dist/client', '__bench'), { recursive: true, force: true });
}
