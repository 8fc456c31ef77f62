import { useEffect, useRef } from 'react';
import type { AlertsAnswer, InboxAlert } from '../../shared/console-api/alerts';
import { FailureNotice } from '../kit/FailureNotice';
import { StatusLine } from '../kit/StatusLine';
import { useStore } from '../kit/stores/atom';
import { timeText } from '../kit/time-text';
import { acknowledgedText, deliveryText } from './alert-text';
import {
  $acknowledgement,
  $alerts,
  $check,
  acknowledge,
  checkGuardrailsNow,
  loadAlerts,
} from './stores/alerts';
import { TestTraffic } from './TestTraffic';

/**
 * The alerts inbox (docs/operate-alerts.md): every alert the 15-minute check raised, newest
 * first, whether a webhook took it or none is set (as in development), each acknowledged once by
 * whoever reads it first, who and when then shown to everyone.
 */
export function Alerts({ rehearsal, simulation }: { rehearsal: boolean; simulation: boolean }) {
  const alerts = useStore($alerts);
  return (
    <section className="section" id="alerts" aria-labelledby="alerts-title">
      <h2 id="alerts-title">Alerts</h2>
      <p className="muted">
        What the 15-minute check raised: sample ratio mismatches, broken guardrails, guarded ramps
        that moved, the holdout, missed renewal reminders and publishes that broke the glass. Each
        is also posted to the alerts webhook when one is set.
      </p>
      <div className="actions">
        <button type="button" className="button" onClick={() => void loadAlerts()}>
          Refresh the alerts
        </button>
        {rehearsal ? <CheckNow /> : null}
      </div>
      <CheckStatus />
      {simulation ? <TestTraffic /> : null}
      {alerts.kind === 'loading' ? (
        <p className="muted" role="status">
          Loading the alerts…
        </p>
      ) : null}
      {alerts.kind === 'failed' ? <FailureNotice message={alerts.message} /> : null}
      {alerts.kind === 'ready' ? <Inbox answer={alerts.answer} /> : null}
    </section>
  );
}

/**
 * Development and staging only (ConsoleState.rehearsal): the 15-minute check now, so a guarded
 * ramp's rollback is watched in minutes rather than at the next quarter hour.
 */
function CheckNow() {
  return (
    <button type="button" className="button" onClick={() => void checkGuardrailsNow()}>
      Check the guardrails now
    </button>
  );
}

function CheckStatus() {
  const check = useStore($check);
  if (check === null) return null;
  if (check.kind === 'failed') return <FailureNotice message={check.text} />;
  return (
    <StatusLine
      id="alerts-check-status"
      status={check.kind === 'checking' ? 'Checking the guardrails…' : check.text}
    />
  );
}

function Inbox({ answer }: { answer: AlertsAnswer }) {
  if (answer.alerts.length === 0) {
    return <p className="muted">No alert so far.</p>;
  }
  return (
    <>
      <p>
        <strong>
          {answer.unacknowledged === 0
            ? 'Every alert is acknowledged.'
            : `${answer.unacknowledged} not acknowledged yet.`}
        </strong>
      </p>
      <ol className="rows" aria-label="Alerts, newest first">
        {answer.alerts.map((alert) => (
          <AlertCard key={alert.key} alert={alert} />
        ))}
      </ol>
    </>
  );
}

/** A DOM id from an alert's key, which holds `|` and other characters ids should not. */
const idOf = (key: string, part: string) =>
  `alert-${part}-${Array.from(key, (char) => char.codePointAt(0)?.toString(36)).join('-')}`;

function AlertCard({ alert }: { alert: InboxAlert }) {
  const acknowledgement = useStore($acknowledgement);
  const acknowledgedLine = useRef<HTMLParagraphElement>(null);
  const justAcknowledged =
    acknowledgement?.key === alert.key && acknowledgement.failure === null && alert.acknowledged;
  // The button is gone once pressed: the focus goes to the line that replaced it.
  useEffect(() => {
    if (justAcknowledged) acknowledgedLine.current?.focus();
  }, [justAcknowledged]);
  const titleId = idOf(alert.key, 'title');
  return (
    <li className="row" aria-labelledby={titleId}>
      <h3 className="card__title" id={titleId}>
        {alert.headline}
        {alert.acknowledged === null ? <span className="badge badge--paused">New</span> : null}
      </h3>
      <p className="muted">
        {timeText(alert.at)} · {alert.experiment}
        {alert.variant === null ? '' : ` · variant ${alert.variant}`}
      </p>
      <p>{alert.text}</p>
      <p className="muted">{deliveryText(alert)}</p>
      {alert.acknowledged === null ? (
        <div className="actions">
          <button
            type="button"
            className="button"
            aria-describedby={titleId}
            onClick={() => void acknowledge(alert.key)}
          >
            Acknowledge
          </button>
        </div>
      ) : (
        <p ref={acknowledgedLine} tabIndex={-1}>
          {acknowledgedText(alert)}
        </p>
      )}
      {acknowledgement?.key === alert.key && acknowledgement.failure !== null ? (
        <FailureNotice message={acknowledgement.failure} />
      ) : null}
    </li>
  );
}
