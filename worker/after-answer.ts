import type { Context, ExecutionContext } from 'hono';

/** The request's execution context, or undefined when the app was called without one. */
export function executionContextOf(c: Context): ExecutionContext | undefined {
  try {
    return c.executionCtx;
  } catch {
    // Hono throws when the app was called without one (app.request in a test).
    return undefined;
  }
}

/**
 * Runs `task` after the answer is sent, where the runtime allows it: work the visitor need not
 * wait for. Without an execution context (app.request in a test) it runs unawaited.
 */
export function afterAnswer(c: Context, task: Promise<unknown>): void {
  executionContextOf(c)?.waitUntil(task);
}
