import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeRequestPath, documentedRequestPath } from './request-path-check';

/**
 * docs/architecture.md's request path is the newcomer's first map: it lists worker/app.tsx's
 * global middleware and each sub-app (worker/sub-apps/) with its middleware, in the code's order.
 */

const ROOT = process.cwd();
const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');

describe("docs/architecture.md's request path", () => {
  it('lists the global middleware, the sub-apps and their middleware as the code has them', () => {
    expect(documentedRequestPath(doc)).toEqual(codeRequestPath(ROOT));
  });

  it('reads every sub-app and middleware the code has', () => {
    const code = codeRequestPath(ROOT);
    expect(code.global).toEqual([
      'requestLog',
      'provideDevKit',
      'securityHeaders',
      'signedInUserCookies',
    ]);
    expect(code.subApps.map((subApp) => subApp.path)).toEqual([
      '/hooks/subscription-events',
      '/e',
      '/vendor',
      '/consent',
      '/pictures',
      '/console',
      '/api',
      '/test-gateway',
      '/app',
      '/resume',
      '/',
    ]);
    expect(code.subApps.at(-1)?.middleware).toHaveLength(11);
  });

  it('notices a middleware the list leaves out', () => {
    const without = doc.replace(/\n {2}firstTouch .*\n/, '\n');
    expect(without).not.toEqual(doc);
    expect(documentedRequestPath(without)).not.toEqual(codeRequestPath(ROOT));
  });
});
