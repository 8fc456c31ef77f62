import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runConfigCli } from '../../scripts/config-cli';
import { formatSummary, parseCliArgs } from '../../scripts/config-document';
import { holdLocalPlatformsOpen } from '../../scripts/local-platform';
import type { WranglerRunner } from '../../scripts/wrangler-cli';
import { EMPTY_CONTENT } from '../../shared/config/content';
import { CONFIG_MAX_BYTES } from '../../shared/config/parse-document';
import {
  DEFAULT_EXPERIMENTS,
  DEFAULT_FLOWS,
  DEFAULT_ROUTING,
  DEFAULT_SPLIT,
} from '../../worker/config/defaults';
import {
  type CheckedDocument,
  checkDocumentText,
  crossCheck,
  inEffectFromKv,
} from '../../worker/config/document';
import { SPRING_LANDING } from '../fixtures/composed-landing';
import { TSX } from './script-process';

// Over 10 s alone: the commands against local KV run on workerd through wrangler's platform
// proxy (one per state directory, held open across them), and one runs as `npm run config` does,
// a tsx process starting a workerd of its own.

const LP17_SPLIT = {
  version: 'lp17-test',
  defaultVariant: 'lp17ch17pr5',
  variants: { lp17ch17pr5: { weight: 1 } },
};

const VALID_DOCUMENT = {
  split: {
    version: 7,
    defaultVariant: 'default',
    variants: {
      default: { weight: 1, flow: 'default' },
      'lp11ch8/vc': { weight: 2 },
      paused: { weight: 0, flow: 'lp11ch8' },
    },
  },
  flows: {
    version: 7,
    flows: {
      default: ['one_pager', 'searching', 'signup', 'checkout_v3_tr', 'success'],
      lp11ch8: ['one_pager', 'checkout_h3_pp', 'success'],
      lp11ch8_vc: ['one_pager', 'checkout_v3_pp', 'success'],
    },
  },
};

/** Two experiments on the default route: a landing test running, a price test drafted. */
const EXPERIMENTS = {
  version: 7,
  experiments: {
    'landing-all': {
      name: 'All-in-one landing',
      status: 'running',
      layer: 'landing',
      range: [0, 0.5],
      audience: { routes: ['default'] },
      coverage: 1,
      seed: 'landing-all',
      control: 'a',
      variants: {
        a: { weight: 1, change: {} },
        b: { weight: 1, change: { screens: { landing: 'one_pager_all' } } },
      },
    },
    'price-q': {
      name: 'Quarterly first',
      status: 'draft',
      layer: 'paywall',
      audience: {},
      coverage: 0.2,
      seed: 'price-q',
      control: 'a',
      variants: {
        a: { weight: 3, change: {} },
        q: { weight: 1, change: { plans: ['quarterly', 'monthly'] } },
        off: { weight: 0, change: { flow: 'lp11ch8' } },
      },
    },
  },
};

/** What `validate`, `set` and `show` print for EXPERIMENTS. */
const EXPERIMENTS_SUMMARY = [
  `experiments (version 7), each layer's tried in this order:`,
  '  landing-all  "All-in-one landing", running, layer landing, range 0%–50%, coverage 100%, routes default',
  '               a 50% (control); b 50% → landing screen one_pager_all',
  '  price-q      "Quarterly first", draft, layer paywall, coverage 20%, every route',
  '               a 75% (control); q 25% → plans quarterly, monthly; off 0% (paused) → flow lp11ch8',
];

/** A split whose variants "v0", "v1", ... have these weights (as written in the file). */
function splitWithWeights(...weights: string[]): string {
  const variants = weights.map((weight, i) => `"v${i}": {"weight": ${weight}, "flow": "default"}`);
  return `{"split": {"version": 1, "defaultVariant": "v0", "variants": {${variants.join(', ')}}}}`;
}

function check(document: unknown): ReturnType<typeof checkDocumentText> {
  return checkDocumentText(JSON.stringify(document));
}

function expectValid(result: ReturnType<typeof checkDocumentText>): CheckedDocument {
  if (!result.ok) throw new Error(`expected a valid document, got: ${result.error}`);
  return result.value;
}

describe('config document: what validate accepts and prints', () => {
  it('shows each variant with its share of traffic and the flow it lands in', () => {
    const checked = expectValid(check(VALID_DOCUMENT));
    const summary = formatSummary(checked.values, {
      split: 'file',
      flows: 'file',
      routing: 'file',
      experiments: 'file',
      content: 'file',
    });
    expect(summary.split('\n')).toEqual([
      'OK',
      'split (version 7), default variant "default":',
      '  default      33.3%  → flow default',
      '  lp11ch8/vc   66.7%  → flow lp11ch8_vc',
      '  paused          0%  → flow lp11ch8  (never drawn)',
      'flows (version 7):',
      '  default     one_pager → searching → signup → checkout_v3_tr → success',
      '  lp11ch8     one_pager → checkout_h3_pp → success',
      '  lp11ch8_vc  one_pager → checkout_v3_pp → success',
    ]);
  });

  it("shows each experiment: who it takes, then its variants' shares and what each changes", () => {
    const checked = expectValid(check({ ...VALID_DOCUMENT, experiments: EXPERIMENTS }));
    const summary = formatSummary(checked.values, {
      split: 'file',
      flows: 'file',
      routing: 'kv',
      experiments: 'file',
      content: 'file',
    });
    expect(summary.split('\n').slice(-6)).toEqual([
      ...EXPERIMENTS_SUMMARY,
      '(checked against the routing in KV)',
    ]);
  });

  it('says which stored section a partial file was checked against', () => {
    const checked = expectValid(check({ split: LP17_SPLIT }));
    const summary = formatSummary(checked.values, {
      split: 'file',
      flows: 'kv',
      routing: 'file',
      experiments: 'defaults',
      content: 'defaults',
    });
    expect(summary).toContain('  lp17ch17pr5    100%  → flow lp17ch17pr5');
    expect(summary).toContain('(checked against the flows in KV)');
    expect(summary).toContain('(checked against the experiments in the defaults in code)');
    expect(summary).not.toContain('flows (version');
  });

  it('stores each section as the compact JSON the worker parses', () => {
    const checked = expectValid(check(VALID_DOCUMENT));
    expect(checked.serialized).toEqual({
      split: JSON.stringify(VALID_DOCUMENT.split),
      flows: JSON.stringify(VALID_DOCUMENT.flows),
    });
  });
});

describe('config document: refusals a marketer reads', () => {
  it.each([
    ['a file that is not JSON', '{"split": ', /^not JSON: /],
    [
      'a misspelt top-level key',
      '{"splits": {}}',
      'unknown top-level key "splits" (expected "split", "flows", "routing", "experiments" and/or "content")',
    ],
    [
      'an empty document',
      '{}',
      'the file has none of "split", "flows", "routing", "experiments" and "content"; nothing to check',
    ],
    [
      'a JSON array',
      '[]',
      'the file must hold a JSON object with "split", "flows", "routing", "experiments" and/or "content"',
    ],
    [
      'a negative weight',
      splitWithWeights('-5', '10'),
      'split: variants.v0.weight: must not be negative',
    ],
    ['a bare NaN weight', splitWithWeights('NaN'), /^not JSON: Unexpected token 'N'/],
    [
      'a "NaN" string weight',
      splitWithWeights('"NaN"'),
      'split: variants.v0.weight: Invalid input: expected number, received string',
    ],
    [
      'weights that add up to zero',
      splitWithWeights('0', '0'),
      'split: variants: weights must add up to a positive finite number',
    ],
  ])('refuses %s', (_, text, message) => {
    const result = checkDocumentText(text);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    if (typeof message === 'string') expect(result.error).toBe(message);
    else expect(result.error).toMatch(message);
  });

  it('refuses a flow with an unknown screen id, naming the entry', () => {
    const result = check({
      flows: { version: 1, flows: { default: ['one_pager', 'checkout_v9'] } },
    });
    expect(result).toEqual({
      ok: false,
      error: 'flows: flows.default.1: unknown screen id "checkout_v9"',
      issues: [{ path: 'flows.flows.default.1', message: 'unknown screen id "checkout_v9"' }],
    });
  });

  it('refuses flows without the "default" flow every unknown name falls back to', () => {
    const result = check({ flows: { version: 1, flows: { lp1ch2: ['one_pager'] } } });
    expect(result).toMatchObject({
      ok: false,
      error: 'flows: flows: must contain the "default" flow',
    });
  });

  it('refuses a file over the size cap before reading it as JSON', () => {
    const text = `{"split": ${' '.repeat(CONFIG_MAX_BYTES)}}`;
    expect(checkDocumentText(text)).toEqual({
      ok: false,
      error: `file is ${CONFIG_MAX_BYTES + 11} bytes; the limit is ${CONFIG_MAX_BYTES} bytes`,
    });
  });

  it('reports problems in both sections at once', () => {
    const result = check({
      split: { ...LP17_SPLIT, defaultVariant: 'missing' },
      flows: { version: 1, flows: { default: [] } },
    });
    expect(result).toMatchObject({
      ok: false,
      error:
        'flows: flows.default: must list at least one screen; ' +
        'split: defaultVariant: "missing" is not one of the variants',
    });
  });
});

describe('config document: cross-check between split and flows', () => {
  const defaultOnlyFlows = { ...DEFAULT_FLOWS, flows: { default: DEFAULT_FLOWS.flows.default! } };

  it('refuses a variant whose flow is not defined, instead of silently serving "default"', () => {
    const checked = expectValid(
      check({ split: LP17_SPLIT, flows: { version: 1, flows: defaultOnlyFlows.flows } }),
    );
    const result = crossCheck({
      split: { value: checked.values.split!, origin: 'file' },
      flows: { value: checked.values.flows!, origin: 'file' },
      routing: { value: DEFAULT_ROUTING, origin: 'file' },
      experiments: { value: DEFAULT_EXPERIMENTS, origin: 'file' },
      content: { value: EMPTY_CONTENT, origin: 'file' },
    });
    expect(result).toEqual({
      ok: false,
      error: 'split.variants.lp17ch17pr5.flow: names flow "lp17ch17pr5", which is not defined',
      issues: [
        {
          path: 'split.variants.lp17ch17pr5.flow',
          message: 'names flow "lp17ch17pr5", which is not defined',
        },
      ],
    });
  });

  it('checks a split-only file against the flows stored in KV', () => {
    const checked = expectValid(check({ split: LP17_SPLIT }));
    const storedFlows = inEffectFromKv('flows', JSON.stringify(defaultOnlyFlows));
    expect(storedFlows.origin).toBe('kv');
    const routing = inEffectFromKv('routing', null);
    const experiments = inEffectFromKv('experiments', null);
    expect(
      crossCheck({
        split: { value: checked.values.split!, origin: 'file' },
        flows: storedFlows,
        routing,
        experiments,
        content: inEffectFromKv('content', null),
      }),
    ).toMatchObject({
      ok: false,
      error:
        'split.variants.lp17ch17pr5.flow: names flow "lp17ch17pr5", which is not defined ' +
        '(split from this file, flows from KV, routing from the defaults in code, experiments from the defaults in code, content from the defaults in code)',
    });
  });

  it('refuses a flows-only file that drops a flow the live split still uses', () => {
    const checked = expectValid(check({ flows: defaultOnlyFlows }));
    const liveSplit = inEffectFromKv('split', JSON.stringify(LP17_SPLIT));
    const result = crossCheck({
      split: liveSplit,
      flows: { value: checked.values.flows!, origin: 'file' },
      routing: { value: DEFAULT_ROUTING, origin: 'file' },
      experiments: { value: DEFAULT_EXPERIMENTS, origin: 'file' },
      content: { value: EMPTY_CONTENT, origin: 'file' },
    });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toContain(
        '(split from KV, flows from this file, routing from this file, experiments from this file, content from this file)',
      );
    }
  });

  it("refuses an experiment in the file taking the split's id, at its path", () => {
    const checked = expectValid(
      check({
        experiments: { version: 1, experiments: { split: EXPERIMENTS.experiments['landing-all'] } },
      }),
    );
    const result = crossCheck({
      split: inEffectFromKv('split', null),
      flows: inEffectFromKv('flows', null),
      routing: inEffectFromKv('routing', null),
      experiments: { value: checked.values.experiments!, origin: 'file' },
      content: { value: EMPTY_CONTENT, origin: 'file' },
    });
    expect(result).toMatchObject({
      ok: false,
      issues: [
        {
          path: 'experiments.experiments.split',
          message: `"split" is the split test's id: give this experiment another`,
        },
      ],
    });
  });

  it('falls back to the defaults in code for an absent or invalid KV value, and says so', () => {
    expect(inEffectFromKv('flows', null)).toEqual({
      value: DEFAULT_FLOWS,
      origin: 'defaults',
      note: 'KV key "flows" is absent; the defaults in code apply',
    });
    const invalid = inEffectFromKv('split', '{"version": 1}');
    expect(invalid.value).toBe(DEFAULT_SPLIT);
    expect(invalid.note).toMatch(/^KV key "split" is invalid \(defaultVariant: .*\); the worker/);
  });
});

describe('config CLI arguments', () => {
  it.each([
    [['set', 'new.json'], { kind: 'run', command: { name: 'set', file: 'new.json', note: '' } }],
    [
      ['set', 'new.json', 'lp1 to 30%'],
      { kind: 'run', command: { name: 'set', file: 'new.json', note: 'lp1 to 30%' } },
    ],
    [['history'], { kind: 'run', command: { name: 'history' } }],
    [['show'], { kind: 'run', command: { name: 'show' } }],
    [['show', 'x.json'], { kind: 'usage-error', error: 'show takes no file' }],
    [
      ['set', 'a.json', 'note', 'more'],
      { kind: 'usage-error', error: 'set takes a file and, after it, one note' },
    ],
    [
      ['get', '--persist-to', '/tmp/state'],
      {
        kind: 'run',
        command: { name: 'get' },
        options: { remote: false, persistTo: '/tmp/state' },
      },
    ],
    [['get'], { kind: 'run', options: { remote: false, environment: 'development' } }],
    [
      ['get', '--env', 'staging'],
      { kind: 'run', options: { remote: false, environment: 'staging' } },
    ],
    [
      ['seed', '--remote', '--env', 'staging'],
      { kind: 'run', options: { remote: true, environment: 'staging' } },
    ],
    [
      ['--env', 'production', 'history', '--remote'],
      { kind: 'run', options: { remote: true, environment: 'production' } },
    ],
    [
      ['seed', '--remote'],
      { kind: 'usage-error', error: '--remote needs --env staging or --env production' },
    ],
    [
      ['seed', '--remote', '--env', 'development'],
      {
        kind: 'usage-error',
        error: '--env development is never deployed; use --env staging or --env production',
      },
    ],
    [
      ['get', '--env', ''],
      {
        kind: 'usage-error',
        error: '--env must be development, staging or production, not ""',
      },
    ],
    [
      ['get', '--env', 'prod'],
      {
        kind: 'usage-error',
        error: '--env must be development, staging or production, not "prod"',
      },
    ],
    [['--help'], { kind: 'help' }],
    [['publish', 'x.json'], { kind: 'usage-error', error: 'unknown command "publish"' }],
    [['get', '--force'], { kind: 'usage-error', error: "Unknown option '--force'" }],
    [['set'], { kind: 'usage-error', error: 'set takes a file and, after it, one note' }],
    [
      ['validate', 'a.json', 'b.json'],
      { kind: 'usage-error', error: 'validate takes exactly one file' },
    ],
    [
      ['get', '--remote', '--persist-to', 'x'],
      { kind: 'usage-error', error: '--persist-to is for local KV; drop it with --remote' },
    ],
  ])('%j', (argv, expected) => {
    expect(parseCliArgs(argv)).toMatchObject(expected);
  });
});

// ---------------------------------------------------------------------------------------------
// The CLI against a throwaway local KV (the same storage format wrangler dev reads): in-process,
// as `runConfigCli`, so the run pays for neither a Node start nor loading wrangler per command;
// one run goes through `tsx scripts/config.ts`, as `npm run config` does, to prove the entry
// prints and exits alike.

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * One command, with what it printed; commands run one at a time, so the capture is theirs.
 * `wrangler` stands in for the wrangler CLI of `--remote` commands.
 */
async function runCli(args: readonly string[], wrangler?: WranglerRunner): Promise<CliRun> {
  const printed = { stdout: [] as string[], stderr: [] as string[] };
  const log = vi.spyOn(console, 'log').mockImplementation((...line) => {
    printed.stdout.push(`${line.join(' ')}\n`);
  });
  const error = vi.spyOn(console, 'error').mockImplementation((...line) => {
    printed.stderr.push(`${line.join(' ')}\n`);
  });
  try {
    const code = await runConfigCli(args, wrangler);
    return { code, stdout: printed.stdout.join(''), stderr: printed.stderr.join('') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

/**
 * What a command said on stderr, one line each, without workerd's own start-up warnings (the
 * platform proxy runs wrangler.toml's bindings without the worker's Durable Object classes).
 */
function said(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line !== '' && !line.startsWith('workerd/'));
}

const spawnCli = promisify(execFile);

/** Closes the platforms the commands below hold open; undefined while none are held. */
let closeHeldPlatforms: (() => Promise<void>) | undefined;

/** The command as `npm run config` runs it: a process of its own. */
async function runCliProcess(args: readonly string[]): Promise<CliRun> {
  // Alone on its state directory, as it runs beside nothing but `npm start`.
  const held = closeHeldPlatforms !== undefined;
  await closeHeldPlatforms?.();
  try {
    const { stdout, stderr } = await spawnCli(TSX, ['scripts/config.ts', ...args], {
      env: { ...process.env, npm_config_loglevel: 'error' },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  } finally {
    if (held) closeHeldPlatforms = holdLocalPlatformsOpen();
  }
}

// Each command that touches KV opens it through wrangler's platform proxy, a workerd of a second
// or more to start: the commands here share one per state directory and environment, held open
// until the last test. That each command as `npm run config` runs it opens and closes its own,
// and writes what another process then reads, runCliProcess's `get` shows.
describe('config CLI against local KV', { timeout: 120_000 }, () => {
  let dir: string;

  /** The state of the commands that only read a KV nothing was published to: one workerd. */
  const emptyState = () => join(dir, 'empty');

  beforeAll(async () => {
    closeHeldPlatforms = holdLocalPlatformsOpen();
    dir = await mkdtemp(join(tmpdir(), 'config-cli-'));
    await writeFile(join(dir, 'lp17.json'), JSON.stringify({ split: LP17_SPLIT }, null, 2));
    await writeFile(join(dir, 'full.json'), JSON.stringify(VALID_DOCUMENT, null, 2));
    await writeFile(
      join(dir, 'experiments.json'),
      JSON.stringify({ ...VALID_DOCUMENT, experiments: EXPERIMENTS }, null, 2),
    );
  });

  afterAll(async () => {
    await closeHeldPlatforms?.();
    closeHeldPlatforms = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  // slow: the config CLI started twice, each through wrangler's local platform
  it('seed publishes the first version; set publishes the next with its author and note', async () => {
    const state = ['--persist-to', join(dir, 'seeded')];

    const seed = await runCli(['seed', ...state]);
    expect(seed.code, seed.stderr).toBe(0);
    expect(seed.stdout).toContain('flows: published the defaults in code as v1 to local KV');
    expect(seed.stdout).toContain('split: published the defaults in code as v1 to local KV');
    expect(seed.stdout).toContain('experiments: published the defaults in code as v1 to local KV');
    const again = await runCli(['seed', ...state]);
    expect(again.stdout).toContain('left alone');

    process.env.CONFIG_AUTHOR = 'marketer@example.com';
    const set = await runCli(['set', join(dir, 'full.json'), 'two variants', ...state]);
    delete process.env.CONFIG_AUTHOR;
    expect(set.code, set.stderr).toBe(0);
    // 1:1 after the default's single variant: the shares change, a new phase.
    expect(set.stdout).toMatch(
      /^published v2 to local KV \(.*\) \(keys "content", "flows", "routing", "split", "experiments"\), phase 2$/m,
    );

    const history = await runCli(['history', ...state]);
    expect(history.stdout.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^v2 {4}\d{4}-.*Z {2}phase 2 {2}cli {2}by marketer@example\.com: two variants$/,
      ),
      expect.stringMatching(/^v1 {4}.*phase 1 {2}seed {2}by .*\(cli\): seed$/),
    ]);

    // As a process, reading the same files: what set published, stamped with its version. Last,
    // as it closes the workerd the commands above shared.
    const after = await runCliProcess(['get', ...state]);
    expect(after.code, after.stderr).toBe(0);
    // The new phase is stamped with when it began, which the holdout reads.
    expect(JSON.parse(after.stdout)).toEqual({
      split: {
        ...VALID_DOCUMENT.split,
        version: 'v2',
        phase: 2,
        since: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/),
      },
      flows: { ...VALID_DOCUMENT.flows, version: 'v2' },
      routing: { ...DEFAULT_ROUTING, version: 'v2' },
      experiments: { ...DEFAULT_EXPERIMENTS, version: 'v2' },
      content: EMPTY_CONTENT,
    });
    expect(after.stderr).not.toContain('KV key');
  });

  it("--env staging works on staging's own local KV and history, apart from development's", async () => {
    const state = ['--persist-to', join(dir, 'environments')];
    const seed = await runCli(['seed', '--env', 'staging', ...state]);
    expect(seed.code, seed.stderr).toBe(0);
    expect(seed.stdout).toMatch(/^split: published .* as v1 to local KV \(.*, --env staging\)$/m);

    const development = await runCli(['history', ...state]);
    expect(development.stdout.trim()).toBe('nothing published yet');
    const staging = await runCli(['history', '--env', 'staging', ...state]);
    expect(staging.stdout.trim()).toMatch(/^v1 {4}.*seed$/);
  });

  it('set of a partial file keeps the other section as KV holds it', async () => {
    const state = ['--persist-to', join(dir, 'partial')];
    const set = await runCli(['set', join(dir, 'lp17.json'), ...state]);
    expect(set.code, set.stderr).toBe(0);
    const got = await runCli(['get', ...state]);
    expect(JSON.parse(got.stdout)).toEqual({
      split: { ...LP17_SPLIT, version: 'v1', phase: 1 },
      flows: { ...DEFAULT_FLOWS, version: 'v1' },
      routing: { ...DEFAULT_ROUTING, version: 'v1' },
      experiments: { ...DEFAULT_EXPERIMENTS, version: 'v1' },
      content: EMPTY_CONTENT,
    });
  });

  it('a refused set exits 1 with the reason and leaves KV as it was', async () => {
    const state = ['--persist-to', join(dir, 'refused')];
    expect((await runCli(['set', join(dir, 'full.json'), ...state])).code).toBe(0);

    // Valid on its own, but the flows now in KV have no lp17ch17pr5.
    const refused = await runCli(['set', join(dir, 'lp17.json'), ...state]);
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr).toContain(
      'error: split.variants.lp17ch17pr5.flow: names flow "lp17ch17pr5", which is not defined ' +
        '(split from this file, flows from KV, routing from KV, experiments from KV, content from KV); nothing written',
    );
    expect(refused.stdout).not.toContain('published');

    const got = await runCli(['get', ...state]);
    expect(JSON.parse(got.stdout)).toEqual({
      split: { ...VALID_DOCUMENT.split, version: 'v1', phase: 1 },
      flows: { ...VALID_DOCUMENT.flows, version: 'v1' },
      routing: { ...DEFAULT_ROUTING, version: 'v1' },
      experiments: { ...DEFAULT_EXPERIMENTS, version: 'v1' },
      content: EMPTY_CONTENT,
    });
  });

  it('under PUBLISH_APPROVAL required, set is refused alone and goes out only as a break-glass the history keeps', async () => {
    const state = ['--persist-to', join(dir, 'gated')];
    const webhook = { ...DEFAULT_EXPERIMENTS, alerts: { webhook: 'https://hooks.example.com/a' } };
    await writeFile(join(dir, 'webhook.json'), JSON.stringify({ experiments: webhook }));
    expect((await runCli(['seed', ...state])).code).toBe(0);
    try {
      process.env.PUBLISH_APPROVAL = 'required';
      const alone = await runCli(['set', join(dir, 'full.json'), 'two variants', ...state]);
      expect(alone.code).toBe(1);
      expect(alone.stderr).toContain('error: PUBLISH_APPROVAL is required here');
      expect(alone.stderr).toContain('split.variants.lp11ch8/vc (moves traffic)');
      process.env.CONFIG_BREAK_GLASS = 'the landing is down';
      // No webhook yet to announce it to: the glass stays whole.
      const unheard = await runCli(['set', join(dir, 'full.json'), ...state]);
      expect(unheard.code).toBe(1);
      expect(unheard.stderr).toContain('none is set');
      // Setting the webhook is itself a change needing approval: here, from before the gate.
      delete process.env.PUBLISH_APPROVAL;
      delete process.env.CONFIG_BREAK_GLASS;
      expect((await runCli(['set', join(dir, 'webhook.json'), ...state])).code).toBe(0);
      process.env.PUBLISH_APPROVAL = 'required';
      process.env.CONFIG_BREAK_GLASS = 'the landing is down';
      const broken = await runCli(['set', join(dir, 'full.json'), 'two variants', ...state]);
      expect(broken.code, broken.stderr).toBe(0);
    } finally {
      delete process.env.PUBLISH_APPROVAL;
      delete process.env.CONFIG_BREAK_GLASS;
    }
    const history = await runCli(['history', ...state]);
    expect(history.stdout.trim().split('\n')[0]).toMatch(
      /^v3 .* cli {2}by .*: two variants \[break glass: the landing is down\]$/,
    );
  });

  it('a composed landing round-trips through set and get; taking it out from under a flow is refused', async () => {
    const state = ['--persist-to', join(dir, 'composed')];
    const flows = {
      version: 1,
      flows: {
        ...DEFAULT_FLOWS.flows,
        spring: ['spring_landing', 'searching', 'signup', 'success'],
      },
    };
    const file = join(dir, 'composed.json');
    await writeFile(file, JSON.stringify({ flows, content: SPRING_LANDING }, null, 2));
    expect((await runCli(['validate', file, ...state])).code).toBe(0);
    expect((await runCli(['set', file, ...state])).code).toBe(0);
    const got = JSON.parse((await runCli(['get', ...state])).stdout);
    expect(got.content).toEqual(SPRING_LANDING);
    expect(got.flows.flows.spring[0]).toBe('spring_landing');

    const emptied = join(dir, 'uncomposed.json');
    await writeFile(emptied, JSON.stringify({ content: EMPTY_CONTENT }));
    const refused = await runCli(['set', emptied, ...state]);
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr).toContain(
      'flows.flows.spring.0: names screen "spring_landing", which is no screen in code and not composed in the content',
    );
  });

  it('validate, set and show carry the experiments; a later partial file keeps them', async () => {
    const state = ['--persist-to', join(dir, 'experiments')];
    const file = join(dir, 'experiments.json');

    const validated = await runCli(['validate', file, ...state]);
    expect(validated.code, validated.stderr).toBe(0);
    expect(said(validated.stderr)).toEqual([
      'KV key "content" is absent; the defaults in code apply',
      'KV key "routing" is absent; the defaults in code apply',
    ]);
    expect(validated.stdout.trim().split('\n').slice(-7)).toEqual([
      ...EXPERIMENTS_SUMMARY,
      '(checked against the content in the defaults in code)',
      '(checked against the routing in the defaults in code)',
    ]);

    const set = await runCli(['set', file, 'landing test', ...state]);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toMatch(
      /\(keys "content", "flows", "routing", "split", "experiments"\), phase 1$/m,
    );
    const got = JSON.parse((await runCli(['get', ...state])).stdout);
    // Stamped like the other sections: the version, and each experiment's phase; the running
    // one, when it started. The draft has neither until it runs.
    expect(got.experiments).toEqual({
      version: 'v1',
      experiments: {
        'landing-all': {
          ...EXPERIMENTS.experiments['landing-all'],
          phase: 1,
          startedAt: expect.stringMatching(/^2\d{3}-\d\d-\d\dT/),
        },
        'price-q': EXPERIMENTS.experiments['price-q'],
      },
    });

    // Only the split: the experiments stay as KV holds them.
    const splitOnly = join(dir, 'split-only.json');
    await writeFile(splitOnly, JSON.stringify({ split: VALID_DOCUMENT.split }));
    expect((await runCli(['set', splitOnly, ...state])).code).toBe(0);

    const kept = JSON.parse((await runCli(['get', ...state])).stdout);
    expect(kept.experiments).toEqual({ ...got.experiments, version: 'v2' });

    const shown = await runCli(['show', ...state]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(said(shown.stderr)).toEqual([]);
    const lines = shown.stdout.trim().split('\n');
    expect(lines[0]).toBe('split (version v2), default variant "default":');
    expect(lines.slice(-6)).toEqual([
      EXPERIMENTS_SUMMARY[0]!.replace('version 7', 'version v2'),
      ...EXPERIMENTS_SUMMARY.slice(1),
      'content: none (every screen as code composes it)',
    ]);
  });

  it('show of a fresh KV: the defaults in code, no experiment but the split', async () => {
    const shown = await runCli(['show', '--persist-to', emptyState()]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('split (version builtin), default variant "default":');
    expect(shown.stdout.trim().split('\n').slice(-2)).toEqual([
      'experiments (version builtin): none besides the split',
      'content: none (every screen as code composes it)',
    ]);
    expect(shown.stderr).toContain('KV key "experiments" is absent; the defaults in code apply');
  });

  it('validate refuses a bad experiment at its path and writes nothing', async () => {
    const file = join(dir, 'bad-experiment.json');
    const landing = EXPERIMENTS.experiments['landing-all'];
    await writeFile(
      file,
      JSON.stringify({
        experiments: { version: 1, experiments: { 'landing-all': { ...landing, coverage: 2 } } },
      }),
    );
    const refused = await runCli(['validate', file, '--persist-to', emptyState()]);
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr.trim()).toBe(
      'error: experiments: experiments.landing-all.coverage: must be at most 1',
    );
  });

  it('validate prints a route an earlier one catches whole as a warning, and still passes', async () => {
    const file = join(dir, 'shadowed.json');
    const tiktok = { attribute: 'source', operator: 'in', values: ['tiktok'] };
    await writeFile(
      file,
      JSON.stringify({
        ...VALID_DOCUMENT,
        experiments: DEFAULT_EXPERIMENTS,
        routing: {
          version: 7,
          audiences: {
            tiktok: { groups: [[tiktok]] },
            tiktok_ios: {
              groups: [[tiktok, { attribute: 'platform', operator: 'in', values: ['ios'] }]],
            },
          },
          routes: [
            { id: 'tiktok', audience: 'tiktok', flow: 'lp11ch8' },
            { id: 'tiktok_ios', audience: 'tiktok_ios', flow: 'lp11ch8_vc' },
            { id: 'default', flow: 'default' },
          ],
        },
      }),
    );
    const validated = await runCli(['validate', file, '--persist-to', emptyState()]);
    expect(validated.code, validated.stderr).toBe(0);
    expect(said(validated.stderr)).toEqual([
      'KV key "content" is absent; the defaults in code apply',
      'warning: routing.routes.1: never takes a visitor: route "tiktok" before it already takes everyone its audience "tiktok_ios" matches',
    ]);
  });

  it('validate of a missing file exits 1 with one line; an unknown command exits 2', async () => {
    const missing = await runCli(['validate', join(dir, 'nope.json')]);
    expect(missing.code, missing.stderr).toBe(1);
    expect(missing.stderr.trim()).toBe(
      `error: cannot read ${join(dir, 'nope.json')}: no such file`,
    );

    const unknown = await runCli(['publish']);
    expect(unknown.code, unknown.stderr).toBe(2);
    expect(unknown.stderr).toContain('Usage: npm run config');
  });
});

// ---------------------------------------------------------------------------------------------
// The deployed stores, with a stand-in for the wrangler CLI that records each call and answers
// as wrangler does for a fresh environment: no key in KV, an empty but migrated CONFIG_DB.

/** What the stand-in was asked, one argument list per call. */
function stubWrangler(): { calls: string[][]; wrangler: WranglerRunner } {
  const calls: string[][] = [];
  const wrangler: WranglerRunner = async (args) => {
    calls.push([...args]);
    const [tool, , verb] = args;
    if (tool === 'kv' && verb === 'get') {
      // wrangler 4.86's failure for a key the namespace does not hold.
      throw Object.assign(new Error('Command failed'), {
        stderr: '✘ [ERROR] A request to the Cloudflare API failed. - 404: Not Found\n',
      });
    }
    if (tool === 'd1') return { stdout: JSON.stringify([{ results: [], meta: { changes: 1 } }]) };
    return { stdout: '' };
  };
  return { calls, wrangler };
}

/** The arguments wrangler got after the `--remote` of a call. */
function afterRemote(call: readonly string[]): string[] {
  return call.slice(call.indexOf('--remote') + 1);
}

describe('config CLI against the deployed stores', () => {
  it("seed --remote --env staging reads and writes staging's namespace and database only", async () => {
    const { calls, wrangler } = stubWrangler();
    const seed = await runCli(['seed', '--remote', '--env', 'staging'], wrangler);
    expect(seed.code, seed.stderr).toBe(0);
    expect(seed.stdout).toContain(
      'split: published the defaults in code as v1 to remote KV (binding FUNNEL_CONFIG, --env staging)',
    );

    const kv = calls.filter((call) => call[0] === 'kv');
    const d1 = calls.filter((call) => call[0] === 'd1');
    expect(kv.length + d1.length).toBe(calls.length);
    // Every key read, then the history's head read and the first version claimed, then every
    // key written: each on staging's binding.
    expect(kv.filter((call) => call[2] === 'get').map((call) => call[3])).toEqual(
      expect.arrayContaining(['split', 'flows', 'routing', 'experiments']),
    );
    expect(kv.filter((call) => call[2] === 'put').map((call) => call[3])).toEqual(
      expect.arrayContaining(['split', 'flows', 'routing', 'experiments']),
    );
    for (const call of kv) {
      expect(call.slice(-5)).toEqual([
        '--binding',
        'FUNNEL_CONFIG',
        '--remote',
        '--env',
        'staging',
      ]);
    }
    expect(d1.some((call) => call.at(-1)?.startsWith('INSERT INTO config_versions'))).toBe(true);
    for (const call of d1) {
      expect(call.slice(0, 4)).toEqual(['d1', 'execute', 'CONFIG_DB', '--remote']);
      expect(afterRemote(call).slice(0, 4)).toEqual(['--env', 'staging', '--json', '--command']);
    }
  });

  it("--env production names wrangler.toml's top level to wrangler, as --env ''", async () => {
    const { calls, wrangler } = stubWrangler();
    const history = await runCli(['history', '--remote', '--env', 'production'], wrangler);
    expect(history.code, history.stderr).toBe(0);
    expect(history.stdout.trim()).toBe('nothing published yet');
    expect(calls).toEqual([
      [
        'd1',
        'execute',
        'CONFIG_DB',
        '--remote',
        '--env',
        '',
        '--json',
        '--command',
        expect.stringMatching(/^SELECT .* FROM config_versions ORDER BY seq DESC LIMIT \d+$/s),
      ],
    ]);

    const got = await runCli(['get', '--remote', '--env', 'production'], wrangler);
    expect(got.code, got.stderr).toBe(0);
    const reads = calls.slice(1);
    expect(reads).toHaveLength(5);
    for (const call of reads) expect(afterRemote(call)).toEqual(['--env', '']);
  });

  it('calls no wrangler at all for a remote command without --env, nor for a local one', async () => {
    const { calls, wrangler } = stubWrangler();
    const refused = await runCli(['set', 'funnel.json', '--remote'], wrangler);
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain('error: --remote needs --env staging or --env production');
    const local = await runCli(['validate', 'nope.json', '--env', 'staging'], wrangler);
    expect(local.code, local.stderr).toBe(1);
    expect(calls).toEqual([]);
  });
});
