import type { RampDocument } from '../../shared/config/ramp';
import type { ConfigDocument } from '../../shared/console-api/config';
import { describeError, logError, logLine } from '../../shared/log';
import type { FunnelConfig } from '../config/load';
import { type PublishStores, publish } from '../config/publish';
import type { Bindings } from '../env';
import { sameValue } from '../experiments/config/edits';
import { type GuardrailReading, movedRamp, type RampMove } from '../experiments/ramps/ramp-engine';
import { rampReadingOf } from '../experiments/ramps/ramp-status';
import {
  type RampSubject,
  rampAt,
  subjectName,
  type WatchedRamp,
  watchedRamps,
  withRamp,
} from '../experiments/ramps/ramp-subjects';
import { alertKey, type DueAlert } from './alert-rules';
import { publishStoresOf } from './break-glass';
import { recordAlerts } from './record-alerts';
import type { AlertsRun } from './run-alerts';

/**
 * One run of the guarded ramps (docs/experiments.md, "Guarded ramps"), on the alerts' cron
 * before their run (worker/scheduled.ts): each live ramp, a running experiment's, a shipped
 * one's roll-out or a new route's (ramp-subjects.ts watchedRamps), has its results read, the engine (worker/experiments/ramps/ramp-engine.ts) says the move, and a move is
 * published as a config version on top of the newest one, by author `ramp` with source `ramp` and
 * the reason as its note, as a marketer's publish is (checked by the one validator, kept in the
 * history, rolled back from the console like any). A rollback, a hold and a broken `warn`
 * guardrail are claimed as alerts to the experiments' webhook (once each per phase), which the
 * alerts' run posts. Another publish in between wins: the move is looked at again next run.
 */

/** Who the history says published a ramp's move. */
const RAMP_AUTHOR = 'ramp';

/** What one run did: the moves it published and the alerts it claimed. */
export interface RampsRunSummary {
  moved: number;
  alerts: number;
}

/**
 * Publishes `ramp` as `subject`'s on top of the newest version, if that version still has the
 * ramp the engine read (`was`); the version's id, or null when nothing was published.
 */
async function publishMove(
  stores: PublishStores,
  subject: RampSubject,
  was: RampDocument,
  ramp: RampDocument,
  note: string,
  now: number,
): Promise<string | null> {
  const head = await stores.versions.head();
  const logged = { subject: subjectName(subject) };
  if (head === null) {
    // KV written around the console and the CLI: no version to publish on top of.
    logError('ramp_publish_refused', { ...logged, outcome: 'no_version' });
    return null;
  }
  const current = rampAt(head.document, subject);
  // Changed since this run read it (another publish): looked at again next run.
  if (current === undefined || !sameValue(current, was)) return null;
  const document: ConfigDocument = withRamp(head.document, subject, ramp);
  const outcome = await publish(stores, {
    base: head.seq,
    document,
    author: RAMP_AUTHOR,
    note: note.slice(0, 500),
    source: 'ramp',
    clearance: { kind: 'ramp', subject, by: 'engine' },
    now: new Date(now),
  });
  if (outcome.kind === 'published') return outcome.version.id;
  logError('ramp_publish_refused', {
    ...logged,
    outcome: outcome.kind,
    detail: outcome.kind === 'invalid' ? JSON.stringify(outcome.errors.slice(0, 3)) : undefined,
  });
  return null;
}

const MOVE_NOTES: Record<Exclude<RampMove['kind'], 'stay'>, string> = {
  advance: 'next step',
  done: 'last step reached',
  hold: 'held',
  rollback: 'rolled back',
  resume: 'resumed',
};

function noteOf(
  subject: RampSubject,
  move: Exclude<RampMove, { kind: 'stay' }>,
  ramp: RampDocument,
) {
  const what =
    move.kind === 'advance'
      ? `${MOVE_NOTES.advance}: ${move.step} (coverage ${ramp.steps[move.step]!.coverage})`
      : MOVE_NOTES[move.kind];
  const reason = 'reason' in move ? `: ${move.reason}` : '';
  return `Ramp of ${subjectName(subject)}: ${what}${reason}`;
}

/** The alerts the run calls for: its move's, if it holds or rolls back, and each broken warn. */
function dueAlerts(
  watched: WatchedRamp,
  move: RampMove,
  warned: readonly GuardrailReading[],
  version: string | null,
): DueAlert[] {
  const { id, name, phase } = watched;
  const alert = (
    action: 'rollback' | 'hold' | 'warn',
    reason: string,
    subject: string,
  ): DueAlert => ({
    key: alertKey(id, phase, 'ramp', `${action}-${subject}`),
    experiment: id,
    name,
    phase,
    facts: {
      kind: 'ramp',
      action,
      reason,
      version,
      ...(watched.subject.kind === 'variant' ? {} : { subject: watched.subject.kind }),
    },
  });
  const due = warned.map((g) =>
    alert('warn', `${g.guardrail.replace('_', ' ')} (${g.detail})`, g.guardrail),
  );
  // A hold is told once per version it published (a person may resume it, then it holds again).
  if (move.kind === 'rollback') due.push(alert('rollback', move.reason, 'move'));
  else if (move.kind === 'hold') due.push(alert('hold', move.reason, version ?? 'move'));
  return due;
}

/** Looks at every live ramp once: the moves published, the alerts claimed. */
export async function runRamps(
  env: Bindings,
  config: FunnelConfig,
  run: AlertsRun,
): Promise<RampsRunSummary> {
  const summary: RampsRunSummary = { moved: 0, alerts: 0 };
  const stores = publishStoresOf(env);
  for (const watched of watchedRamps(config)) {
    const { subject, id, ramp } = watched;
    try {
      const results = await run.readResults(config, id);
      const reading =
        results === null ? null : rampReadingOf(watched, watched.plannedPerArm, results, run.now);
      if (reading === null) continue;
      const { move } = reading;
      let version: string | null = null;
      if (move.kind !== 'stay') {
        const note = noteOf(subject, move, ramp);
        const moved = movedRamp(ramp, move, run.now);
        version = await publishMove(stores, subject, ramp, moved, note, run.now);
        if (version === null) continue;
        summary.moved++;
        logLine({
          event: 'ramp_moved',
          experiment: id,
          subject: subject.kind,
          move: move.kind,
          version,
        });
      }
      const warned = reading.guardrails.filter((g) => g.broken && g.action === 'warn');
      summary.alerts += await recordAlerts(
        env,
        config.experiments.alerts?.webhook,
        dueAlerts(watched, move, warned, version),
        run.now,
      );
    } catch (error) {
      // One ramp's failure holds back no other's; the next run looks again.
      logError('ramp_run_failed', { experiment: id, detail: describeError(error) });
    }
  }
  return summary;
}
