import { describe, expect, it } from 'vitest';
import { reportScriptErrors } from '../../../islands/analytics/script-errors';

/**
 * The page's first uncaught error of its own scripts, reported as `script_error`
 * (islands/analytics/script-errors.ts): a guarded ramp's client errors count it.
 */

const ORIGIN = 'https://funnel.example.com';

function aPage() {
  const target = new EventTarget();
  const reported: [string, Record<string, unknown>][] = [];
  reportScriptErrors(target as unknown as Window, ORIGIN, (name, properties) =>
    reported.push([name, properties]),
  );
  const error = (filename: string, message: string) =>
    target.dispatchEvent(Object.assign(new Event('error'), { filename, message }));
  const rejection = (reason: unknown) =>
    target.dispatchEvent(Object.assign(new Event('unhandledrejection'), { reason }));
  return { reported, error, rejection };
}

describe('script errors', () => {
  it('reports the first error of the page’s own scripts once, its message cut short', () => {
    const page = aPage();
    page.error(`${ORIGIN}/assets/CheckoutPayment-3f9a.js`, `TypeError: ${'x'.repeat(300)}`);
    page.error(`${ORIGIN}/assets/CheckoutPayment-3f9a.js`, 'again, in a loop');
    page.rejection(new Error('later'));
    expect(page.reported).toEqual([
      ['script_error', { kind: 'error', message: `TypeError: ${'x'.repeat(109)}` }],
    ]);
  });

  it('leaves out another site’s scripts, and a lookalike host', () => {
    const page = aPage();
    page.error('', 'Script error.');
    page.error('https://js.stripe.com/v3/', 'stripe broke');
    page.error(`${ORIGIN}.evil.test/x.js`, 'not ours');
    expect(page.reported).toEqual([]);
    page.rejection(new Error('Pay failed to start'));
    expect(page.reported).toEqual([
      ['script_error', { kind: 'rejection', message: 'Pay failed to start' }],
    ]);
  });
});
