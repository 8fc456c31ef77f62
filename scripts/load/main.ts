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

const USAGE = `npm run load -- [--fault each|<call>] [--visitors N] [--concurrency N] [--fault-seconds S]

Drives concurrent visitors through the built development worker (npm run build first) while
portal calls fail in turn, then reports per visitor: charges, what they were told, purchase
events stored against accepted. Exits 1 if any visitor was charged twice, told 'failed' while
charged, or lost a purchase event.

  --fault          each (default: ${EACH_CALL_IN_TURN.map((p) => p.call).join(', ')} in turn) or one of
                   ${FAULT_CALLS.join(', ')}
  --visitors       journeys in all (default 200)
  --concurrency    journeys at once (default 50)
  --fault-seconds  how long each call fails (default 10)`;

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
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
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

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 2;
});
