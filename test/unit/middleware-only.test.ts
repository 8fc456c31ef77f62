import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readSources } from '../../scripts/import-boundaries';
import { middlewareImporters, notMiddleware } from '../../scripts/middleware-only';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Planted files, each given as its lines. */
function planted(files: Record<string, readonly string[]>) {
  return Object.entries(files).map(([path, lines]) => ({ path, text: lines.join('\n') }));
}

const A_MIDDLEWARE = [
  "import type { MiddlewareHandler } from 'hono';",
  'export interface CountryVariables { country: string | null }',
  'export function country(): MiddlewareHandler {',
  '  return async function countryMiddleware(c, next) { await next(); };',
  '}',
];

describe('worker/middleware/ holds middleware only (npm run check)', () => {
  it('holds for the worker as it is now', { timeout: 30_000 }, () => {
    const sources = readSources(ROOT, ['worker']);
    expect(notMiddleware(sources)).toEqual([]);
    expect(middlewareImporters(sources)).toEqual([]);
  });

  it('refuses a file there that exports a reader, a constant, a re-export or no middleware', () => {
    const refused = notMiddleware(
      planted({
        'worker/middleware/visitor.ts': [
          ...A_MIDDLEWARE,
          "export const VISITOR_COOKIE = 'userUuid';",
          'export function visitorIdOf(cookie: string) { return cookie; }',
        ],
        'worker/middleware/signed-cookies.ts': [...A_MIDDLEWARE, "export * from '../signing';"],
        'worker/middleware/envs.ts': ['export type AppEnv = { Variables: object };'],
      }),
    );
    expect(refused.map((r) => r.path)).toEqual([
      'worker/middleware/visitor.ts',
      'worker/middleware/signed-cookies.ts',
      'worker/middleware/envs.ts',
    ]);
    expect(refused[0]?.message).toMatch(/VISITOR_COOKIE, visitorIdOf, which is not middleware/);
    expect(refused[2]?.message).toMatch(/exports no middleware/);
  });

  it('lets factories, MiddlewareHandler constants and types pass, and other folders', () => {
    const refused = notMiddleware(
      planted({
        'worker/middleware/country.ts': A_MIDDLEWARE,
        'worker/middleware/form-guard.ts': [
          "import type { MiddlewareHandler } from 'hono';",
          'export const formGuard: MiddlewareHandler<AppEnv> = every(a, b);',
          'export type Refusal = (reason: string) => Response;',
        ],
        'worker/request/visitor-cookie.ts': ["export const VISITOR_COOKIE = 'userUuid';"],
      }),
    );
    expect(refused).toEqual([]);
  });

  it('refuses an import of middleware from below the sub-apps, a type-only one too', () => {
    const refused = middlewareImporters(
      planted({
        'worker/purchases/record.ts': ["import type { X } from '../middleware/experiments';"],
        'worker/routes/screens/props.ts': ["import { armsOf } from '../../middleware/exposure';"],
        'worker/sub-apps/pages.ts': ["import { visitor } from '../middleware/visitor';"],
        'worker/app.tsx': ["import { requestLog } from './middleware/request-log';"],
        'worker/middleware/exposure.ts': ["import { writePins } from './experiments';"],
        'worker/request/visit.ts': ["import type { AppEnv } from './envs';"],
      }),
    );
    expect(refused.map((r) => r.path)).toEqual([
      'worker/purchases/record.ts',
      'worker/routes/screens/props.ts',
    ]);
    expect(refused[0]?.message).toMatch(/Only worker\/sub-apps\/ and worker\/app.tsx/);
  });
});
