import type { ExperimentDocument } from '../shared/config/experiments';
import type { RampDocument } from '../shared/config/ramp';
import {
  DEFAULT_NO_TRAFFIC_HOURS,
  RAMP_ACTIONS,
  RAMP_GUARDRAILS,
  type RampAction,
  type RampGuardrail,
} from '../shared/ramps';
import { liveInEffect } from '../worker/config/publish';
import { personRampMove } from '../worker/experiments/ramps/ramp-edits';
import { actionsOf, guardrailAlpha } from '../worker/experiments/ramps/ramp-engine';
import {
  EXIT_OK,
  fail,
  type ParsedArgs,
  parseStoreArgs,
  readArgs,
  STORE_OPTIONS_USAGE,
  type StoreOptions,
} from './cli';
import { publishFromCli, withConfigStores } from './config-stores';

/**
 * `npm run experiments -- ramp …` (docs/experiments.md, "Guarded ramps"): a ramp's state and
 * its next gate, and what a person does to it: set it on a draft, hold it, resume it, roll it
 * back. Each change is published as a config version with source `cli`, as `npm run config --
 * set` publishes, so the one validator judges it and the history keeps it with its reason.
 */

/** `npm run experiments -- ramp --help`. */
export const RAMP_CLI_USAGE = `Usage: npm run experiments -- ramp <command> <experiment id> [options]

Commands:
  show       the ramp's step, status and reason, its next gate, and each guardrail's action
  set        give a draft experiment a ramp: --steps (and --guardrails); it starts at step 0
  hold       hold it at its step until resumed (--reason)
  resume     let a held ramp go on from its step (--reason)
  rollback   take the variant from everyone, for good (--reason); duplicate it to try again

Options:
  --steps <steps>          "<coverage>:<hours>:<min per arm>,...", e.g. 0.05:24:500,0.25:24:2000,0.5:0:0;
                           coverage is the variant's share (at most 0.5), the control gets as much
  --guardrails <actions>   "<guardrail>=<action>,...", guardrails ${RAMP_GUARDRAILS.join(', ')};
                           actions ${RAMP_ACTIONS.join(', ')} (lcp and inp: hold or warn)
  --reason <text>          why, kept as the ramp's reason and the version's note
${STORE_OPTIONS_USAGE}`;

const RAMP_COMMANDS = ['show', 'set', 'hold', 'resume', 'rollback'] as const;
type RampCommandName = (typeof RAMP_COMMANDS)[number];

/** One `ramp` command as read from the command line. */
export interface RampCommand {
  name: RampCommandName;
  experiment: string;
  steps: RampDocument['steps'] | null;
  guardrails: Partial<Record<RampGuardrail, RampAction>> | null;
  reason: string | null;
}

const RAMP_OPTIONS = {
  steps: { type: 'string' },
  guardrails: { type: 'string' },
  reason: { type: 'string' },
} as const;

/** `--steps`: each `coverage:hours:minPerArm`; the schema checks the values and their order. */
function parseSteps(text: string): RampDocument['steps'] | string {
  const steps: RampDocument['steps'] = [];
  for (const part of text.split(',')) {
    const numbers = part.split(':').map((value) => Number(value.trim()));
    if (numbers.length !== 3 || numbers.some((n) => !Number.isFinite(n)) || part.trim() === '')
      return `"${part}" is not <coverage>:<hours>:<min per arm>, such as 0.05:24:500`;
    const [coverage, holdHours, minPerArm] = numbers as [number, number, number];
    steps.push({ coverage, holdHours, minPerArm });
  }
  return steps;
}

/** `--guardrails`: each `guardrail=action`. */
function parseGuardrails(text: string): Partial<Record<RampGuardrail, RampAction>> | string {
  const actions: Partial<Record<RampGuardrail, RampAction>> = {};
  for (const pair of text.split(',')) {
    const [guardrail = '', action = ''] = pair.split('=').map((part) => part.trim());
    if (!(RAMP_GUARDRAILS as readonly string[]).includes(guardrail))
      return `"${guardrail}" is not one of ${RAMP_GUARDRAILS.join(', ')}`;
    if (!(RAMP_ACTIONS as readonly string[]).includes(action))
      return `${guardrail}: "${action}" is not one of ${RAMP_ACTIONS.join(', ')}`;
    actions[guardrail as RampGuardrail] = action as RampAction;
  }
  return actions;
}

/** The words after `npm run experiments --`, `ramp` first. */
export function parseRampArgs(argv: readonly string[]): ParsedArgs<RampCommand> {
  const parsed = readArgs(argv, RAMP_OPTIONS);
  if (!parsed.ok) return { kind: 'usage-error', error: parsed.error };
  const { values, positionals } = parsed;
  const store = parseStoreArgs([
    ...(values.help ? ['--help'] : []),
    ...(values.remote ? ['--remote'] : []),
    ...(values.env === undefined ? [] : [`--env=${values.env}`]),
    ...(values['persist-to'] === undefined ? [] : [`--persist-to=${values['persist-to']}`]),
    '--',
    ...positionals.slice(1),
  ]);
  if (store.kind !== 'command') return store;
  const name = store.name as RampCommandName;
  if (!RAMP_COMMANDS.includes(name))
    return { kind: 'usage-error', error: `unknown ramp command "${store.name}"` };
  const [experiment, ...extra] = store.rest;
  if (experiment === undefined || extra.length > 0)
    return { kind: 'usage-error', error: `ramp ${name} takes one experiment id` };
  const steps = values.steps === undefined ? null : parseSteps(values.steps);
  if (typeof steps === 'string') return { kind: 'usage-error', error: `--steps: ${steps}` };
  if ((name === 'set') !== (steps !== null))
    return { kind: 'usage-error', error: '--steps: set takes them, and only set' };
  const guardrails = values.guardrails === undefined ? null : parseGuardrails(values.guardrails);
  if (typeof guardrails === 'string')
    return { kind: 'usage-error', error: `--guardrails: ${guardrails}` };
  const reason = values.reason?.trim() || null;
  if (reason === null && (name === 'hold' || name === 'resume' || name === 'rollback'))
    return { kind: 'usage-error', error: `--reason: ramp ${name} says why` };
  return {
    kind: 'run',
    command: { name, experiment, steps, guardrails, reason },
    options: store.options,
  };
}

const HOUR_MS = 60 * 60 * 1000;
const share = (coverage: number) => `${Math.round(coverage * 1000) / 10}%`;

/** What `ramp show` prints of experiment `id`'s ramp: a few lines a marketer reads. */
export function rampStatusText(id: string, experiment: ExperimentDocument): string {
  const { ramp } = experiment;
  if (ramp === undefined) return `"${id}" has no ramp: give a draft one with ramp set`;
  const { state, steps } = ramp;
  const step = steps[state.step]!;
  const lines = [
    `Ramp of "${id}" (${experiment.status}): ${state.status}, step ${state.step + 1} of ${steps.length}, since ${state.since}`,
    state.status === 'rolled_back'
      ? '  The variant reaches no one; every exposure recorded stays in the results.'
      : `  ${share(step.coverage)} of its visitors get the variant, as many the control`,
  ];
  if (state.reason !== undefined) lines.push(`  Reason: ${state.reason}`);
  if (state.status === 'running') {
    const since = Math.max(
      Date.parse(state.since),
      experiment.startedAt === undefined ? 0 : Date.parse(experiment.startedAt),
    );
    const next = steps[state.step + 1];
    lines.push(
      `Next gate: ${next === undefined ? 'done (the last step)' : `step ${state.step + 2} (${share(next.coverage)})`} once ${new Date(since + step.holdHours * HOUR_MS).toISOString()} has passed, each arm has ${step.minPerArm.toLocaleString('en-US')} exposed, and no guardrail that holds or rolls back is broken`,
    );
  }
  const actions = actionsOf(ramp);
  lines.push(
    `Guardrails (each tested at α = ${guardrailAlpha(ramp).toFixed(4)}, every 15 minutes): ${RAMP_GUARDRAILS.map((g) => `${g} ${actions[g]}`).join(', ')}; no traffic judged ${ramp.noTrafficHours ?? DEFAULT_NO_TRAFFIC_HOURS} h after the start`,
    "  Whether each is broken now is in the experiment's results in the console, and in the alerts.",
  );
  return lines.join('\n');
}

/** The experiment with the command's change made to its ramp, or why it cannot be. */
function changed(
  command: RampCommand,
  experiment: ExperimentDocument,
  now: number,
): ExperimentDocument | string {
  const reason = command.reason ?? '';
  if (command.name === 'set') {
    const ramp: RampDocument = {
      steps: command.steps!,
      ...(command.guardrails === null ? {} : { guardrails: command.guardrails }),
      state: {
        step: 0,
        since: new Date(now).toISOString(),
        status: 'running',
        ...(reason ? { reason } : {}),
      },
    };
    return { ...experiment, ramp };
  }
  if (command.name === 'show') return 'show changes nothing';
  if (experiment.ramp === undefined) return `"${command.experiment}" has no ramp`;
  return personRampMove(experiment, command.name, reason, now);
}

/** Runs `ramp <command>` against the stores `options` name. */
export function runRamp(command: RampCommand, options: StoreOptions): Promise<number> {
  return withConfigStores(options, async (stores) => {
    const live = await liveInEffect(stores.live);
    const experiment = live.experiments.experiments[command.experiment];
    if (experiment === undefined)
      return fail(`no experiment "${command.experiment}" in ${stores.kv.label}`);
    if (command.name === 'show') {
      console.log(rampStatusText(command.experiment, experiment));
      return EXIT_OK;
    }
    const next = changed(command, experiment, Date.now());
    if (typeof next === 'string') return fail(`${next}; nothing written`);
    const outcome = await publishFromCli(
      stores,
      {
        ...live,
        experiments: {
          ...live.experiments,
          experiments: { ...live.experiments.experiments, [command.experiment]: next },
        },
      },
      `Ramp of ${command.experiment}: ${command.name}${command.reason ? `: ${command.reason}` : ''}`,
    );
    if (typeof outcome === 'number') return outcome;
    console.log(`published ${outcome.version.id}: ramp ${command.name} of "${command.experiment}"`);
    console.log(
      rampStatusText(
        command.experiment,
        outcome.document.experiments.experiments[command.experiment]!,
      ),
    );
    return EXIT_OK;
  });
}
