import type { ExperimentDocument } from '../../../shared/config/experiments';
import type { DocumentIssue } from '../../../shared/config/parse-document';
import type { RampDocument } from '../../../shared/config/ramp';
import type { RoutingDocument } from '../../../shared/config/routing';
import type { RampPersonMove } from '../../../shared/console-api/ramp-status';
import { type CompiledRamp, compileRamp, compileRampOf, compileRollOut } from './ramp-arm';
import { movedRamp, type RampMove } from './ramp-engine';

/**
 * What a publish may change of a live experiment's ramp (docs/experiments.md, "Guarded ramps"),
 * beside what edits.ts holds every live experiment to. The ramp's bands draw its visitors, so:
 * a ramp is set before the experiment runs and stays while it is live (added or taken away, the
 * draw would change and visitors flip arm); its coverage only rises (a smaller band would drop
 * visitors it took), except to roll it back; and a rolled-back ramp stays rolled back, since the
 * visitors it moved to the control would be drawn into the variant again: duplicate it (a new
 * seed) to try again, as LaunchDarkly re-randomises a restarted guarded rollout.
 */
export function rampEditIssues(
  path: string,
  next: ExperimentDocument,
  live: ExperimentDocument,
): DocumentIssue[] {
  if (live.status !== 'running' && live.status !== 'paused') return [];
  const at = `${path}.ramp`;
  if (live.ramp === undefined && next.ramp === undefined) return [];
  if (live.ramp === undefined)
    return [
      {
        path: at,
        message: `cannot be added while it is ${live.status}: its visitors were drawn without one; duplicate it with a ramp`,
      },
    ];
  if (next.ramp === undefined)
    return [
      {
        path: at,
        message: `cannot be taken away while it is ${live.status}: its visitors would be drawn again; let the ramp reach its last step, or stop it`,
      },
    ];
  return stepIssues(
    at,
    compileRamp(live)!,
    compileRamp(next)!,
    'duplicate the experiment (a new seed) to ramp it again',
  );
}

/**
 * A rolled-back ramp stays rolled back (`again` says what to do instead), and a ramp's coverage
 * only rises: the rules every ramp's draw holds to, an experiment's, a roll-out's or a route's.
 */
function stepIssues(
  at: string,
  was: CompiledRamp,
  now: CompiledRamp,
  again: string,
): DocumentIssue[] {
  if (was.rolledBack && !now.rolledBack)
    return [
      {
        path: `${at}.state.status`,
        message: `stays rolled_back: its variant was taken from its visitors; ${again}`,
      },
    ];
  if (!now.rolledBack && now.coverage < was.coverage)
    return [
      {
        path: `${at}.state.step`,
        message: `the coverage can only rise (from ${was.coverage}, now ${now.coverage}): roll it back instead, or hold it`,
      },
    ];
  return [];
}

/**
 * A ramp (a variant's, a roll-out's or a route's) with a person's move made at `now`, or why it
 * cannot be (docs/experiments.md, "Guarded ramps"): the CLI's `ramp hold|resume|rollback` and the
 * console's buttons alike, through the engine's own movedRamp. Only a running or done ramp is
 * held, only a held one resumed, and a rolled-back one stays so.
 */
export function personRampMove(
  ramp: RampDocument,
  name: RampPersonMove,
  reason: string,
  now: number,
): RampDocument | string {
  const status = ramp.state.status;
  if (status === 'rolled_back') return 'the ramp is rolled_back already: nothing to do';
  if (name === 'resume' && status !== 'held')
    return `the ramp is ${status}, not held: nothing to resume`;
  if (name === 'hold' && status === 'held') return 'the ramp is held already: nothing to hold';
  const move: RampMove = { kind: name, reason };
  return movedRamp(ramp, move, now);
}

/**
 * What a publish may change of a shipped experiment's roll-out ramp (docs/experiments.md, "A
 * ramped roll-out"): none added to a roll-out that already reaches everyone (it would take the
 * variant from most of them), none taken away before it is done (its bands would jump to
 * everyone unguarded: let it reach its last step), none brought back once rolled back, and its
 * coverage only rises; a done roll-out stays done. Archiving ends it all, as for any roll-out.
 */
export function rollOutRampEditIssues(
  path: string,
  next: ExperimentDocument,
  live: ExperimentDocument,
): DocumentIssue[] {
  const was = compileRollOut(live);
  const now = compileRollOut(next);
  const at = `${path}.decision.ramp`;
  if (next.status !== 'shipped' || next.decision?.action !== 'roll_out') return [];
  if (was.rolledOut !== null && live.decision?.ramp === undefined && now.ramp !== null)
    return [
      {
        path: at,
        message:
          'cannot be added to a roll-out that reaches everyone: it would take the variant from most of them',
      },
    ];
  if (was.ramp === null) {
    const done = live.decision?.ramp?.state.status === 'done';
    return done && next.decision.ramp !== undefined && now.ramp !== null
      ? [{ path: `${at}.state.status`, message: 'stays done: the variant reaches everyone' }]
      : [];
  }
  if (next.decision.ramp === undefined)
    return [
      {
        path: at,
        message:
          'cannot be taken away before it is done: let it reach its last step, or roll it back',
      },
    ];
  if (now.ramp === null) return [];
  return stepIssues(at, was.ramp, now.ramp, 'end it and ship again from a duplicate to try again');
}

/** A route's ramp's bands, the route against its fallback. */
const routeBands = (ramp: RampDocument) => compileRampOf(ramp, 'route', 'fallback');

/**
 * What a publish may change of a route's ramp (docs/routes.md, "A new route on a ramp"), held to
 * the routes live before it (`live`, by id), each refusal at `routing.routes.<index>.ramp`: a
 * ramp starts a new route, or one that takes no one yet (paused, or its schedule not begun),
 * since it would take the route from most of those it has; a ramping or rolled-back ramp stays
 * (taken away, the route would take everyone at once, unguarded); a rolled-back one is not
 * brought back, a done one stays done, and the coverage only rises. To ramp a route again, add
 * it under a new id: its visitors are drawn again.
 */
export function routeRampEditIssues(
  next: RoutingDocument,
  live: RoutingDocument | undefined,
  now: number,
): DocumentIssue[] {
  const issues: DocumentIssue[] = [];
  const again = 'add the route under a new id (its visitors are drawn again) to ramp it again';
  next.routes.forEach((route, index) => {
    const was = live?.routes.find((candidate) => candidate.id === route.id);
    const at = `routing.routes.${index}.ramp`;
    const issue = (path: string, message: string) => issues.push({ path, message });
    if (was === undefined) return;
    const status = was.ramp?.state.status;
    if (was.ramp === undefined) {
      const starting = was.schedule?.from !== undefined && Date.parse(was.schedule.from) > now;
      if (route.ramp !== undefined && was.paused !== true && !starting)
        issue(
          at,
          'cannot be added to a route that takes visitors: pause it first, or add a new route',
        );
    } else if (route.ramp === undefined) {
      if (status !== 'done')
        issue(
          at,
          `cannot be taken away while it is ${status}: the route would take everyone at once; ${status === 'rolled_back' ? again : 'let it reach its last step, or roll it back'}`,
        );
    } else if (status === 'done' && route.ramp.state.status !== 'done')
      issue(`${at}.state.status`, 'stays done: the route takes everyone it matches');
    else issues.push(...stepIssues(at, routeBands(was.ramp), routeBands(route.ramp), again));
  });
  return issues;
}
