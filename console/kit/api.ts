import {
  type CheckAnswer,
  CONSOLE_API,
  type ConsoleState,
  type PublishAnswer,
  type PublishRequest,
  type RollbackRequest,
} from '../../shared/console-api/config';
import type { FieldError } from '../../shared/console-api/errors';
import {
  CONSOLE_EXPERIMENTS_PATH,
  type ExperimentResultsAnswer,
} from '../../shared/console-api/experiment-results';
import { CONSOLE_RESULTS_PATH, type ResultsAnswer } from '../../shared/console-api/results';
import type {
  RouteTestAnswer,
  RouteTestRequest,
  RouteVisitsAnswer,
  VisitorGetsAnswer,
  VisitorGetsRequest,
} from '../../shared/console-api/routes';
import type { Change, VersionSummary, VersionsAnswer } from '../../shared/console-api/versions';
import { type CallFailure, isCallFailure } from './error-texts';

/**
 * The console's calls to `/console/api/*` (shared/console-api/). The worker that serves this
 * page checks what it is sent and answers the contract's shapes, so answers are not parsed again
 * here (no schema library in the console's bundle); only which answer it is gets decided.
 */

/**
 * Why a call did not do what it was asked. `Head` is the version a conflict names: the config's,
 * or the copy's (console/copy/copy-api.ts).
 */
export type Refusal<Head = VersionSummary> =
  | { kind: 'invalid'; errors: FieldError[] }
  /** `clashes`: the shared draft's places both edits changed (console/kit/draft-api.ts). */
  | { kind: 'conflict'; head: Head; changes: Change[]; clashes?: string[] }
  | { kind: 'failed'; failure: CallFailure };

export type Answer<T, Head = VersionSummary> =
  | { ok: true; value: T }
  | { ok: false; refusal: Refusal<Head> };

/** The refusal an answer that is not a 2xx stands for. */
export function refusalOf<Head = VersionSummary>(status: number, body: unknown): Refusal<Head> {
  const answer = (body ?? {}) as {
    error?: unknown;
    errors?: FieldError[];
    head?: Head;
    changes?: Change[];
    draft?: Head;
    theirs?: Change[];
    clashes?: string[];
  };
  if (status === 400 && answer.error === 'invalid_config' && Array.isArray(answer.errors)) {
    return { kind: 'invalid', errors: answer.errors };
  }
  if (status === 409 && answer.error === 'version_conflict' && answer.head) {
    return { kind: 'conflict', head: answer.head, changes: answer.changes ?? [] };
  }
  // The shared draft saved since (shared/console-api/draft.ts DraftConflictAnswer).
  if (status === 409 && answer.error === 'draft_conflict' && answer.draft) {
    const { draft, theirs = [], clashes = [] } = answer;
    return { kind: 'conflict', head: draft, changes: theirs, clashes };
  }
  return { kind: 'failed', failure: isCallFailure(answer.error) ? answer.error : 'unreadable' };
}

/** What the worker answered: its status and its JSON, or why there was none to read. */
export type Sent =
  | { ok: true; status: number; body: unknown }
  | { ok: false; failure: 'network' | 'unreadable' };

/** Sends `init` to the console's API and reads its JSON answer, whatever its status. */
export async function sendToConsole(url: string, init: RequestInit): Promise<Sent> {
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch {
    return { ok: false, failure: 'network' };
  }
  try {
    return { ok: true, status: response.status, body: await response.json() };
  } catch {
    // Not JSON: an Access login page, a proxy's error page.
    return { ok: false, failure: 'unreadable' };
  }
}

/** A GET, or a POST (or `method`) of `body` as JSON, to the console's API; the answer as it stands. */
export async function consoleCall<T, Head = VersionSummary>(
  url: string,
  body?: object,
  method: 'POST' | 'PUT' = 'POST',
): Promise<Answer<T, Head>> {
  const sent = await sendToConsole(url, {
    method: body === undefined ? 'GET' : method,
    headers:
      body === undefined
        ? { accept: 'application/json' }
        : { accept: 'application/json', 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!sent.ok) return { ok: false, refusal: { kind: 'failed', failure: sent.failure } };
  return sent.status >= 200 && sent.status < 300
    ? { ok: true, value: sent.body as T }
    : { ok: false, refusal: refusalOf<Head>(sent.status, sent.body) };
}

export function fetchState(): Promise<Answer<ConsoleState>> {
  return consoleCall(CONSOLE_API.state);
}

export function fetchVersions(): Promise<Answer<VersionsAnswer>> {
  return consoleCall(CONSOLE_API.versions);
}

export function checkDocument(request: PublishRequest): Promise<Answer<CheckAnswer>> {
  return consoleCall(CONSOLE_API.check, request);
}

export function publishDocument(request: PublishRequest): Promise<Answer<PublishAnswer>> {
  return consoleCall(CONSOLE_API.publish, request);
}

export function rollBack(request: RollbackRequest): Promise<Answer<PublishAnswer>> {
  return consoleCall(CONSOLE_API.rollback, request);
}

/** The results of `phase` (null: the live phase), as JSON or as the spreadsheet's CSV. */
export function resultsUrl(phase: number | null, format?: 'csv'): string {
  const query = new URLSearchParams();
  if (format) query.set('format', format);
  if (phase !== null) query.set('phase', String(phase));
  const text = query.toString();
  return text ? `${CONSOLE_RESULTS_PATH}?${text}` : CONSOLE_RESULTS_PATH;
}

export function fetchResults(phase: number | null): Promise<Answer<ResultsAnswer>> {
  return consoleCall(resultsUrl(phase));
}

/** Which route a visitor opening an ad link would get (the draft's routing when sent). */
export function testRoute(request: RouteTestRequest): Promise<Answer<RouteTestAnswer>> {
  return consoleCall(CONSOLE_API.routeTest, request);
}

/** What the edge serves a described visitor, under the draft sent or the live config. */
export function askVisitorGets(request: VisitorGetsRequest): Promise<Answer<VisitorGetsAnswer>> {
  return consoleCall(CONSOLE_API.visitorGets, request);
}

/** The last days' first visits by route. */
export function fetchRouteVisits(): Promise<Answer<RouteVisitsAnswer>> {
  return consoleCall(CONSOLE_API.routeVisits);
}

/** What an experiment's results may be read by: a phase (null: the live one), a segment. */
export interface ExperimentResultsQuery {
  phase: number | null;
  segment: string | null;
}

/** One experiment's results, as JSON or as the spreadsheet's CSV. */
export function experimentResultsUrl(
  id: string,
  { phase, segment }: ExperimentResultsQuery,
  format?: 'csv',
): string {
  const query = new URLSearchParams();
  if (phase !== null) query.set('phase', String(phase));
  if (segment !== null) query.set('segment', segment);
  if (format) query.set('format', format);
  const text = query.toString();
  const path = `${CONSOLE_EXPERIMENTS_PATH}/${encodeURIComponent(id)}/results`;
  return text ? `${path}?${text}` : path;
}

export function fetchExperimentResults(
  id: string,
  query: ExperimentResultsQuery,
): Promise<Answer<ExperimentResultsAnswer>> {
  return consoleCall(experimentResultsUrl(id, query));
}
