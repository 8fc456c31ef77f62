import { type HoldoutMove, HOLDOUT_MOVES as MOVES, movedHoldout } from '../shared/holdout';
import { liveInEffect } from '../worker/config/publish';
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
import type { WranglerRunner } from './wrangler-cli';

/**
 * `npm run experiments -- holdout start|analysis|end` (docs/experiments.md, "The holdout"):
 * starts the holdout, moves it to its analysis period, or ends it, and publishes that as the next
 * version of the config, as `npm run config -- set` and the console do (worker/config/publish.ts):
 * the same checks refuse what they refuse (worker/experiments/holdout/holdout-issues.ts), with
 * the same words, and the history records who and why.
 */

export const HOLDOUT_USAGE = `Usage: npm run experiments -- holdout <start|analysis|end> [options]

  start     hold out --percent of visitors (1–10) from every experiment started from now on,
            and measure as many others against them (a new seed each time, unless --seed)
  analysis  start the analysis period: experiments started from now on are not covered
  end       release the holdout: no one is held back any more; its results stay readable

  --percent <n>       start: the share held out, 1 to 10 (e.g. 5)
  --seed <seed>       start: the holdout's seed, lower-case letters, digits, - and _ (default: new)
  --note <text>       why, kept in the version history
${STORE_OPTIONS_USAGE}`;

export interface HoldoutCommand {
  name: 'holdout';
  move: HoldoutMove;
  percent: number | null;
  seed: string | null;
  note: string;
}

const PERCENT = /^(10|[1-9])(\.\d{1,2})?$/;

/** The words after `holdout`, with the store options every tool takes. */
export function parseHoldoutArgs(argv: readonly string[]): ParsedArgs<HoldoutCommand> {
  const parsed = readArgs(argv, {
    percent: { type: 'string' },
    seed: { type: 'string' },
    note: { type: 'string' },
  });
  if (!parsed.ok) return { kind: 'usage-error', error: parsed.error };
  const { values, positionals } = parsed;
  const args = parseStoreArgs([
    ...(values.help ? ['--help'] : []),
    ...(values.remote ? ['--remote'] : []),
    ...(values.env === undefined ? [] : [`--env=${values.env}`]),
    ...(values['persist-to'] === undefined ? [] : [`--persist-to=${values['persist-to']}`]),
    '--',
    ...positionals,
  ]);
  if (args.kind !== 'command') return args;
  const [move, ...extra] = args.rest;
  if (args.name !== 'holdout' || !MOVES.includes(move as HoldoutMove) || extra.length > 0)
    return { kind: 'usage-error', error: 'holdout takes one of start, analysis or end' };
  const { percent, seed } = values;
  if (move !== 'start' && (percent !== undefined || seed !== undefined))
    return { kind: 'usage-error', error: `--percent and --seed are for start, not ${move}` };
  if (move === 'start' && (percent === undefined || !PERCENT.test(percent) || Number(percent) > 10))
    return { kind: 'usage-error', error: 'start needs --percent, a share from 1 to 10 such as 5' };
  return {
    kind: 'run',
    command: {
      name: 'holdout',
      move: move as HoldoutMove,
      percent: percent === undefined ? null : Number(percent),
      seed: seed ?? null,
      note: values.note ?? '',
    },
    options: args.options,
  };
}

/** Moves the holdout of the config `options` name and publishes it as the next version. */
export function runHoldout(
  command: HoldoutCommand,
  options: StoreOptions,
  wrangler?: WranglerRunner,
): Promise<number> {
  return withConfigStores(
    options,
    async (stores) => {
      const document = await liveInEffect(stores.live);
      const now = new Date();
      const seed = command.seed ?? `h-${crypto.randomUUID().slice(0, 8)}`;
      const moved = movedHoldout(document.experiments, { ...command, seed }, now);
      if (!moved.ok) return fail(`${moved.error}; nothing written`);
      const outcome = await publishFromCli(
        stores,
        { ...document, experiments: moved.value },
        command.note || `holdout ${command.move}`,
      );
      if (typeof outcome === 'number') return outcome;
      const holdout = moved.value.holdout!;
      console.log(
        `published ${outcome.version.id}: holdout ${holdout.seed} (${holdout.percent}%) ${holdout.status}`,
      );
      return EXIT_OK;
    },
    wrangler,
  );
}
