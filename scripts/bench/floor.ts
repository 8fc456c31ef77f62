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

export async function writeFloor(landingHtml: string): Promise<number> {
  const floor = staticFloor(landingHtml);
  await mkdir(join('dist/client', '__bench'), { recursive: true });
  await writeFile(FLOOR_FILE, floor);
  return Buffer.byteLength(floor);
}

export async function removeFloor(): Promise<void> {
  await rm(join('dist/client', '__bench'), { recursive: true, force: true });
}
