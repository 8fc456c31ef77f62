import type { AlertsAnswer } from '../../../shared/console-api/alerts';
import { atom } from '../../kit/stores/atom';
import { type Loaded, loadedFrom, refusalText } from '../../kit/stores/loaded';
import { loadConsole } from '../../kit/stores/publishing';
import { checkText } from '../alert-text';
import { fetchAlerts, postAcknowledgement, postGuardrailsCheck } from '../alerts-api';

/**
 * The alerts inbox as the worker last answered it, read with the console (a handful of rows a
 * day, and the menu says how many are new) and again on Refresh.
 */
export const $alerts = atom<Loaded<{ answer: AlertsAnswer }>>({ kind: 'loading' });

/** What the last acknowledgement did, read out where it was pressed; null before any. */
export const $acknowledgement = atom<{ key: string; failure: string | null } | null>(null);

export async function loadAlerts(): Promise<void> {
  $alerts.set({ kind: 'loading' });
  const answer = await fetchAlerts();
  $alerts.set(loadedFrom(answer, (value) => ({ answer: value })));
}

/**
 * Acknowledges `key` as the signed-in marketer: the alert then reads who and when (whoever was
 * first, should two press it), and the count of new ones drops.
 */
export async function acknowledge(key: string): Promise<void> {
  const answer = await postAcknowledgement({ key });
  if (!answer.ok) {
    $acknowledgement.set({ key, failure: refusalText(answer.refusal) });
    return;
  }
  const current = $alerts.get();
  if (current.kind === 'ready') {
    const was = current.answer.alerts.find((alert) => alert.key === key);
    const newlyDone = was !== undefined && was.acknowledged === null ? 1 : 0;
    $alerts.set({
      kind: 'ready',
      answer: {
        alerts: current.answer.alerts.map((alert) =>
          alert.key === key ? answer.value.alert : alert,
        ),
        unacknowledged: Math.max(0, current.answer.unacknowledged - newlyDone),
      },
    });
  }
  $acknowledgement.set({ key, failure: null });
}

/** What the last "Check the guardrails now" did, or is doing; null before any. */
export const $check = atom<
  { kind: 'checking' } | { kind: 'done'; text: string } | { kind: 'failed'; text: string } | null
>(null);

/**
 * Runs the 15-minute check now (development and staging): then the inbox, and where a ramp
 * moved the whole console (a move is a published version), are read again.
 */
export async function checkGuardrailsNow(): Promise<void> {
  // A second press while one runs adds nothing: the button stays where it is, and its focus.
  if ($check.get()?.kind === 'checking') return;
  $check.set({ kind: 'checking' });
  const answer = await postGuardrailsCheck();
  if (!answer.ok) {
    $check.set({ kind: 'failed', text: refusalText(answer.refusal) });
    return;
  }
  await Promise.all([loadAlerts(), answer.value.rampMoves ? loadConsole() : undefined]);
  $check.set({ kind: 'done', text: checkText(answer.value) });
}
