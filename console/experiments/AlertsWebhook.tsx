import { useId, useState } from 'react';
import { FieldProblem } from '../kit/field-problem';
import { setAlertsWebhook } from '../kit/stores/draft';

/** A Slack-compatible incoming webhook: https only, as the worker's schema requires. */
function webhookProblem(text: string): string | null {
  const value = text.trim();
  if (value === '') return null;
  try {
    return new URL(value).protocol === 'https:' ? null : 'Enter an https:// address.';
  } catch {
    return 'Enter the webhook’s whole address, starting https://.';
  }
}

/**
 * Where the experiments' alerts go: an SRM alarm, no exposures a day after the start, a guardrail
 * (declines, refunds) significantly worse. Into the draft like every other edit.
 */
export function AlertsWebhook({ webhook }: { webhook: string | undefined }) {
  const id = useId();
  const [text, setText] = useState(webhook ?? '');
  const problem = webhookProblem(text);
  return (
    <div className="block">
      <h3>Alerts</h3>
      <div className="field">
        <label htmlFor={`${id}-webhook`}>Alerts webhook (Slack-compatible, optional)</label>
        <input
          id={`${id}-webhook`}
          className="input"
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder="https://hooks.slack.com/services/…"
          value={text}
          aria-invalid={problem !== null || undefined}
          aria-describedby={`${id}-hint${problem ? ` ${id}-problem` : ''}`}
          onChange={(event) => {
            setText(event.target.value);
            if (webhookProblem(event.target.value) === null) setAlertsWebhook(event.target.value);
          }}
        />
        <p className="muted field__after" id={`${id}-hint`}>
          Alerts are posted here when a sample ratio alarm goes on, when a running experiment has
          exposed nobody 24 hours after its start, or when a variant makes payment declines or
          refunds significantly worse. Each is sent once. Empty: no alerts.
        </p>
        <FieldProblem id={`${id}-problem`} problem={problem} />
      </div>
    </div>
  );
}
