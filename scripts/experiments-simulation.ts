import { VITAL_METRICS } from '../shared/analytics/vitals';
import type {
  SimulationStarted,
  VariantTally,
  VitalsShifts,
} from '../shared/console-api/simulation';
import { decimalString } from '../shared/plans/money';
import { SIMULATED_CURRENCY } from '../worker/simulation/simulated-visitors';

/**
 * What `npm run experiments -- simulate` prints (experiments-cli.ts): the run's tallies, added
 * over its batches, as a table a marketer can hold against the console's Results. Pure.
 */

/** The table's columns: the label and what it reads of a variant's tally. */
const COLUMNS: readonly (readonly [label: string, read: (tally: VariantTally) => string])[] = [
  ['exposed', (t) => String(t.exposed)],
  ['lookup', (t) => String(t.lookup)],
  ['signup', (t) => String(t.signup)],
  ['checkout', (t) => String(t.checkout)],
  ['purchased', (t) => String(t.purchase)],
  ['upsells', (t) => String(t.upsell)],
  [`paid ${SIMULATED_CURRENCY}`, (t) => decimalString(t.paidMinor)],
  ['renewals', (t) => String(t.renewals)],
  ['refunds', (t) => String(t.refunds)],
  ['failed', (t) => String(t.renewalFailures)],
  ['recovered', (t) => String(t.recovered)],
  ['cancelled', (t) => String(t.cancellations)],
  [`net ${SIMULATED_CURRENCY}`, (t) => decimalString(t.netMinor)],
  ['vitals', (t) => String(t.vitals)],
  ['declined', (t) => String(t.declined)],
  ['errors', (t) => String(t.errors)],
];

/**
 * Left out when 0 for every variant: the steps a run may not draw (before the experiment's
 * trigger), and the harm only `--harm` asks for.
 */
const HIDDEN_WHEN_NONE = new Set([
  'lookup',
  'signup',
  'checkout',
  'purchased',
  'upsells',
  'declined',
  'errors',
]);

/** The tallies as a table: the variant left-aligned, the numbers right-aligned under their names. */
export function formatTallies(
  tallies: Record<string, VariantTally>,
  order: readonly string[],
): string {
  const variants = order.filter((variant) => tallies[variant] !== undefined);
  const columns = COLUMNS.filter(
    ([label, read]) =>
      !HIDDEN_WHEN_NONE.has(label) || variants.some((variant) => read(tallies[variant]!) !== '0'),
  );
  const table = [
    ['variant', ...columns.map(([label]) => label)],
    ...variants.map((variant) => [variant, ...columns.map(([, read]) => read(tallies[variant]!))]),
  ];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  return table
    .map((row) =>
      row
        .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** The lines after the table: what the mature view and a price test's verdict will have. */
export function matureNote(started: SimulationStarted): string {
  const mature = Math.round(started.visitors * started.matureShare);
  const lines = [
    `About ${mature} of them were exposed at least ${started.matureAfterDays} days ago (the longest intro + 3 days), so their renewals count in the mature view.`,
  ];
  if (started.countsFrom === 'upsell') {
    lines.push(
      'Each of them bought a main plan before the upsell exposed them: the results count the upsells (and any guide) they bought after it, and the planned sample counts these buyers.',
    );
  }
  if (started.priceTest) {
    const drawn = Object.values(started.shares).filter((share) => share > 0);
    const smallest = Math.round(mature * Math.min(...drawn));
    lines.push(
      `A price test: no verdict until every variant's mature sample reaches ${started.plannedPerArm}; this run matures about ${smallest} in its smallest variant.`,
    );
  }
  const window = started.now - (started.now % DAY_MS) - (started.days - 1) * DAY_MS;
  if (started.startedAt !== null && Date.parse(started.startedAt) > window) {
    lines.push(
      `It started on ${started.startedAt.slice(0, 10)}, after the first of these visitors were exposed: the results' Reach line, which counts first visits since the start, reads more exposed than "at most".`,
    );
  }
  return lines.join('\n');
}

/**
 * The line on the field vitals: which share of the visitors reported them (the worker's sample
 * rate, which the table's `vitals` column counts), and each variant's drawn slower or faster.
 */
export function vitalsNote(started: SimulationStarted, shifts: VitalsShifts): string {
  const percent = (share: number) => `${Math.round(share * 1000) / 10}%`;
  const rate = started.vitalsSampleRate;
  const who =
    rate === 0
      ? 'No field vitals: the worker samples no visitor (VITALS_SAMPLE_RATE=0).'
      : `Field vitals (the results' page speed; the vitals column) from ${percent(rate)} of them, the worker's VITALS_SAMPLE_RATE${rate < 1 ? ' (npm start -- --var VITALS_SAMPLE_RATE:1 samples every visitor)' : ''}`;
  const changes = started.variants.flatMap((variant) =>
    VITAL_METRICS.flatMap((metric) => {
      const change = shifts[variant]?.[metric];
      if (change === undefined || change === 0) return [];
      return [`${variant}'s ${metric.toUpperCase()} ${change > 0 ? '+' : ''}${change}%`];
    }),
  );
  if (rate === 0) return who;
  return `${who}; ${changes.length > 0 ? changes.join(', ') : 'every variant drawn alike'}.`;
}

const DAY_MS = 24 * 60 * 60 * 1000;
