import {
  addTallies,
  type HarmOverrides,
  type VariantTally,
  type VitalsShifts,
} from '../../../shared/console-api/simulation';
import { atom } from '../../kit/stores/atom';
import { trafficText } from '../alert-text';
import { simulateBatch, startSimulation } from '../simulation-api';

/** What the last Send test traffic did, or is doing; null before any. */
export type TestTraffic =
  | { kind: 'sending'; sent: number; of: number }
  | { kind: 'sent'; text: string }
  | { kind: 'failed'; text: string }
  | null;

export const $testTraffic = atom<TestTraffic>(null);

export interface TestTrafficRequest {
  experiment: string;
  visitors: number;
  harm: HarmOverrides;
  vitals: VitalsShifts;
}

/**
 * Sends simulated visitors to `experiment` through the local simulator, as `npm run experiments
 * -- simulate` does (a start, then a batch per thousand), with the harm and slower pages asked
 * for each variant, dated over the last day. A second press while one runs adds nothing.
 */
export async function sendTestTraffic(request: TestTrafficRequest): Promise<void> {
  if ($testTraffic.get()?.kind === 'sending') return;
  $testTraffic.set({ kind: 'sending', sent: 0, of: request.visitors });
  const { experiment, visitors, harm, vitals } = request;
  const start = { experiment, visitors, days: 1, rates: {}, vitals, harm, reset: false };
  const started = await startSimulation(start);
  if (!started.ok) {
    $testTraffic.set({ kind: 'failed', text: started.message });
    return;
  }
  const run = started.value;
  const seed = crypto.getRandomValues(new Uint32Array(1))[0]!;
  let tallies: Record<string, VariantTally> = {};
  for (let batch = 0; batch * run.batchSize < run.visitors; batch++) {
    const answer = await simulateBatch({
      experiment: run.experiment,
      phase: run.phase,
      rates: {},
      vitals,
      harm,
      seed,
      visitors: run.visitors,
      days: run.days,
      now: run.now,
      batch,
    });
    if (!answer.ok) {
      $testTraffic.set({ kind: 'failed', text: answer.message });
      return;
    }
    tallies = addTallies(tallies, answer.value.tallies);
    const sent = Math.min(run.visitors, (batch + 1) * run.batchSize);
    $testTraffic.set({ kind: 'sending', sent, of: run.visitors });
  }
  $testTraffic.set({ kind: 'sent', text: trafficText(run.experiment, run.variants, tallies) });
}
