import type { ExperimentDocument } from '../shared/config/experiments';
import type { RampDocument } from '../shared/config/ramp';
import type { ConfigDocument } from '../shared/console-api/config';
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
  type RampSubject,
  rampAt,
  subjectName,
  withRamp,
} from '../worker/experiments/ramps/ramp-subjects';
import {
  EXIT_OK,
  fail,
  type ParsedArgs,
  parseStoreArgs,
  readArgs,
  STORE_OPTIONS_USAGE,
  type StoreOptions,
} from './cli';
import { cliClearance, publishFromCli, withConfigStores } from './config-stores';

/**
 * `npm run experiments -- ramp …` (docs/experiments.md, "Guarded ramps"): a ramp's state and
 * its next gate, and what a person does to it: set it on a draft, hold it, resume it, roll it
 * back. Each change is published as a config version with source `cli`, as `npm run config --
 * set` publishes, so the one validator judges it and the history keeps it with its reason.
 */

/** `npm run experiments -- ramp --help`. */
export const RAMP_CLI_USAGE = `Usage: npm run experiments -- ramp <command> <experiment id> [--roll-out] [options]
       npm run experiments -- ramp <command> --route <route id> [options]

Commands:
  show       the ramp's step, status and reason, its next gate, and each guardrail's action
  set        give a draft experiment, or a paused route (which it unpauses), a ramp: --steps
             (and --guardrails); it starts at step 0
  hold       hold it at its step until resumed (--reason)
  resume     let a held ramp go on from its step (--reason)
  rollback   take the variant or the route from everyone, for good (--reason)

Options:
  --roll-out               the ramp of the experiment's roll-out (its decision's), not its own
  --route <id>             the ramp of a route, not of an experiment
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
  /** An experiment's variant, its roll-out (`--roll-out`) or a route (`--route`). */
  subject: RampSubject;
  steps: RampDocument['steps'] | null;
  guardrails: Partial<Record<RampGuardrail, RampAction>> | null;
  reason: string | null;
}

const RAMP_OPTIONS = {
  'roll-out': { type: 'boolean' },
  route: { type: 'string' },
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

/** The ramp a command names: one experiment id (`--roll-out`: its roll-out's), or `--route`. */
function subjectOf(
  name: RampCommandName,
  rest: readonly string[],
  route: string | undefined,
  rollOut: boolean,
): RampSubject | string {
  if (route !== undefined) {
    if (rest.length > 0 || rollOut) return `ramp ${name} --route takes no experiment id`;
    return { kind: 'route', route };
  }
  const [experiment, ...extra] = rest;
  if (experiment === undefined || extra.length > 0) return `ramp ${name} takes one experiment id`;
  if (rollOut && name === 'set')
    return '--roll-out: a roll-out gets its ramp in the decision that ships it (docs/experiments.md)';
  return { kind: rollOut ? 'roll_out' : 'variant', experiment };
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
  const subject = subjectOf(name, store.rest, values.route, values['roll-out'] === true);
  if (typeof subject === 'string') return { kind: 'usage-error', error: subject };
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
    command: { name, subject, steps, guardrails, reason },
    options: store.options,
  };
}

const HOUR_MS = 60 * 60 * 1000;
const share = (coverage: number) => `${Math.round(coverage * 1000) / 10}%`;

/** What each kind of ramp gives its bands, for `ramp show`. */
const BANDS: Record<RampSubject['kind'], { share: string; gone: string }> = {
  variant: {
    share: 'of its visitors get the variant, as many the control',
    gone: 'The variant reaches no one',
  },
  roll_out: {
    share: 'of its audience get the variant, as many the control (the rest the control until done)',
    gone: 'The variant reaches no one',
  },
  route: {
    share:
      'of the visitors it matches get the route, as many stay on the route they would get without it',
    gone: 'The route takes no one',
  },
};

/** What `ramp show` prints of experiment `id`'s ramp: a few lines a marketer reads. */
export function rampStatusText(id: string, experiment: ExperimentDocument): string {
  const { ramp } = experiment;
  if (ramp === undefined) return `"${id}" has no ramp: give a draft one with ramp set`;
  return rampText(`"${id}" (${experiment.status})`, 'variant', ramp, experiment.startedAt);
}

/** What `ramp show` prints of `subject`'s ramp in `document`. */
export function subjectStatusText(subject: RampSubject, document: ConfigDocument): string {
  if (subject.kind === 'variant')
    return rampStatusText(
      subject.experiment,
      document.experiments.experiments[subject.experiment]!,
    );
  const ramp = rampAt(document, subject);
  if (ramp === undefined) return `${subjectName(subject)} has no ramp`;
  const since =
    subject.kind === 'roll_out'
      ? document.experiments.experiments[subject.experiment]?.endedAt
      : undefined;
  return rampText(subjectName(subject), subject.kind, ramp, since);
}

function rampText(
  title: string,
  kind: RampSubject['kind'],
  ramp: RampDocument,
  startedAt: string | undefined,
): string {
  const { state, steps } = ramp;
  const step = steps[state.step]!;
  const lines = [
    `Ramp of ${title}: ${state.status}, step ${state.step + 1} of ${steps.length}, since ${state.since}`,
    state.status === 'rolled_back'
      ? `  ${BANDS[kind].gone}; every exposure recorded stays in the results.`
      : `  ${share(step.coverage)} ${BANDS[kind].share}`,
  ];
  if (state.reason !== undefined) lines.push(`  Reason: ${state.reason}`);
  if (state.status === 'running') {
    const since = Math.max(
      Date.parse(state.since),
      startedAt === undefined ? 0 : Date.parse(startedAt),
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

/** A ramp at step 0 from the command's steps and guardrails. */
function newRamp(command: RampCommand, now: number): RampDocument {
  return {
    steps: command.steps!,
    ...(command.guardrails === null ? {} : { guardrails: command.guardrails }),
    state: {
      step: 0,
      since: new Date(now).toISOString(),
      status: 'running',
      ...(command.reason ? { reason: command.reason } : {}),
    },
  };
}

/**
 * `set` on a route: a paused route (or one whose schedule has not begun) takes no one yet, so a
 * ramp may start it; it is unpaused in the same publish. A route taking visitors already would
 * have most of them taken away.
 */
function setOnRoute(document: ConfigDocument, id: string, ramp: RampDocument, now: number) {
  const route = document.routing.routes.find((candidate) => candidate.id === id);
  if (route === undefined) return `no route "${id}"`;
  const notYet = route.schedule?.from !== undefined && Date.parse(route.schedule.from) > now;
  if (route.paused !== true && !notYet)
    return `route "${id}" takes visitors already: a ramp starts a new or paused route`;
  const routes = document.routing.routes.map((candidate) => {
    if (candidate.id !== id) return candidate;
    const { paused: _paused, ...rest } = candidate;
    return { ...rest, ramp };
  });
  return { ...document, routing: { ...document.routing, routes } };
}

/** The document with the command's change made to its subject's ramp, or why it cannot be. */
function changed(
  command: RampCommand,
  document: ConfigDocument,
  now: number,
): ConfigDocument | string {
  const { subject } = command;
  const reason = command.reason ?? '';
  if (command.name === 'set') {
    const ramp = newRamp(command, now);
    if (subject.kind === 'route') return setOnRoute(document, subject.route, ramp, now);
    return withRamp(document, subject, ramp);
  }
  if (command.name === 'show') return 'show changes nothing';
  const ramp = rampAt(document, subject);
  if (ramp === undefined) return `${subjectName(subject)} has no ramp`;
  const moved = personRampMove(ramp, command.name, reason, now);
  return typeof moved === 'string' ? moved : withRamp(document, subject, moved);
}

/** Whether `document` has the experiment or route `subject` names. */
function exists(subject: RampSubject, document: ConfigDocument): boolean {
  if (subject.kind === 'route')
    return document.routing.routes.some((route) => route.id === subject.route);
  return Object.hasOwn(document.experiments.experiments, subject.experiment);
}

/** Runs `ramp <command>` against the stores `options` name. */
export function runRamp(command: RampCommand, options: StoreOptions): Promise<number> {
  return withConfigStores(options, async (stores) => {
    const live = await liveInEffect(stores.live);
    const { subject } = command;
    if (!exists(subject, live)) {
      const what =
        subject.kind === 'route'
          ? `route "${subject.route}"`
          : `experiment "${subject.experiment}"`;
      return fail(`no ${what} in ${stores.kv.label}`);
    }
    if (command.name === 'show') {
      console.log(subjectStatusText(subject, live));
      return EXIT_OK;
    }
    const next = changed(command, live, Date.now());
    if (typeof next === 'string') return fail(`${next}; nothing written`);
    const name = subject.kind === 'variant' ? `"${subject.experiment}"` : subjectName(subject);
    // A hold or a roll back only takes visitors away: through the gate without a second person.
    const reduces = command.name === 'hold' || command.name === 'rollback';
    const outcome = await publishFromCli(
      stores,
      next,
      `Ramp of ${subjectName(subject)}: ${command.name}${command.reason ? `: ${command.reason}` : ''}`,
      cliClearance(reduces ? { kind: 'ramp', subject, by: 'person' } : undefined),
    );
    if (typeof outcome === 'number') return outcome;
    console.log(`published ${outcome.version.id}: ramp ${command.name} of ${name}`);
    console.log(subjectStatusText(subject, outcome.document));
    return EXIT_OK;
  });
}
