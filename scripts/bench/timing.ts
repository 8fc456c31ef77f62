/** Timing helpers of the CPU benchmarks that run in Node's V8 (./routing.ts, ./content.ts). */

export function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer`);
  return value;
}

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

/** Microseconds per call of `work`, `calls` calls a run, each run timed on its own. */
export function timeRuns(runs: number, calls: number, work: (call: number) => void): number[] {
  // A first run untimed, so every timed one runs optimised code, as a warm isolate does.
  for (let call = 0; call < calls; call++) work(call);
  return Array.from({ length: runs }, () => {
    const started = performance.now();
    for (let call = 0; call < calls; call++) work(call);
    return ((performance.now() - started) * 1000) / calls;
  });
}
