import type { EventName } from '../../shared/analytics/catalogue';
import { emit } from './emit';

/** The longest message kept: enough to tell errors apart, too short to carry a visitor's data. */
const MESSAGE_CHARS = 120;

/**
 * Reports the page's first uncaught error of its own scripts as `script_error` (`kind`: `error`,
 * or `rejection` for a promise nobody caught; `message`, cut short): an island that throws, a
 * Pay button whose handler fails. The experiments count it against the visitor's arm as a client
 * error, which a guarded ramp watches (docs/statistics.md, "Guarded ramps"). Only errors thrown
 * by a script of the page's own origin: another site's (a payment provider's, a pixel's) reach a
 * page as "Script error." without a file, and fail alike in every arm. Once per page, so a loop
 * that throws sends one event.
 */
export function reportScriptErrors(
  target: Pick<Window, 'addEventListener'> = window,
  origin: string = window.location.origin,
  report: (name: EventName, properties: Record<string, unknown>) => void = emit,
): void {
  let reported = false;
  const once = (kind: 'error' | 'rejection', message: string) => {
    if (reported) return;
    reported = true;
    report('script_error', { kind, message: message.slice(0, MESSAGE_CHARS) });
  };
  target.addEventListener('error', (event) => {
    const { filename, message } = event as ErrorEvent;
    if (typeof filename === 'string' && filename.startsWith(`${origin}/`)) once('error', message);
  });
  target.addEventListener('unhandledrejection', (event) => {
    const reason: unknown = (event as PromiseRejectionEvent).reason;
    once('rejection', reason instanceof Error ? reason.message : String(reason));
  });
}
