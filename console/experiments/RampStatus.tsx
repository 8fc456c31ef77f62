import { type ReactNode, useId } from 'react';
import type { RampStatusAnswer } from '../../shared/console-api/ramp-status';
import { utcMinuteText } from '../../shared/utc-minute';
import {
  enteringText,
  gateText,
  RAMP_ACTION_WORDS,
  type RampSubject,
  SUBJECT_WORDS,
} from '../kit/ramp-line';
import { TableScroll } from '../results/TableScroll';
import { GUARDRAIL_NAMES } from './ramp-form';

/**
 * A guarded ramp on the experiment's results (docs/experiments.md, "Guarded ramps"), read-only:
 * where it stands and why, what its next step waits for, and each guardrail's action and state
 * at this look, as the cron's engine reads them every 15 minutes; `children` are what can be done
 * with it (RampSteer.tsx: hold, resume, roll back).
 */

const STATUS_WORDS: Record<RampStatusAnswer['status'], string> = {
  running: 'Running',
  held: 'Held',
  rolled_back: 'Rolled back',
  done: 'Done',
};

/** Where the ramp stands, in a sentence. */
function standingText(ramp: RampStatusAnswer, subject: RampSubject): string {
  const words = SUBJECT_WORDS[subject];
  const step = `step ${ramp.step + 1} of ${ramp.steps}`;
  if (ramp.status === 'rolled_back')
    return `Rolled back at ${step} (${utcMinuteText(ramp.since)}): ${words.none}, and every exposure recorded stays in these results.`;
  const share = `${enteringText(ramp.coverage)} of its visitors enter, half getting ${words.gets} and half ${words.against}`;
  return `${STATUS_WORDS[ramp.status]}, ${step} since ${utcMinuteText(ramp.since)}: ${share}.`;
}

/** The ramp's section of the experiment's results. */
export function RampStatus({
  ramp,
  subject = 'variant',
  title = 'Guarded ramp',
  children,
}: {
  ramp: RampStatusAnswer;
  subject?: RampSubject;
  /** Its heading: the page may show more than one ramp (the routes'). */
  title?: string;
  children?: ReactNode;
}) {
  const gate = ramp.gate === null ? null : gateText(ramp.gate);
  const id = useId();
  const titleId = `${id}-title`;
  const captionId = `${id}-guardrails`;
  return (
    <section className="ramp-status" aria-labelledby={titleId}>
      <h4 id={titleId}>{title}</h4>
      <p>{standingText(ramp, subject)}</p>
      {ramp.reason ? <p>Reason: {ramp.reason}</p> : null}
      {gate ? <p>Next gate: {gate}</p> : null}
      {children}
      <TableScroll labelledBy={captionId}>
        <table className="results-table">
          <caption id={captionId}>
            Guardrails of the ramp, each tested at α = {ramp.alpha.toFixed(4)} every 15 minutes
          </caption>
          <thead>
            <tr>
              <th scope="col">Guardrail</th>
              <th scope="col">When broken, it</th>
              <th scope="col">State</th>
              <th scope="col">What it sees</th>
            </tr>
          </thead>
          <tbody>
            {ramp.guardrails.map((g) => (
              <tr key={g.guardrail}>
                <th scope="row">{GUARDRAIL_NAMES[g.guardrail]}</th>
                <td>{RAMP_ACTION_WORDS[g.action]}</td>
                <td>
                  <span className={g.broken ? 'verdict verdict--worse' : undefined}>
                    {g.broken ? 'Broken' : 'OK'}
                  </span>
                </td>
                <td>{g.detail}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </section>
  );
}
