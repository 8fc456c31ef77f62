import { minorDigits } from '../../shared/minor-units';
import type { AlertFacts, DueAlert } from './alert-rules';

/**
 * What a marketer reads in Slack (or any tool that takes Slack's incoming-webhook JSON): `text`,
 * which every such tool shows and Slack uses for notifications, and the same words as a `blocks`
 * section with a link to the experiment in the console. Written for the person who set the test
 * up, not for an engineer: what is wrong, why it matters, what to look at.
 */

export interface SlackMessage {
  text: string;
  blocks: (
    | { type: 'section'; text: { type: 'mrkdwn'; text: string } }
    | { type: 'context'; elements: { type: 'mrkdwn'; text: string }[] }
  )[];
}

/**
 * The console's page of one experiment in one phase, from the console's address as marketers
 * open it (CONSOLE_URL, e.g. https://funnel.example.com/console).
 */
export function consoleExperimentLink(
  consoleUrl: string,
  experiment: string,
  phase: number,
): string | null {
  // A mistyped CONSOLE_URL costs the link, never the alert.
  if (!URL.canParse(consoleUrl)) return null;
  const url = new URL(consoleUrl);
  url.searchParams.set('experiment', experiment);
  url.searchParams.set('phase', String(phase));
  url.hash = 'results';
  return url.toString();
}

/** Slack reads `&`, `<` and `>` as markup: a name holding them must not make a link or a mention. */
function escaped(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

const percent = (rate: number) => `${(Math.round(rate * 1000) / 10).toLocaleString('en-US')}%`;
const signedPercent = (rate: number) => `${rate >= 0 ? '+' : ''}${percent(rate)}`;

/** SRM p-values are tiny when the alarm is on: a marketer needs the order, not the digits. */
const pText = (p: number) => (p < 0.001 ? 'p below 0.001' : `p = ${p.toFixed(3)}`);

function whatIsWrong(facts: AlertFacts): string {
  switch (facts.kind) {
    case 'srm': {
      const arms = facts.arms
        .map(
          (arm) =>
            `${escaped(arm.variant)} ${arm.exposed.toLocaleString('en-US')} (weights: ${percent(arm.share)})`,
        )
        .join(', ');
      return `its visitors are not split as its weights say (sample ratio mismatch, ${pText(facts.pValue)}): ${arms}. Something counts or assigns visitors unevenly, so its results cannot be trusted until the cause is found; no verdict is shown meanwhile.`;
    }
    case 'no_exposures':
      return `it has been running for ${facts.hours} hours (since ${facts.startedAt}) and has exposed no visitor. Check its routes, audience and coverage, and that its variants differ on a screen its visitors reach.`;
    case 'guardrail_declines':
    case 'guardrail_refunds': {
      const what =
        facts.kind === 'guardrail_declines'
          ? 'has more payments declined'
          : 'has more payments refunded or charged back';
      const shown = [
        ...(facts.relativeLift === null ? [] : [signedPercent(facts.relativeLift)]),
        ...(facts.interval === null
          ? []
          : [
              `interval ${signedPercent(facts.interval[0])} to ${signedPercent(facts.interval[1])}`,
            ]),
      ];
      const lift = shown.length === 0 ? '' : ` (${shown.join(', ')})`;
      const name = facts.variantName === facts.variant ? '' : ` (${escaped(facts.variantName)})`;
      return `variant "${escaped(facts.variant)}"${name} ${what} than the control, significantly: ${percent(facts.rate)} of its exposed visitors against ${percent(facts.controlRate)}${lift}. Consider pausing it.`;
    }
    case 'guardrail_lcp':
    case 'guardrail_inp':
      return vitalText(facts);
    case 'ramp':
      return rampText(facts);
    case 'holdout_srm':
    case 'holdout_worse':
      return holdoutText(facts);
    case 'break_glass':
      return `${facts.history === 'copy' ? 'copy version' : 'config version'} ${escaped(facts.version)} was published by ${escaped(facts.author)} without a second person's approval (break glass): "${escaped(facts.reason)}". Look at it in the console's History; roll it back there if it should not stand.`;
    case 'reminders_missed':
      return `${facts.missed.toLocaleString('en-US')} renewal reminder(s) due were not asked of the product API before the charge they announce (${facts.day}, UTC): those subscribers were charged without the reminder Visa and the US states' laws ask for. The worker's log has each as reminder_missed, and why the asks failed (reminder_ask_failed, reminders_not_configured).`;
  }
}

const RAMP_DONE = {
  rollback:
    'rolled back its variant: new visitors and those exposed to it get the control, and every exposure stays counted',
  hold: 'held its ramp at its step until someone resumes it',
  warn: 'found a guardrail broken (set to warn: the ramp goes on)',
} as const;

/** A rollback of a roll-out's or a route's ramp, in what it did to whom. */
const ROLLED_BACK = {
  roll_out:
    'rolled back its roll-out: everyone is on the control again, and every exposure stays counted',
  route:
    'rolled back the route: it takes no one, its visitors get the route they would have got without it, and every exposure stays counted',
} as const;

function rampText(facts: Extract<AlertFacts, { kind: 'ramp' }>): string {
  const version = facts.version === null ? '' : ` (config version ${escaped(facts.version)})`;
  const done =
    facts.action === 'rollback' && facts.subject !== undefined
      ? ROLLED_BACK[facts.subject]
      : RAMP_DONE[facts.action];
  return `its guarded ramp ${done}${version}: ${escaped(facts.reason)}.`;
}

const HOLDOUT_KINDS: ReadonlySet<AlertFacts['kind']> = new Set(['holdout_srm', 'holdout_worse']);

/** The alert's subject: the experiment, or a ramped route (which has no page to link to). */
function subjectOf(alert: DueAlert): { text: string; linked: boolean } {
  if (alert.facts.kind === 'reminders_missed' || alert.facts.kind === 'break_glass')
    return { text: '', linked: false };
  if (HOLDOUT_KINDS.has(alert.facts.kind))
    return { text: `${escaped(alert.name)}: `, linked: true };
  if (alert.facts.kind === 'ramp' && alert.facts.subject === 'route')
    return { text: `${escaped(alert.name)} (${escaped(alert.experiment)}): `, linked: false };
  return {
    text: `Experiment "${escaped(alert.name)}" (${escaped(alert.experiment)}, phase ${alert.phase}): `,
    linked: true,
  };
}

/** Money per visitor, from minor units of `currency` (none known: minor units as cents). */
function perVisitor(minor: number, currency: string | null): string {
  const major = minor / 10 ** (currency === null ? 2 : (minorDigits(currency) ?? 2));
  return `${major.toFixed(2)}${currency === null ? '' : ` ${currency}`}`;
}

/** The holdout's alerts (./holdout-alerts.ts): its groups uneven, or the shipped winners costing. */
function holdoutText(facts: Extract<AlertFacts, { kind: 'holdout_srm' | 'holdout_worse' }>) {
  if (facts.kind === 'holdout_srm') {
    const groups = facts.arms
      .map((arm) => `${escaped(arm.variant)} ${arm.exposed.toLocaleString('en-US')}`)
      .join(', ');
    return `its held-out group and its measured sample should be the same size and are not (sample ratio mismatch, ${pText(facts.pValue)}): ${groups}. Something draws or counts one group more than the other, so its results cannot be trusted until the cause is found; no verdict is shown meanwhile.`;
  }
  const shown = [
    ...(facts.relativeLift === null ? [] : [signedPercent(facts.relativeLift)]),
    ...(facts.interval === null
      ? []
      : [`interval ${signedPercent(facts.interval[0])} to ${signedPercent(facts.interval[1])}`]),
  ];
  const lift = shown.length === 0 ? '' : ` (${shown.join(', ')})`;
  const [held, measured] = facts.matureExposed.map((n) => n.toLocaleString('en-US'));
  return `the measured sample, which gets every winner shipped since the holdout started, makes less mature net revenue per visitor than the held out, significantly: ${perVisitor(facts.mean, facts.currency)} against ${perVisitor(facts.controlMean, facts.currency)}${lift}, over ${measured} and ${held} mature visitors. Together those winners cost revenue: read the results of the experiments shipped since, and consider archiving the latest rolled out.`;
}

const ms = (value: number) => `${Math.round(value).toLocaleString('en-US')} ms`;

function vitalText(facts: Extract<AlertFacts, { kind: 'guardrail_lcp' | 'guardrail_inp' }>) {
  const what =
    facts.kind === 'guardrail_lcp'
      ? 'loads its pages slower (Largest Contentful Paint)'
      : 'answers taps and clicks slower (Interaction to Next Paint)';
  const name = facts.variantName === facts.variant ? '' : ` (${escaped(facts.variantName)})`;
  const [lower, upper] = facts.interval;
  return `variant "${escaped(facts.variant)}"${name} ${what} than the control, significantly: 75th percentile ${ms(facts.p75)} against ${ms(facts.controlP75)} over ${facts.samples.toLocaleString('en-US')} sampled visitors (difference +${ms(lower)} to +${ms(upper)}). Check what it adds to the page (a larger picture, a section above the fold) before it wins on a slower page.`;
}

const HEADLINES: Record<AlertFacts['kind'], string> = {
  srm: 'Sample ratio mismatch',
  no_exposures: 'No visitors exposed',
  guardrail_declines: 'Payment declines up',
  guardrail_refunds: 'Refunds up',
  guardrail_lcp: 'Pages load slower',
  guardrail_inp: 'Pages answer slower',
  reminders_missed: 'Renewal reminders missed',
  ramp: 'Guarded ramp',
  holdout_srm: 'Holdout: sample ratio mismatch',
  holdout_worse: 'Holdout: shipped winners cost revenue',
  break_glass: 'Published without approval',
};

/** The message for `alert`, linking to the console when its address is known. */
export function alertMessage(alert: DueAlert, consoleUrl: string | null): SlackMessage {
  // The reminders are no experiment's and a route's ramp has no page: nothing to link to.
  const subject = subjectOf(alert);
  const body = `*${HEADLINES[alert.facts.kind]}*: ${subject.text}${whatIsWrong(alert.facts)}`;
  const link =
    consoleUrl === null || !subject.linked
      ? null
      : consoleExperimentLink(consoleUrl, alert.experiment, alert.phase);
  const text = link === null ? body : `${body} <${link}|Open it in the console>`;
  return {
    text,
    blocks: [
      { type: 'section', text: { type: 'mrkdwn', text } },
      {
        type: 'context',
        elements: [{ type: 'mrkdwn', text: `Geofunnel alert, sent once: ${escaped(alert.key)}` }],
      },
    ],
  };
}

/** Slack's escapes undone: the inverse of `escaped`. */
const unescaped = (value: string) =>
  value.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');

/**
 * An alert as the console's inbox shows it, from the message posted (or that would have been):
 * its headline, and its words without Slack's markup or the link to the console, which the
 * console does not need. A body it cannot read (none is written but by alertMessage) reads as
 * its kind alone.
 */
export function inboxWords(kind: string, body: string): { headline: string; text: string } {
  const headline = Object.hasOwn(HEADLINES, kind) ? HEADLINES[kind as AlertFacts['kind']] : kind;
  let text = '';
  try {
    const posted = JSON.parse(body) as Partial<SlackMessage>;
    text = typeof posted.text === 'string' ? posted.text : '';
  } catch {
    // Left empty: the headline still says what happened.
  }
  const words = text
    .replace(/^\*[^*]*\*: /, '')
    .replace(/ <[^|>]*\|[^>]*>$/, '')
    .trim();
  return { headline, text: unescaped(words) };
}
