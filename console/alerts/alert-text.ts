import type { GuardrailsCheckAnswer, InboxAlert } from '../../shared/console-api/alerts';
import type { VariantTally } from '../../shared/console-api/simulation';
import { timeText } from '../kit/time-text';

/** Where the alert went, in a marketer's words. */
export function deliveryText({ delivery }: InboxAlert): string {
  switch (delivery.state) {
    case 'sent':
      return `Sent to the webhook${delivery.sentAt === null ? '' : ` ${timeText(delivery.sentAt)}`}.`;
    case 'pending':
      return delivery.attempts === 0
        ? 'Waiting to be sent to the webhook.'
        : `Not taken by the webhook yet (${attemptsText(delivery.attempts)}${lastAnswerText(delivery)}); tried again on its schedule.`;
    case 'given_up':
      return `The webhook never took it (${attemptsText(delivery.attempts)}${lastAnswerText(delivery)}): only this inbox has it.`;
    case 'inbox':
      return 'No webhook was set when it was raised: only this inbox has it.';
  }
}

const attemptsText = (attempts: number) => (attempts === 1 ? '1 attempt' : `${attempts} attempts`);

function lastAnswerText(delivery: InboxAlert['delivery']): string {
  if (delivery.lastStatus !== null) return `, last answer HTTP ${delivery.lastStatus}`;
  return delivery.lastError === null ? '' : `, ${delivery.lastError}`;
}

/** The count beside the menu's link: nothing when all are read. */
export function newAlertsText(unacknowledged: number): string {
  return unacknowledged === 0 ? '' : ` (${unacknowledged} new)`;
}

/** Who acknowledged it and when, or that nobody has yet. */
export function acknowledgedText(alert: InboxAlert): string {
  return alert.acknowledged === null
    ? 'Not acknowledged yet.'
    : `Acknowledged by ${alert.acknowledged.by} on ${timeText(alert.acknowledged.at)}.`;
}

/** A count in words, its thousands grouped as the sending line groups them ("1,500 purchases"). */
const counted = (n: number, one: string, many: string) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** What a check run on demand did, read out after it. */
export function checkText(answer: GuardrailsCheckAnswer): string {
  const moves =
    answer.rampMoves === null
      ? 'the guarded ramps could not be read (the log says why)'
      : counted(answer.rampMoves, 'guarded ramp moved', 'guarded ramps moved');
  const raised = counted(answer.raised, 'new alert', 'new alerts');
  return `Checked just now: ${moves}, ${raised}, ${answer.sent} sent to the webhook.`;
}

/** What a run of test traffic wrote, variant by variant. */
export function trafficText(
  experiment: string,
  variants: readonly string[],
  tallies: Record<string, VariantTally>,
): string {
  const total = variants.reduce((sum, variant) => sum + (tallies[variant]?.exposed ?? 0), 0);
  const arms = variants.map((variant) => {
    const tally = tallies[variant];
    if (tally === undefined) return `${variant}: none`;
    return `${variant}: ${tally.exposed.toLocaleString('en-US')} exposed, ${counted(tally.purchase, 'purchase', 'purchases')}, ${counted(tally.declined, 'declined payment', 'declined payments')}, ${counted(tally.errors, 'failing script', 'failing scripts')}`;
  });
  return `Sent ${counted(total, 'test visitor', 'test visitors')} to ${experiment}. ${arms.join('; ')}.`;
}
