import type { Change, FieldError } from '../../shared/console-api';
import {
  CONSOLE_COPY_API,
  type CopyCheckAnswer,
  type CopyDocument,
  type CopyPreviewAnswer,
  type CopyPublishAnswer,
  type CopyPublishRequest,
  type CopyRollbackRequest,
  type CopyState,
  type CopyVersionSummary,
  type CopyVersionsAnswer,
} from '../../shared/console-copy-api';
import { type CallFailure, isCallFailure } from '../error-texts';

/**
 * The Copy area's calls to `/console/api/copy/*` (shared/console-copy-api.ts), answered as the
 * config's calls are (console/api.ts): the worker checks what it is sent, so only which answer
 * it is gets decided here.
 */

export type CopyRefusal =
  | { kind: 'invalid'; errors: FieldError[] }
  | { kind: 'conflict'; head: CopyVersionSummary; changes: Change[] }
  | { kind: 'failed'; failure: CallFailure };

export type CopyAnswer<T> = { ok: true; value: T } | { ok: false; refusal: CopyRefusal };

function refusalOf(status: number, body: unknown): CopyRefusal {
  const answer = (body ?? {}) as {
    error?: unknown;
    errors?: FieldError[];
    head?: CopyVersionSummary;
    changes?: Change[];
  };
  if (status === 400 && answer.error === 'invalid_config' && Array.isArray(answer.errors)) {
    return { kind: 'invalid', errors: answer.errors };
  }
  if (status === 409 && answer.error === 'version_conflict' && answer.head) {
    return { kind: 'conflict', head: answer.head, changes: answer.changes ?? [] };
  }
  return { kind: 'failed', failure: isCallFailure(answer.error) ? answer.error : 'unreadable' };
}

async function call<T>(
  url: string,
  body?: CopyPublishRequest | CopyRollbackRequest | { copy: CopyDocument },
): Promise<CopyAnswer<T>> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: body === undefined ? 'GET' : 'POST',
      headers:
        body === undefined
          ? { accept: 'application/json' }
          : { accept: 'application/json', 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    return { ok: false, refusal: { kind: 'failed', failure: 'network' } };
  }
  let parsed: unknown;
  try {
    parsed = await response.json();
  } catch {
    return { ok: false, refusal: { kind: 'failed', failure: 'unreadable' } };
  }
  return response.ok
    ? { ok: true, value: parsed as T }
    : { ok: false, refusal: refusalOf(response.status, parsed) };
}

export const fetchCopy = () => call<CopyState>(CONSOLE_COPY_API.state);
export const fetchCopyVersions = () => call<CopyVersionsAnswer>(CONSOLE_COPY_API.versions);
export const checkCopy = (request: CopyPublishRequest) =>
  call<CopyCheckAnswer>(CONSOLE_COPY_API.check, request);
export const publishCopy = (request: CopyPublishRequest) =>
  call<CopyPublishAnswer>(CONSOLE_COPY_API.publish, request);
export const rollBackCopy = (request: CopyRollbackRequest) =>
  call<CopyPublishAnswer>(CONSOLE_COPY_API.rollback, request);
export const previewCopy = (copy: CopyDocument) =>
  call<CopyPreviewAnswer>(CONSOLE_COPY_API.preview, { copy });
