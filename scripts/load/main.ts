import { parseArgs } from 'node:util';
import { FAULT_CALLS, type FaultCall, isFaultCall } from '../../portal/faults';
import { startBuiltWorker } from '../built-worker';
import {
  brokenPromises,
  EACH_CALL_IN_TURN,
  type FaultPhase,
  runFaultLoad,
  summary,
} from './fault-run';
import { brokenOutagePromises, outageSummary, runProviderOutage } from './provider-outage';

const USAGE = `npm run load -- [--fault each|<call>] [--visitors N] [--concurrency N] [--fault-seconds S]

Drives concurrent visitors through the built development worker (npm run build first) while
portal calls fail in turn, then reports per visitor: charges, what they were told, purchase
events stored against accepted. Exits 1 if any visitor was charged twice, told 'failed' while
charged, or lost a purchase event.

  --fault          each (default: ${EACH_CALL_IN_TURN.map((p) => p.call).join(', ')} in turn) or one of
                   ${FAULT_CALLS.join(', ')}
  --visitors       journeys in all (default 200)
  --concurrency    journeys at once (default 50)
  --fault-seconds  how long each call fails (default 10)

npm run load -- --provider stripe|braintree [--outage ON,OFF,ON...] [--tail-seconds S]
                [--rate N] [--think-seconds S]

The provider outage run instead (docs/payments.md "A visitor already paying when the provider
fails"): new visitors arrive at a steady rate and pay while the provider's charges fail on, off
and on again, then a tail without a fault. Reports and checks three figures: every visitor
already paying on it offered the other provider within 15 s of their first failure, nobody
charged twice, and the provider not counted back before its 60 s cool-down. Runs for the sum of
the outage pattern and the tail, about 4 minutes by default, plus the start of the worker.

  --provider       the provider that fails
  --outage         seconds on, off, on, ... (default 60,30,30: off for less than the cool-down)
  --tail-seconds   seconds without a fault after it, to see the provider come back (default 100)
  --rate           new visitors a second (default 1)
  --think-seconds  from the checkout loading (the provider pinned) to Pay (default 20)`;

function phasesOf(fault: string): readonly FaultPhase[] {
  if (fault === 'each') return EACH_CALL_IN_TURN;
  if (!isFaultCall(fault)) throw new Error(`unknown call '${fault}'\n\n${USAGE}`);
  const call: FaultCall = fault;
  // A charge call fails after its work: the card is charged and the answer lost, the worst case.
  return [
    {
      call,
      timing: call === 'subscriptions-polling' || call === 'subscriptions' ? 'after' : 'before',
    },
  ];
}

function count(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1)
    throw new Error(`--${name} takes a whole number above 0`);
  return parsed;
}

async function main() {
  const { values } = parseArgs({
    options: {
      fault: { type: 'string', default: 'each' },
      visitors: { type: 'string' },
      concurrency: { type: 'string' },
      'fault-seconds': { type: 'string' },
      provider: { type: 'string' },
      outage: { type: 'string', default: '60,30,30' },
      'tail-seconds': { type: 'string' },
      rate: { type: 'string' },
      'think-seconds': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (values.provider !== undefined) {
    await outageRun(values);
    return;
  }
  const phases = phasesOf(values.fault ?? 'each');
  const worker = await startBuiltWorker({ quiet: true });
  const portalErrors = () => worker.logs.filter((line) => line.error === 'portal_error').length;
  try {
    const result = await runFaultLoad({
      origin: worker.url.origin,
      portalDb: worker.portalDb,
      eventsDb: worker.eventsDb,
      visitors: count(values.visitors, 200, 'visitors'),
      concurrency: count(values.concurrency, 50, 'concurrency'),
      phases,
      faultMs: count(values['fault-seconds'], 10, 'fault-seconds') * 1000,
      failuresSeen: portalErrors,
      patienceMs: 120_000,
      settleMs: 20_000,
    });
    console.log(summary(result));
    console.log(`  portal_error lines logged: ${portalErrors()}`);
    const broken = brokenPromises(result);
    for (const promise of broken) console.error(`BROKEN: ${promise}`);
    if (broken.length === 0)
      console.log('No visitor charged twice, none told failed while charged, nothing lost.');
    process.exitCode = broken.length === 0 ? 0 : 1;
  } finally {
    await worker.stop();
  }
}

function outagePattern(value: string): number[] {
  const pattern = value.split(',').map((part) => count(part.trim(), 0, 'outage'));
  if (pattern.length === 0 || pattern.length % 2 === 0) {
    throw new Error('--outage takes seconds on, off, on, ...: an odd count, starting with on');
  }
  return pattern;
}

async function outageRun(values: Record<string, string | boolean | undefined>) {
  const provider = values.provider;
  if (provider !== 'stripe' && provider !== 'braintree') {
    throw new Error(`--provider takes stripe or braintree\n\n${USAGE}`);
  }
  const rate = Number(values.rate ?? 1);
  if (!(rate > 0 && rate <= 20))
    throw new Error('--rate takes a number of visitors a second, up to 20');
  const worker = await startBuiltWorker({ quiet: true });
  try {
    const result = await runProviderOutage({
      origin: worker.url.origin,
      portalDb: worker.portalDb,
      provider,
      pattern: outagePattern(String(values.outage)),
      tailSeconds: count(values['tail-seconds'] as string | undefined, 100, 'tail-seconds'),
      rate,
      thinkMs: count(values['think-seconds'] as string | undefined, 20, 'think-seconds') * 1000,
      patienceMs: 120_000,
      logs: () => worker.logs,
    });
    console.log(outageSummary(result, provider));
    const broken = brokenOutagePromises(result, provider);
    for (const promise of broken) console.error(`BROKEN: ${promise}`);
    if (broken.length === 0) {
      console.log(
        'Every visitor already paying offered the other provider in time, nobody charged twice, the provider never back before its cool-down.',
      );
    }
    process.exitCode = broken.length === 0 ? 0 : 1;
  } finally {
    await worker.stop();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 2;
});
