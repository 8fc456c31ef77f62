import { describe, expect, it } from 'vitest';
import { contextImports } from '../../scripts/context-imports';

/** Planted files, each given as its lines. */
function planted(files: Record<string, readonly string[]>) {
  return Object.entries(files).map(([path, lines]) => ({ path, text: lines.join('\n') }));
}

describe("only worker middleware takes Hono's Context (npm run check)", () => {
  it('refuses a module below the handlers that imports Context, however it is written', () => {
    const refused = contextImports(
      planted({
        'worker/purchases/charge.ts': ["import type { Context } from 'hono';"],
        'worker/session/cookie.ts': ["import { type Context as C, Hono } from 'hono';"],
        'worker/geocode/lookup.ts': ["export function f(c: import('hono').Context) { return c; }"],
        'worker/area-map/route.ts': ["import type { Context } from 'hono/jsx';"],
      }),
    );
    expect(refused.map((r) => r.path)).toEqual([
      'worker/purchases/charge.ts',
      'worker/session/cookie.ts',
      'worker/geocode/lookup.ts',
      'worker/area-map/route.ts',
    ]);
    expect(refused[0]?.message).toMatch(/outside worker\/middleware\/ and worker\/request\//);
  });

  it("lets middleware, the request's readers, route apps without the annotation and other Hono types pass", () => {
    const refused = contextImports(
      planted({
        'worker/middleware/country.ts': ["import type { Context, Next } from 'hono';"],
        'worker/request/visit.ts': ["import type { Context } from 'hono';"],
        'worker/routes/vendor.ts': [
          "import { Hono, type MiddlewareHandler } from 'hono';",
          'export const app = new Hono().get("/", (c) => c.text("ok"));',
        ],
        'worker/render/page.ts': ["import type { Context } from 'react';"],
      }),
    );
    expect(refused).toEqual([]);
  });
});
