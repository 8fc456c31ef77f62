import type { ExecutionContext } from 'hono';

/**
 * What a route handler's context offers of the runtime: a getter that throws when the app was
 * called without an execution context. Code below the handlers asks for no more of `c`.
 */
export interface RunsInRequest {
  readonly executionCtx: ExecutionContext | undefined;
}

/** The request's execution context, or undefined when the app was called without one. */
export function executionContextOf(request: RunsInRequest): ExecutionContext | undefined {
  try {
    return request.executionCtx;
  } catch {
    // Hono throws when the app was called without one (app.request in a test).
    return undefined;
  }
}

/**
 * Runs `task` after the answer is sent, where the runtime allows it: work the visitor need not
 * wait for. Without an execution context (app.request in a test) it runs unawaited.
 */
export function afterAnswer(request: RunsInRequest, task: Promise<unknown>): void {
  executionContextOf(request)?.waitUntil(task);
}
