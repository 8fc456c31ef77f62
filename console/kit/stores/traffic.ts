import type { ContentDocument } from '../../../shared/config/content';
import type { FieldError } from '../../../shared/console-api/errors';
import type {
  RouteTestAnswer,
  RouteTestRequest,
  RouteVisitsAnswer,
} from '../../../shared/console-api/routes';
import { fetchRouteVisits, testRoute } from '../api';
import { atom } from './atom';
import { refusalText } from './loaded';

/**
 * The traffic area's calls: the first visits each route took (the traffic map's shares, and the
 * experiments' duration estimates) and the "test a visitor" answer.
 */

/**
 * The last days' first visits and steps reached by route (the create form's duration estimate
 * reads the steps); 'none' when they could not be had. Counts come from the event store, which
 * a project may not have set up yet: the map is useful without them.
 */
export type RouteVisits =
  | { kind: 'loading' }
  | ({ kind: 'ready' } & RouteVisitsAnswer)
  | { kind: 'none' };

export const $routeVisits = atom<RouteVisits>({ kind: 'loading' });

export async function loadRouteVisits(): Promise<void> {
  const answer = await fetchRouteVisits();
  $routeVisits.set(answer.ok ? { kind: 'ready', ...answer.value } : { kind: 'none' });
}

export type RouteTest =
  | { kind: 'idle' }
  | { kind: 'testing' }
  | {
      kind: 'answered';
      answer: RouteTestAnswer;
      against: 'draft' | 'live';
      /** Against the whole draft: what its landing is drawn from, for whom. */
      drawing: { content: ContentDocument; language: string; country: string | null } | null;
    }
  | { kind: 'invalid'; errors: FieldError[] }
  | { kind: 'failed'; message: string };

export const $routeTest = atom<RouteTest>({ kind: 'idle' });

/** What the status line of "test a visitor" says (role=status). */
export const $routeTestStatus = atom('');

/**
 * Asks the worker which route the visitor gets; `request.document` set tests the whole draft
 * (its new routes, flows and composed screens), and its landing is then drawn from it.
 */
export async function testVisitor(request: RouteTestRequest): Promise<void> {
  $routeTest.set({ kind: 'testing' });
  $routeTestStatus.set('');
  const answer = await testRoute(request);
  if (answer.ok) {
    const { document } = request;
    $routeTest.set({
      kind: 'answered',
      answer: answer.value,
      against: document ? 'draft' : 'live',
      drawing: document
        ? {
            content: document.content,
            language: request.language ?? 'en',
            country: request.country,
          }
        : null,
    });
    $routeTestStatus.set(`This visitor gets route ${answer.value.route}.`);
    return;
  }
  const { refusal } = answer;
  if (refusal.kind === 'invalid') {
    $routeTest.set({ kind: 'invalid', errors: refusal.errors });
    $routeTestStatus.set('The draft has errors: fix them to test it.');
    return;
  }
  const message = refusalText(refusal);
  $routeTest.set({ kind: 'failed', message });
  $routeTestStatus.set(message);
}
