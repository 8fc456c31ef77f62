import type { Bindings } from '../env';
import type { ResultsReader } from './run-alerts';

/**
 * Where the alerts read each experiment's results: the very answer the console shows
 * (ExperimentResultsAnswer), so an alert never says what the console would not.
 *
 * The one place to connect once worker/experiments/experiment-results.ts is in this branch:
 *
 *   import { experimentResults } from '../experiments/experiment-results';
 *   export function experimentResultsReader(env: Bindings): ResultsReader | null {
 *     return (config, id) => experimentResults(env, config, id);
 *   }
 *
 * Until then it is null, and each run logs alerts_results_unavailable (never silent) and claims
 * nothing; what earlier runs claimed is still posted.
 */
export function experimentResultsReader(_env: Bindings): ResultsReader | null {
  return null;
}
