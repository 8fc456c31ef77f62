import type { RampDocument } from '../../shared/config/ramp';
import type { Change } from '../../shared/console-api/versions';
import { DEFAULT_RAMP_ACTIONS, type RampAction, type RampGuardrail } from '../../shared/ramps';
import { words } from './copy-key-text';
import { enteringText, RAMP_ACTION_WORDS } from './ramp-line';
import { countText } from './result-texts';
import { valueText } from './value-text';

/**
 * A guarded ramp's changes in the review and History, in the words its fields and its card use
 * (the share that enters, half in each arm: ramp-line.ts): an experiment's, a roll-out's or a
 * route's, started, moved, held, rolled back or re-planned. The diff gives the whole ramp or one
 * leaf of it (worker/config/diff.ts); either reads as sentences, never as raw fields.
 */

const STATUS_WORDS: Record<RampDocument['state']['status'], string> = {
  running: 'running',
  held: 'held',
  rolled_back: 'rolled back',
  done: 'done',
};

const isRamp = (value: unknown): value is RampDocument =>
  typeof value === 'object' &&
  value !== null &&
  Array.isArray((value as RampDocument).steps) &&
  typeof (value as RampDocument).state === 'object';

type Step = RampDocument['steps'][number];

/** "5% enter (24 h, 500 exposed per arm)"; the last step as its share alone when it waits for nothing. */
function stepText(step: Step): string {
  const entering = `${enteringText(step.coverage)} enter`;
  if (step.holdHours === 0 && step.minPerArm === 0) return entering;
  return `${entering} (${step.holdHours} h, ${countText(step.minPerArm)} exposed per arm)`;
}

/** The steps in one line: "5% enter (24 h, 500 exposed per arm), then 25% enter (…), then 100% enter". */
export function rampPlanText(ramp: RampDocument): string {
  return ramp.steps.map(stepText).join(', then ');
}

/** Where the ramp stands: "step 2 of 3 (25% enter), running". */
function standingText(ramp: RampDocument): string {
  const step = ramp.steps[ramp.state.step];
  const share = step ? ` (${enteringText(step.coverage)} enter)` : '';
  return `step ${ramp.state.step + 1} of ${ramp.steps.length}${share}, ${STATUS_WORDS[ramp.state.status]}`;
}

/** A whole ramp changed: what of its plan, its guardrails and its standing moved. */
function wholeRampLines(name: string, before: RampDocument, after: RampDocument): string[] {
  const lines: string[] = [];
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  if (!same(before.steps, after.steps))
    lines.push(`${name}'s guarded ramp: ${rampPlanText(before)} → ${rampPlanText(after)}`);
  if (!same(before.guardrails, after.guardrails))
    lines.push(`${name}'s guarded ramp, its guardrails' actions changed`);
  if (before.state.step !== after.state.step || before.state.status !== after.state.status)
    lines.push(`${name}'s guarded ramp: ${standingText(before)} → ${standingText(after)}`);
  if (after.state.reason && after.state.reason !== before.state.reason)
    lines.push(`${name}'s guarded ramp, why: “${after.state.reason}”`);
  return lines.length > 0 ? lines : [`${name}'s guarded ramp: its state restamped`];
}

/** One step's field: "step 1: 5% → 10% enter", "step 2 holds 24 h → 4 h". */
function stepFieldText(index: number, field: string, change: Change): string {
  const step = `step ${index + 1}`;
  const [was, now] = [change.before, change.after];
  if (field === 'coverage' && typeof was === 'number' && typeof now === 'number')
    return `${step}: ${enteringText(was)} → ${enteringText(now)} enter`;
  if (field === 'holdHours') return `${step} holds ${valueText(was)} h → ${valueText(now)} h`;
  if (field === 'minPerArm')
    return `${step} waits for ${valueText(was)} → ${valueText(now)} exposed per arm`;
  return `${step}, ${words(field)}: ${valueText(was)} → ${valueText(now)}`;
}

/** A leaf of the ramp's state: its step, its status, why. */
function stateFieldText(field: string, change: Change): string {
  const [was, now] = [change.before, change.after];
  if (field === 'step' && typeof was === 'number' && typeof now === 'number')
    return `step ${was + 1} → step ${now + 1}`;
  if (field === 'status' && typeof now === 'string')
    return `${STATUS_WORDS[was as keyof typeof STATUS_WORDS] ?? valueText(was)} → ${STATUS_WORDS[now as keyof typeof STATUS_WORDS] ?? valueText(now)}`;
  if (field === 'reason') return now === undefined ? 'its reason cleared' : `why: “${String(now)}”`;
  return `${words(field)}: ${valueText(was)} → ${valueText(now)}`;
}

/** Within the ramp, at `deeper` (the path after `ramp`): a sentence. */
function leafText(deeper: string[], change: Change): string {
  const [area, key, field] = deeper;
  if (area === 'steps' && key !== undefined && field !== undefined)
    return stepFieldText(Number(key), field, change);
  if (area === 'steps' && Array.isArray(change.before) && Array.isArray(change.after))
    return `${change.before.map(stepText).join(', then ')} → ${change.after.map(stepText).join(', then ')}`;
  if (area === 'state' && key !== undefined) return stateFieldText(key, change);
  if (area === 'guardrails' && key !== undefined) {
    const byDefault = DEFAULT_RAMP_ACTIONS[key as RampGuardrail];
    const action = (side: unknown) =>
      RAMP_ACTION_WORDS[side as RampAction] ??
      (side === undefined && byDefault
        ? `${RAMP_ACTION_WORDS[byDefault]} (its default)`
        : valueText(side));
    return `when ${words(key)} breaks it ${action(change.before)} → ${action(change.after)}`;
  }
  return `${words(deeper.join('_'))}: ${valueText(change.before)} → ${valueText(change.after)}`;
}

/**
 * The lines of a change at or inside `name`'s ramp ("Experiment lp-ai", "Route tiktok",
 * "Experiment lp-ai's roll-out"); `deeper` is the path below `ramp`.
 */
export function rampChangeLines(name: string, deeper: string[], change: Change): string[] {
  if (deeper.length > 0) return [`${name}'s guarded ramp, ${leafText(deeper, change)}`];
  const { before, after } = change;
  if (change.kind === 'added' && isRamp(after))
    return [`${name} on a guarded ramp: ${rampPlanText(after)}; ${standingText(after)}`];
  if (change.kind === 'removed' && isRamp(before))
    return [`${name}'s guarded ramp removed (was ${rampPlanText(before)})`];
  if (isRamp(before) && isRamp(after)) return wholeRampLines(name, before, after);
  return [`${name}'s guarded ramp: ${valueText(before)} → ${valueText(after)}`];
}
