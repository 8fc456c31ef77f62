import {
  logNormalMixture,
  mixtureRho,
  normalMixtureBound,
} from '../../../shared/statistics/normal-mixture';

/**
 * The statistics a guarded ramp acts on (docs/statistics.md, "Guarded ramps"): always-valid tests
 * on the normal mixture the results use (shared/statistics/normal-mixture.ts), so the engine may
 * look at every cron run, every 15 minutes, and still roll a sound variant back at most at the
 * rate it was given. Each test's α is its share of the ramp's (ramp-engine.ts splits it).
 */

/** Exposed visitors in an arm, and how many of them had the event (a decline, a refund). */
export interface ArmEvents {
  exposed: number;
  events: number;
}

/** No harm is judged before each arm has this many exposed and both arms this many events. */
const HARM_MIN_EXPOSED = 100;
const HARM_MIN_EVENTS = 10;

/** The outcome of one test at one look: whether it is broken, and its always-valid p-value. */
export interface TestReading {
  broken: boolean;
  /** 1 / the mixture's e-value: below α exactly when broken (1 while not judged). */
  pValue: number;
  /** What the reading says, for the alert and the CLI: the rates, or why not judged yet. */
  detail: string;
}

const percent = (rate: number) => `${(rate * 100).toFixed(2)}%`;

/**
 * A one-sided harm test on a rate: is the variant's rate of the event above the control's? The
 * difference over its standard error under "no difference" (the pooled rate's), in the mixture's
 * unit-variance time n = both arms' exposed: broken once the statistic reaches the two-sided
 * boundary at `alpha` on the harmful side. The two-sided boundary bounds both sides' crossings
 * together by α, so the harmful side alone by α too (it gives up a little power for a bound that
 * needs no asymptotic one-sided mixture). A variant with fewer events than its control never
 * breaks it, however often it is looked at.
 */
export function harmTest(
  control: ArmEvents,
  variant: ArmEvents,
  alpha: number,
  tunedPerArm: number,
): TestReading {
  const rates = `${percent(variant.events / Math.max(1, variant.exposed))} against ${percent(control.events / Math.max(1, control.exposed))}`;
  if (
    control.exposed < HARM_MIN_EXPOSED ||
    variant.exposed < HARM_MIN_EXPOSED ||
    control.events + variant.events < HARM_MIN_EVENTS
  )
    return { broken: false, pValue: 1, detail: `${rates}, too few to judge yet` };
  const n = control.exposed + variant.exposed;
  const pooled = (control.events + variant.events) / n;
  const difference = variant.events / variant.exposed - control.events / control.exposed;
  const standardError = Math.sqrt(
    pooled * (1 - pooled) * (1 / control.exposed + 1 / variant.exposed),
  );
  if (!(standardError > 0)) return { broken: false, pValue: 1, detail: rates };
  const rho = mixtureRho(2 * tunedPerArm, alpha);
  const z = difference / standardError;
  const s = Math.sqrt(n) * z;
  const pValue = z > 0 ? Math.min(1, Math.exp(-logNormalMixture(s, n, rho))) : 1;
  const broken = z > 0 && s >= normalMixtureBound(n, alpha, rho);
  return { broken, pValue, detail: rates };
}

/**
 * A one-sided shortfall test on a conversion rate: is the variant's rate of converting below the
 * control's? The harm test on its complement (the visitors who did not convert), so the same
 * boundary, minimums and α; the detail says the conversion rates. A variant that converts as
 * often as its control or more never breaks it.
 */
export function shortfallTest(
  control: ArmEvents,
  variant: ArmEvents,
  alpha: number,
  tunedPerArm: number,
): TestReading {
  const missed = (arm: ArmEvents) => ({ exposed: arm.exposed, events: arm.exposed - arm.events });
  const reading = harmTest(missed(control), missed(variant), alpha, tunedPerArm);
  const rate = (arm: ArmEvents) => percent(arm.events / Math.max(1, arm.exposed));
  const rates = `${rate(variant)} converted against ${rate(control)}`;
  const judged = control.exposed >= HARM_MIN_EXPOSED && variant.exposed >= HARM_MIN_EXPOSED;
  return { ...reading, detail: judged ? rates : `${rates}, too few to judge yet` };
}

/**
 * The ramp's sample-ratio check, always valid: each exposure is +1 in the variant and −1 in the
 * control, unit variance when the arms are drawn half and half as the ramp's equal bands draw
 * them, so the sum is the difference of the counts at time = their total; broken once it reaches
 * the two-sided boundary at `alpha` (Lindon and Malek's sequential SRM test on the same mixture).
 * The results' own check (p < 0.001 at each look) alarms in 1–4% of sound phases looked at a
 * hundred to a few thousand times; this one at most `alpha` of them however often it is looked at.
 */
export function sampleRatioTest(
  control: number,
  variant: number,
  alpha: number,
  tunedPerArm: number,
): TestReading {
  const n = control + variant;
  const detail = `${variant.toLocaleString('en-US')} exposed in the variant, ${control.toLocaleString('en-US')} in the control`;
  if (n < 2 * HARM_MIN_EXPOSED) return { broken: false, pValue: 1, detail };
  const rho = mixtureRho(2 * tunedPerArm, alpha);
  const s = variant - control;
  const pValue = Math.min(1, Math.exp(-logNormalMixture(s, n, rho)));
  return { broken: Math.abs(s) >= normalMixtureBound(n, alpha, rho), pValue, detail };
}
