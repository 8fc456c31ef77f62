import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runConfigCli } from '../../scripts/config-cli';
import { DEFAULT_PORT, parseExperimentsArgs } from '../../scripts/experiments-arguments';
import { runExperimentsCli } from '../../scripts/experiments-cli';
import { formatTallies, matureNote, vitalsNote } from '../../scripts/experiments-simulation';
import { holdLocalPlatformsOpen } from '../../scripts/local-platform';
import { parseRampArgs, rampStatusText } from '../../scripts/ramp-cli';
import {
  addTallies,
  SIMULATE_PATH,
  type SimulationBatch,
  type SimulationStarted,
  type VariantTally,
} from '../../shared/console-api/simulation';
import { aiLandingTest } from '../fixtures/ai-landing-test';
import { rampedLandingTest } from '../fixtures/ramped-landing-test';

/**
 * `npm run experiments -- simulate`: its arguments, and how it drives the running worker's
 * development route (worker/dev/simulate-route.ts, whose writes test/worker/experiments/
 * simulate-route.test.ts checks) — here a stand-in server that records what it is asked.
 */

const run = (overrides: Partial<Record<string, unknown>> = {}) => ({
  kind: 'run',
  command: {
    name: 'simulate',
    experiment: null,
    visitors: null,
    days: null,
    seed: null,
    rates: {},
    vitals: {},
    harm: {},
    reset: false,
    origin: `http://127.0.0.1:${DEFAULT_PORT}`,
    ...overrides,
  },
  options: { remote: false, environment: 'development', persistTo: undefined },
});

describe('npm run experiments arguments', () => {
  it('simulate alone fills the split with the worker’s defaults, on npm start’s port', () => {
    expect(parseExperimentsArgs(['simulate'])).toEqual(run());
  });

  it('reads an experiment id and every option, and rates per variant', () => {
    const parsed = parseExperimentsArgs([
      'simulate',
      'pw-price',
      '--visitors=500',
      '--days',
      '3',
      '--seed',
      '42',
      '--reset',
      '--port',
      '8788',
      '--rates',
      ' current:purchase=0.05 ; lp11ch8/vc:signup=.3, purchase=1 ;',
      '--vitals',
      'lp11ch8/vc:lcp=+10%, inp=-12.5% ; current:cls=900%',
      '--harm',
      'lp11ch8/vc:declines=0.6,errors=.2',
    ]);
    expect(parsed).toEqual(
      run({
        experiment: 'pw-price',
        visitors: 500,
        days: 3,
        seed: 42,
        reset: true,
        origin: 'http://127.0.0.1:8788',
        rates: { current: { purchase: 0.05 }, 'lp11ch8/vc': { signup: 0.3, purchase: 1 } },
        vitals: { 'lp11ch8/vc': { lcp: 10, inp: -12.5 }, current: { cls: 900 } },
        harm: { 'lp11ch8/vc': { declines: 0.6, errors: 0.2 } },
      }),
    );
  });

  it.each([
    [
      ['simulate', '--remote'],
      '--remote: simulate writes only local state; a synthetic experiment must never reach the deployed store',
    ],
    [
      ['simulate', '--env', 'production'],
      '--env production: simulate writes only local state; a synthetic experiment must never reach the deployed store',
    ],
    [
      ['simulate', '--persist-to', '/tmp/state'],
      '--persist-to: simulate writes through the running worker, which keeps its own state; name it with --url or --port',
    ],
    [[], 'no command given'],
    [['simulate', 'a', 'b'], 'simulate takes one experiment id at most'],
    [
      ['simulate', 'PW Price'],
      '"PW Price" is not an experiment id (lower-case letters, digits, - and _, as the console shows it)',
    ],
    [['replay'], 'unknown command "replay"'],
    [['simulate', '--visitor', '5'], "Unknown option '--visitor'"],
    [
      ['simulate', '--visitors', '0'],
      '--visitors: count must be a whole number from 1 to 1000000, not "0"',
    ],
    [['simulate', '--days', '91'], '--days: count must be a whole number from 1 to 90, not "91"'],
    [
      ['simulate', '--seed', '1.5'],
      '--seed: count must be a whole number from 0 to 4294967295, not "1.5"',
    ],
    [['simulate', '--port', '0'], '--port: count must be a whole number from 1 to 65535, not "0"'],
    [
      ['simulate', '--url', 'localhost:8787'],
      '--url takes an http(s) origin such as http://127.0.0.1:8787, not "localhost:8787"',
    ],
    [
      ['simulate', '--url', 'http://localhost:9', '--port', '9'],
      '--port and --url name the worker twice: give one',
    ],
    [
      ['simulate', '--rates', 'purchase=0.05'],
      '--rates: "purchase=0.05" is not <variant>:<name>=<share>,...',
    ],
    [
      ['simulate', '--rates', 'default:buy=0.05'],
      '--rates: default: "buy" is not one of lookup, signup, checkout, purchase, upsell',
    ],
    [
      ['simulate', '--rates', 'default:purchase=5%'],
      '--rates: default: purchase must be a share from 0 to 1 such as 0.05, not "5%"',
    ],
    [
      ['simulate', '--rates', 'default:purchase=0.1,purchase=0.2'],
      '--rates: default: purchase is given twice',
    ],
    [['simulate', '--rates', 'a:lookup=0.5;a:signup=0.2'], '--rates: variant "a" is given twice'],
    [['simulate', '--rates', ' ; '], '--rates: no rates given'],
    [
      ['simulate', '--vitals', 'lcp=+10%'],
      '--vitals: "lcp=+10%" is not <variant>:<name>=<change>,...',
    ],
    [['simulate', '--vitals', 'b:fcp=+10%'], '--vitals: b: "fcp" is not one of lcp, inp, cls'],
    [
      ['simulate', '--vitals', 'b:lcp=0.1'],
      '--vitals: b: lcp must be a change from -90% to +900% such as +10%, not "0.1"',
    ],
    [
      ['simulate', '--vitals', 'b:lcp=-95%'],
      '--vitals: b: lcp must be a change from -90% to +900% such as +10%, not "-95%"',
    ],
    [['simulate', '--vitals', 'b:lcp=+1%,lcp=+2%'], '--vitals: b: lcp is given twice'],
    [['simulate', '--vitals', ';'], '--vitals: no changes given'],
    [
      ['simulate', '--harm', 'b:refunds=0.5'],
      '--harm: b: "refunds" is not one of declines, errors',
    ],
    [
      ['simulate', '--harm', 'b:declines=60%'],
      '--harm: b: declines must be a share from 0 to 1 such as 0.5, not "60%"',
    ],
  ])('%j is refused: %s', (argv, error) => {
    expect(parseExperimentsArgs(argv)).toEqual({ kind: 'usage-error', error });
  });
});

// ---------------------------------------------------------------------------------------------
// The command against a stand-in for npm start's worker.

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

async function runCli(args: readonly string[]): Promise<CliRun> {
  const printed = { stdout: [] as string[], stderr: [] as string[] };
  const log = vi.spyOn(console, 'log').mockImplementation((...line) => {
    printed.stdout.push(`${line.join(' ')}\n`);
  });
  const error = vi.spyOn(console, 'error').mockImplementation((...line) => {
    printed.stderr.push(`${line.join(' ')}\n`);
  });
  try {
    const code = await runExperimentsCli(args);
    return { code, stdout: printed.stdout.join(''), stderr: printed.stderr.join('') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

const tally = (exposed: number, purchase: number, paidMinor: number): VariantTally => ({
  exposed,
  lookup: 0,
  signup: 0,
  checkout: exposed,
  purchase,
  upsell: 0,
  paidMinor,
  renewals: 1,
  refunds: 0,
  renewalFailures: 0,
  recovered: 0,
  cancellations: 0,
  netMinor: paidMinor + 3999,
  vitals: Math.floor(exposed / 10),
  declined: 0,
  errors: 0,
});

const STARTED: SimulationStarted = {
  experiment: 'pw-price',
  name: 'Paywall: 3-day intro at 2.99',
  phase: 2,
  configVersion: 'v9+v3',
  variants: ['current', 'cheap'],
  control: 'current',
  shares: { current: 0.5, cheap: 0.5 },
  priceTest: true,
  countsFrom: 'checkout',
  primaryMetric: 'mature_revenue',
  matureAfterDays: 10,
  plannedPerArm: 10000,
  visitors: 2500,
  days: 18,
  now: 1_790_000_000_000,
  batchSize: 1000,
  matureShare: 0.4,
  // Started after the 18 days of exposures began.
  startedAt: '2026-09-20T10:00:00.000Z',
  vitalsSampleRate: 0.1,
};

interface Asked {
  path: string;
  body: Record<string, unknown>;
}

async function bodyOf(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

let server: Server | null = null;
afterEach(async () => {
  await new Promise((done) => (server ? server.close(done) : done(null)));
  server = null;
});

/** A worker that answers `start` with `started` (or `refusal`) and each batch with 2 tallies. */
async function aWorker(answer: { started?: SimulationStarted; refusal?: [number, string] }) {
  const asked: Asked[] = [];
  server = createServer(async (request, response) => {
    const body = await bodyOf(request);
    asked.push({ path: request.url ?? '', body });
    response.setHeader('content-type', 'application/json');
    if (answer.refusal) {
      response.statusCode = answer.refusal[0];
      response.end(JSON.stringify({ error: answer.refusal[1] }));
      return;
    }
    if (request.url === `${SIMULATE_PATH}/start`) {
      response.end(JSON.stringify(answer.started));
      return;
    }
    const batch = body as unknown as SimulationBatch;
    const count = Math.min(1000, batch.visitors - batch.batch * 1000);
    response.end(
      JSON.stringify({
        tallies: { current: tally(count / 2, 10, 6990), cheap: tally(count / 2, 20, 5980) },
        written: { exposures: count, outcomes: count, purchases: 30, lifecycleEvents: 2 },
        shardCalls: 100,
      }),
    );
  });
  await new Promise<void>((listening) => server!.listen(0, '127.0.0.1', listening));
  return { port: (server!.address() as AddressInfo).port, asked };
}

describe('simulate against the running worker', () => {
  it('asks for the run, then each batch of it with one seed and one clock, and adds them up', async () => {
    const worker = await aWorker({ started: STARTED });
    const cli = await runCli([
      'simulate',
      'pw-price',
      '--seed',
      '7',
      '--reset',
      '--rates',
      'cheap:purchase=0.1',
      '--vitals',
      'cheap:lcp=+20%',
      '--url',
      `http://127.0.0.1:${worker.port}`,
    ]);
    expect(cli.code, cli.stderr).toBe(0);
    expect(worker.asked[0]).toEqual({
      path: `${SIMULATE_PATH}/start`,
      body: {
        experiment: 'pw-price',
        visitors: null,
        days: null,
        rates: { cheap: { purchase: 0.1 } },
        vitals: { cheap: { lcp: 20 } },
        harm: {},
        reset: true,
      },
    });
    // 2,500 visitors in batches of 1,000: three, numbered, each with the start's phase and now.
    expect(worker.asked.slice(1).map((asked) => asked.body)).toEqual(
      [0, 1, 2].map((batch) => ({
        experiment: 'pw-price',
        phase: 2,
        rates: { cheap: { purchase: 0.1 } },
        vitals: { cheap: { lcp: 20 } },
        harm: {},
        seed: 7,
        visitors: 2500,
        days: 18,
        now: STARTED.now,
        batch,
      })),
    );
    expect(cli.stdout).toContain(
      'Simulated 2500 visitors of "pw-price" (Paywall: 3-day intro at 2.99) in phase 2 (config v9+v3) over the last 18 day(s), seed 7; the phase was emptied first:',
    );
    const table = cli.stdout.split('\n').filter((line) => /^(variant|current|cheap) /.test(line));
    expect(table.map((line) => line.split(/ +/))).toEqual([
      [
        'variant',
        'exposed',
        'checkout',
        'purchased',
        'paid',
        'USD',
        'renewals',
        'refunds',
        'failed',
        'recovered',
        'cancelled',
        'net',
        'USD',
        'vitals',
      ],
      // Each batch's 500, 500 and 250 visitors of a variant reported 50, 50 and 25 vitals.
      ['current', '1250', '1250', '30', '209.70', '3', '0', '0', '0', '0', '329.67', '125'],
      ['cheap', '1250', '1250', '60', '179.40', '3', '0', '0', '0', '0', '299.37', '125'],
    ]);
    expect(cli.stdout).toContain(
      "Field vitals (the results' page speed; the vitals column) from 10% of them, the worker's VITALS_SAMPLE_RATE (npm start -- --var VITALS_SAMPLE_RATE:1 samples every visitor); cheap's LCP +20%.",
    );
    expect(cli.stdout).toContain(
      "A price test: no verdict until every variant's mature sample reaches 10000; this run matures about 500 in its smallest variant.",
    );
    expect(cli.stdout).toContain(
      'It started on 2026-09-20, after the first of these visitors were exposed: the results\' Reach line, which counts first visits since the start, reads more exposed than "at most".',
    );
    expect(cli.stdout).toMatch(
      /^4 requests to the worker, 300 calls to the experiment shards, [\d.]+ s\.$/m,
    );
    expect(cli.stdout).toContain(
      `The results of Paywall: 3-day intro at 2.99: http://localhost:${worker.port}/console/experiments/${STARTED.experiment}`,
    );
  });

  it('sends the split’s reader to the Results page, the split having no card', async () => {
    const worker = await aWorker({
      started: { ...STARTED, experiment: 'split', name: 'Split test', startedAt: null },
    });
    const cli = await runCli(['simulate', '--port', String(worker.port)]);
    expect(cli.code, cli.stderr).toBe(0);
    expect(worker.asked[0]!.body.experiment).toBeNull();
    expect(cli.stdout).toContain(
      `The results of Split test: http://localhost:${worker.port}/console/results`,
    );
    expect(cli.stdout).not.toContain('It started on');
  });

  it('prints the worker’s refusal as its error, and asks for no batch', async () => {
    const worker = await aWorker({
      refusal: [422, 'the live config has no experiment "nope" (running: pw-price)'],
    });
    const cli = await runCli(['simulate', 'nope', '--port', String(worker.port)]);
    expect(cli.code, cli.stderr).toBe(1);
    expect(cli.stderr).toBe(
      'error: the live config has no experiment "nope" (running: pw-price)\n',
    );
    expect(worker.asked).toHaveLength(1);
  });

  it('says when the worker has no simulation route (not npm start’s)', async () => {
    const worker = await aWorker({ refusal: [404, 'Not found'] });
    const cli = await runCli(['simulate', '--port', String(worker.port)]);
    expect(cli.code, cli.stderr).toBe(1);
    expect(cli.stderr).toContain('has no simulation route: simulate needs npm start');
  });

  it('asks each batch on a connection of its own, and names a connection dropped unanswered', async () => {
    const worker = await aWorker({ started: STARTED });
    const connections: string[] = [];
    server!.on('request', (request: IncomingMessage) => {
      connections.push(request.headers.connection ?? 'keep-alive');
    });
    expect((await runCli(['simulate', '--port', String(worker.port)])).code).toBe(0);
    // None kept from the batch before, which workerd may close as the next is written.
    expect(connections.length).toBeGreaterThan(1);
    expect(new Set(connections)).toEqual(new Set(['close']));

    // A worker that takes the connection and drops it before answering: it is there, so not
    // "nothing answers".
    await new Promise((done) => server!.close(done));
    server = createServer((request) => request.socket.destroy());
    await new Promise<void>((listening) => server!.listen(worker.port, '127.0.0.1', listening));
    const dropped = await runCli(['simulate', '--port', String(worker.port)]);
    expect(dropped.code, dropped.stderr).toBe(1);
    expect(dropped.stderr).toMatch(
      new RegExp(
        `^error: the worker on http://127\\.0\\.0\\.1:${worker.port} dropped the connection before answering \\(.+\\): run the command again\n$`,
      ),
    );
  });

  it('says to run npm start when nothing answers', async () => {
    const worker = await aWorker({ started: STARTED });
    await new Promise((done) => server!.close(done));
    server = null;
    const cli = await runCli(['simulate', '--port', String(worker.port)]);
    expect(cli.code, cli.stderr).toBe(1);
    expect(cli.stderr).toBe(
      `error: nothing answers on http://127.0.0.1:${worker.port}: run npm start in another terminal first (or name it with --url)\n`,
    );
  });
});

describe('the summary', () => {
  it('adds batches per variant and leaves out the steps no variant took', () => {
    const sum = addTallies(addTallies({}, { a: tally(10, 1, 100) }), { a: tally(5, 2, 50) });
    expect(sum.a).toEqual({ ...tally(15, 3, 150), renewals: 2, netMinor: 150 + 2 * 3999 });
    expect(formatTallies(sum, ['a']).split('\n')[0]).not.toContain('lookup');
  });

  it('says an upsell test’s visitors are main buyers, and shows no main purchase for them', () => {
    const upsells = { ...tally(10, 0, 699 * 3), checkout: 0, upsell: 3 };
    const header = formatTallies({ a: upsells }, ['a']).split('\n')[0]!;
    expect(header.split(/ +/)).toEqual([
      'variant',
      'exposed',
      'upsells',
      'paid',
      'USD',
      'renewals',
      'refunds',
      'failed',
      'recovered',
      'cancelled',
      'net',
      'USD',
      'vitals',
    ]);
    expect(matureNote({ ...STARTED, countsFrom: 'upsell' })).toContain(
      'Each of them bought a main plan before the upsell exposed them: the results count the upsells (and any guide) they bought after it, and the planned sample counts these buyers.',
    );
    expect(matureNote(STARTED)).not.toContain('bought a main plan');
  });

  it('says which share reported field vitals and which variant draws them slower or faster', () => {
    const everyone = { ...STARTED, vitalsSampleRate: 1 };
    expect(vitalsNote(everyone, {})).toBe(
      "Field vitals (the results' page speed; the vitals column) from 100% of them, the worker's VITALS_SAMPLE_RATE; every variant drawn alike.",
    );
    expect(vitalsNote(everyone, { cheap: { inp: -5, cls: 0 }, current: { lcp: 12.5 } })).toBe(
      "Field vitals (the results' page speed; the vitals column) from 100% of them, the worker's VITALS_SAMPLE_RATE; current's LCP +12.5%, cheap's INP -5%.",
    );
    expect(vitalsNote({ ...STARTED, vitalsSampleRate: 0 }, { cheap: { lcp: 10 } })).toBe(
      'No field vitals: the worker samples no visitor (VITALS_SAMPLE_RATE=0).',
    );
  });
});

describe('npm run experiments -- ramp', () => {
  const local = { remote: false, environment: 'development', persistTo: undefined };

  it('reads each command, and refuses what it cannot do', () => {
    expect(parseRampArgs(['ramp', 'set', 'lp-ai', '--steps', '0.05:24:500,0.5:0:0'])).toEqual({
      kind: 'run',
      command: {
        name: 'set',
        subject: { kind: 'variant', experiment: 'lp-ai' },
        steps: [
          { coverage: 0.05, holdHours: 24, minPerArm: 500 },
          { coverage: 0.5, holdHours: 0, minPerArm: 0 },
        ],
        guardrails: null,
        reason: null,
      },
      options: local,
    });
    expect(
      parseRampArgs([
        'ramp',
        'rollback',
        'lp-ai',
        '--reason',
        'checkout broken',
        '--remote',
        '--env',
        'production',
      ]),
    ).toMatchObject({
      kind: 'run',
      command: { name: 'rollback', reason: 'checkout broken' },
      options: { remote: true, environment: 'production' },
    });
    const error = (argv: string[]) => {
      const parsed = parseRampArgs(argv);
      return parsed.kind === 'usage-error' ? parsed.error : parsed.kind;
    };
    expect(error(['ramp', 'hold', 'lp-ai'])).toBe('--reason: ramp hold says why');
    expect(error(['ramp', 'set', 'lp-ai'])).toBe('--steps: set takes them, and only set');
    expect(error(['ramp', 'set', 'lp-ai', '--steps', '0.05:24'])).toMatch(
      /^--steps: "0.05:24" is not/,
    );
    expect(error(['ramp', 'show', 'lp-ai', '--guardrails', 'speed=hold'])).toMatch(
      /^--guardrails: "speed" is not one of conversion, declines/,
    );
    expect(error(['ramp', 'grow', 'lp-ai'])).toBe('unknown ramp command "grow"');
    expect(error(['ramp', 'show'])).toBe('ramp show takes one experiment id');
    // A roll-out's ramp, and a route's.
    expect(
      parseRampArgs(['ramp', 'hold', 'lp-ai', '--roll-out', '--reason', 'tickets']),
    ).toMatchObject({
      command: { name: 'hold', subject: { kind: 'roll_out', experiment: 'lp-ai' } },
    });
    expect(parseRampArgs(['ramp', 'show', '--route', 'tiktok_new'])).toMatchObject({
      command: { name: 'show', subject: { kind: 'route', route: 'tiktok_new' } },
    });
    expect(error(['ramp', 'show', 'lp-ai', '--route', 'tiktok_new'])).toBe(
      'ramp show --route takes no experiment id',
    );
    expect(error(['ramp', 'set', 'lp-ai', '--roll-out', '--steps', '0.5:0:0'])).toMatch(
      /^--roll-out: a roll-out gets its ramp in the decision that ships it/,
    );
  });

  it('shows the step, the next gate and each guardrail', () => {
    const text = rampStatusText(
      'lp-ai',
      rampedLandingTest(
        { since: '2026-11-30T00:00Z' },
        { ramp: { guardrails: { refunds: 'rollback' } } },
      ),
    );
    expect(text.split('\n')).toEqual([
      'Ramp of "lp-ai" (running): running, step 1 of 2, since 2026-11-30T00:00Z',
      '  5% of its visitors get the variant, as many the control',
      'Next gate: step 2 (50%) once 2026-12-02T00:00:00.000Z has passed, each arm has 500 exposed, and no guardrail that holds or rolls back is broken',
      'Guardrails (each tested at α = 0.0071, every 15 minutes): conversion rollback, declines rollback, checkout_errors rollback, server_errors rollback, client_errors hold, refunds rollback, lcp hold, inp hold, srm hold, no_traffic hold; no traffic judged 24 h after the start',
      "  Whether each is broken now is in the experiment's results in the console, and in the alerts.",
    ]);
  });

  describe('against local KV', { timeout: 120_000 }, () => {
    let dir: string;
    let close: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      close = holdLocalPlatformsOpen();
      dir = await mkdtemp(join(tmpdir(), 'ramp-cli-'));
    });
    afterAll(async () => {
      await close?.();
      await rm(dir, { recursive: true, force: true });
    });

    async function printed(run: () => Promise<number>) {
      const out: string[] = [];
      const log = vi.spyOn(console, 'log').mockImplementation((...line) => {
        out.push(line.join(' '));
      });
      const error = vi.spyOn(console, 'error').mockImplementation((...line) => {
        out.push(line.join(' '));
      });
      try {
        return { code: await run(), out: out.join('\n') };
      } finally {
        log.mockRestore();
        error.mockRestore();
      }
    }

    it('sets a ramp on a draft, holds, resumes and rolls it back, each a version', async () => {
      const state = ['--persist-to', join(dir, 'state')];
      const file = join(dir, 'draft.json');
      const draft = { ...aiLandingTest(1), status: 'draft' };
      await writeFile(
        file,
        JSON.stringify({ experiments: { version: 1, experiments: { 'lp-ai': draft } } }),
      );
      expect((await printed(() => runConfigCli(['seed', ...state]))).code).toBe(0);
      expect((await printed(() => runConfigCli(['set', file, 'draft', ...state]))).code).toBe(0);
      const ramp = (...words: string[]) =>
        printed(() => runExperimentsCli(['ramp', ...words, ...state]));

      const set = await ramp(
        'set',
        'lp-ai',
        '--steps',
        '0.05:24:500,0.5:0:0',
        '--guardrails',
        'lcp=warn',
      );
      expect(set.code, set.out).toBe(0);
      expect(set.out).toMatch(/^published v3: ramp set of "lp-ai"$/m);
      expect((await ramp('resume', 'lp-ai', '--reason', 'go')).out).toBe(
        'error: the ramp is running, not held: nothing to resume; nothing written',
      );
      const held = await ramp('hold', 'lp-ai', '--reason', 'support tickets up');
      expect(held.out).toMatch(/^ {2}Reason: support tickets up$/m);
      expect((await ramp('resume', 'lp-ai', '--reason', 'tickets explained')).code).toBe(0);
      const back = await ramp('rollback', 'lp-ai', '--reason', 'checkout broken');
      expect(back.out).toMatch(/: rolled_back, step 1 of 2/);
      expect(back.out).toMatch(/The variant reaches no one/);
      const refused = await ramp('set', 'lp-ai', '--steps', '0.05:24:0,0.6:0:0');
      expect(refused.code, refused.out).toBe(1);
      expect(refused.out).toContain(
        'experiments.experiments.lp-ai.ramp.steps.1.coverage: must be at most 0.5',
      );
      const history = await printed(() => runConfigCli(['history', ...state]));
      expect(history.out.split('\n').slice(0, 4)).toEqual([
        expect.stringMatching(/^v6 .* cli {2}by .*: Ramp of lp-ai: rollback: checkout broken$/),
        expect.stringMatching(/^v5 .*: Ramp of lp-ai: resume: tickets explained$/),
        expect.stringMatching(/^v4 .*: Ramp of lp-ai: hold: support tickets up$/),
        expect.stringMatching(/^v3 .*: Ramp of lp-ai: set$/),
      ]);
    });

    it('starts a paused route on a ramp and rolls it back, each a version', async () => {
      const state = ['--persist-to', join(dir, 'route-state')];
      const file = join(dir, 'routing.json');
      const routing = {
        version: 1,
        audiences: {
          tiktok: { groups: [[{ attribute: 'source', operator: 'in', values: ['tiktok'] }]] },
        },
        routes: [
          { id: 'tiktok_bf', audience: 'tiktok', flow: 'default', paused: true },
          { id: 'default', flow: 'default' },
        ],
      };
      await writeFile(file, JSON.stringify({ routing }));
      expect((await printed(() => runConfigCli(['seed', ...state]))).code).toBe(0);
      expect((await printed(() => runConfigCli(['set', file, 'paused', ...state]))).code).toBe(0);
      const ramp = (...words: string[]) =>
        printed(() => runExperimentsCli(['ramp', ...words, ...state]));
      const set = await ramp('set', '--route', 'tiktok_bf', '--steps', '0.05:24:500,0.5:0:0');
      expect(set.code, set.out).toBe(0);
      expect(set.out).toMatch(/^published v3: ramp set of route tiktok_bf$/m);
      expect(set.out).toMatch(/^Ramp of route tiktok_bf: running, step 1 of 2/m);
      expect(set.out).toMatch(/5% of the visitors it matches get the route/);
      const taking = await ramp('set', '--route', 'tiktok_bf', '--steps', '0.5:0:0');
      expect(taking.out).toBe(
        'error: route "tiktok_bf" takes visitors already: a ramp starts a new or paused route; nothing written',
      );
      const back = await ramp('rollback', '--route', 'tiktok_bf', '--reason', 'landing broken');
      expect(back.out).toMatch(/The route takes no one/);
      const history = await printed(() => runConfigCli(['history', ...state]));
      expect(history.out.split('\n').slice(0, 2)).toEqual([
        expect.stringMatching(/: Ramp of route tiktok_bf: rollback: landing broken$/),
        expect.stringMatching(/: Ramp of route tiktok_bf: set$/),
      ]);
    });
  });
});
