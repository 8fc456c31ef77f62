import type { Handler } from 'hono';
import type { ConfigDocument, PublishAnswer } from '../../shared/console-api/config';
import { RAMP_REASON_MAX, type RampMoveRequest } from '../../shared/console-api/ramp-status';
import { rampMoveRequest } from '../../shared/console-api/request-schemas';
import type { PublishStores } from '../config/publish';
import { publish } from '../config/publish';
import type { Bindings } from '../env';
import { personRampMove } from '../experiments/ramps/ramp-edits';
import { rampOf } from '../experiments/ramps/ramp-status';
import {
  type RampSubject,
  rampAt,
  subjectName,
  withRamp,
} from '../experiments/ramps/ramp-subjects';
import { isResultsId, routeOfUnit } from '../experiments/ramps/route-ramp';
import { readJsonBody } from '../http/api-json';
import { consoleError } from '../http/console-errors';
import type { ConsoleEnv } from '../request/envs';
import { refusedAnswer } from './publish-request';

/**
 * POST /console/api/experiments/{id}/ramp (shared/console-api/ramp-status.ts RampMoveRequest):
 * a marketer holds, resumes or rolls back a live experiment's guarded ramp, or its roll-out's
 * once shipped in steps (docs/experiments.md, "Guarded ramps", "A ramped roll-out"), or a new
 * route's (`route:<id>`, its results' id: docs/routes.md, "A new route on a ramp"), published at
 * once on top of the newest version as the CLI's `ramp` commands and the cron's moves are: source `console`, the marketer as author, the reason as the note,
 * checked by the one validator and kept in the history. The move is the engine's own
 * (worker/experiments/ramps/ramp-edits.ts personRampMove).
 *
 * Who could misuse it: it sits behind the console's Access check and the same-origin, JSON-only
 * guards of every console write (routes.ts guardConsole), so no one else can forge it. A replay
 * or a stale page names the ramp's state it saw (`seen`); once the ramp has moved, by the cron or
 * another marketer, it is refused `ramp_changed` and nothing is written, so a resent resume never
 * undoes a newer hold or rollback. Each accepted move changes the state, so a flood of them
 * publishes at most one (the rest are refused). A hold or a roll back needs no second approval
 * (it only takes visitors away, and must not wait for a second person); where approval is
 * required, a resume goes out only as a break-glass (worker/config/gate.ts), refused otherwise.
 */

/**
 * The request as sent (shared/console-api/request-schemas.ts rampMoveRequest, the schema the
 * OpenAPI document gives), or null when it is not a RampMoveRequest.
 */
function rampMoveRequestOf(body: unknown): RampMoveRequest | null {
  const parsed = rampMoveRequest.safeParse(body);
  if (!parsed.success) return null;
  const { breakGlass, ...request } = parsed.data;
  return { ...request, ...(breakGlass === true ? { breakGlass: true } : {}) };
}

/**
 * The ramp a results id names in `document`: a route's (`route:<id>`), a shipped roll-out's where
 * the results show it (ramp-status.ts rampOf), else the experiment's; null when there is no
 * such experiment or route.
 */
function subjectOf(document: ConfigDocument, id: string): RampSubject | null {
  const route = routeOfUnit(id);
  if (route !== null)
    return document.routing.routes.some((candidate) => candidate.id === route)
      ? { kind: 'route', route }
      : null;
  const { experiments } = document.experiments;
  const current = Object.hasOwn(experiments, id) ? experiments[id] : undefined;
  if (current === undefined) return null;
  const rollOut =
    current.decision?.ramp !== undefined && rampOf(current)?.ramp === current.decision.ramp;
  return { kind: rollOut ? 'roll_out' : 'variant', experiment: id };
}

/** The handler, publishing through the stores `storesOf` gives for a request's bindings. */
export function rampMoveRoute(
  now: () => number,
  storesOf: (env: Bindings) => Promise<PublishStores>,
): Handler<ConsoleEnv> {
  return async function rampMoveHandler(c) {
    const id = c.req.param('id') ?? '';
    if (!isResultsId(id)) return consoleError(c, 404, 'unknown_experiment');
    const request = rampMoveRequestOf(await readJsonBody(c.req.raw));
    if (request === null) return consoleError(c, 400, 'bad_request');
    const stores = await storesOf(c.env);
    const head = await stores.versions.head();
    const subject = head === null ? null : subjectOf(head.document, id);
    if (head === null || subject === null) return consoleError(c, 404, 'unknown_experiment');
    const ramp = rampAt(head.document, subject);
    if (ramp?.state.status !== request.seen.status || ramp.state.since !== request.seen.since)
      return consoleError(c, 409, 'ramp_changed');
    const at = now();
    const movedRamp = personRampMove(ramp, request.move, request.reason, at);
    if (typeof movedRamp === 'string') return consoleError(c, 409, 'ramp_changed');
    const outcome = await publish(stores, {
      base: head.seq,
      document: withRamp(head.document, subject, movedRamp),
      author: c.get('consoleAuthor'),
      note: `Ramp of ${subjectName(subject)}: ${request.move}: ${request.reason}`.slice(
        0,
        RAMP_REASON_MAX,
      ),
      source: 'console',
      clearance: request.breakGlass
        ? { kind: 'break_glass', reason: request.reason }
        : { kind: 'ramp', subject, by: 'person' },
      now: new Date(at),
    });
    if (outcome.kind !== 'published') return refusedAnswer(c, outcome);
    c.get('logFields').config_version = outcome.version.id;
    const answer: PublishAnswer = { ok: true, version: outcome.version };
    return c.json(answer);
  };
}
