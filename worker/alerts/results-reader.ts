import type { Bindings } from '../env';
import { experimentResults } from '../experiments/answer/experiment-results';
import type { ResultsReader } from './run-alerts';

/**
 * Where the alerts read each experiment's results: the very answer the console shows
 * (ExperimentResultsAnswer), so an alert never says what the console would not.
 */
export function experimentResultsReader(env: Bindings): ResultsReader {
  return (config, id) => experimentResults(env, config, id);
}
