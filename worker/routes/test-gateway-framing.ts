import type { MiddlewareHandler } from 'hono';
import { TEST_GATEWAY_BASE } from '../../test-gateway/frame-protocol';
import { type AppEnv, isProduction } from '../env';

/**
 * The test gateway's pages live in same-origin frames of the checkout (issue 5), which the
 * worker's CSP (worker/middleware/security-headers.ts) forbids: `frame-ancestors 'none'` on every
 * page and `frame-src` limited to Google. Outside production only, this lets the gateway's own
 * pages be framed by our pages, and lets our pages frame them. Mounted before securityHeaders,
 * so it edits the policy that middleware has just set.
 */
export function testGatewayFraming(): MiddlewareHandler<AppEnv> {
  return async function testGatewayFramingMiddleware(c, next) {
    await next();
    if (isProduction(c.env)) return;
    const policy = c.res.headers.get('Content-Security-Policy');
    if (!policy) return;
    const framed = c.req.path.startsWith(`${TEST_GATEWAY_BASE}/`);
    c.res.headers.set('Content-Security-Policy', framablePolicy(policy, framed));
  };
}

/** `policy` with 'self' added to frame-src, and, for a gateway page, frame-ancestors 'self'. */
export function framablePolicy(policy: string, gatewayPage: boolean): string {
  return policy
    .split(';')
    .map((directive) => directive.trim())
    .map((directive) => {
      const [name = '', ...sources] = directive.split(/\s+/);
      if (name === 'frame-src' && !sources.includes("'self'")) {
        return [name, "'self'", ...sources].join(' ');
      }
      if (name === 'frame-ancestors' && gatewayPage) return "frame-ancestors 'self'";
      return directive;
    })
    .join('; ');
}
