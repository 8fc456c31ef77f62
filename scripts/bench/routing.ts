import { availableParallelism, loadavg } from 'node:os';
import { DEFAULT_ROUTE_ID } from '../../shared/routing';
import { visitorFacts } from '../../worker/routing/attributes';
import { chooseRoute, compileRouting } from '../../worker/routing/router';
import { parseRouting } from '../../worker/routing/schema';
import {
  BENCH_AUDIENCES,
  BENCH_NOW,
  BENCH_ROUTES,
  benchRouting,
  benchVisitors,
} from './routing-document';

/**
 * `npm run bench -- routing`: the CPU a page spends choosing its route (its budget: at most
 * 0.05 ms for 50 routes and 30 audiences), measured as the route middleware spends it, a fresh
 * visitorFacts and chooseRoute per arriving visitor, over visitors most of whom no route takes
 * (each then tests every route, the worst case). Also what a new routing version costs once per
 * isolate: its parse and its compile. Runs in Node's V8, the engine workerd embeds; no worker
 * is started. Exits 1 over budget.
 *
 * Env: BENCH_ROUTING_RUNS (default 15), BENCH_ROUTING_PAGES (pages a run, default 20000).
 */

const BUDGET_US_PER_PAGE = 50;
const VISITORS = 1000;

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer`);
  return value;
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

/** Microseconds per call of `work`, `calls` calls a run, each run timed on its own. */
function timeRuns(runs: number, calls: number, work: (call: number) => void): number[] {
  // A first run untimed, so every timed one runs optimised code, as a warm isolate does.
  for (let call = 0; call < calls; call++) work(call);
  return Array.from({ length: runs }, () => {
    const started = performance.now();
    for (let call = 0; call < calls; call++) work(call);
    return ((performance.now() - started) * 1000) / calls;
  });
}

export async function runRoutingBench(): Promise<number> {
  const runs = positiveInt('BENCH_ROUTING_RUNS', 15);
  const pages = positiveInt('BENCH_ROUTING_PAGES', 20_000);
  const document = benchRouting();
  const text = JSON.stringify(document);
  const parsed = parseRouting(text);
  if (!parsed.ok) throw new Error(`the bench's routing is invalid: ${parsed.error}`);
  const compiled = compileRouting(parsed.value);
  const visitors = benchVisitors(VISITORS);

  const fallThrough = visitors.filter(
    (visitor) => chooseRoute(compiled, visitorFacts(visitor), BENCH_NOW).id === DEFAULT_ROUTE_ID,
  ).length;
  // Kept and printed, so the optimiser cannot drop the choice as unused.
  let chosenLength = 0;
  const perPage = timeRuns(runs, pages, (call) => {
    const visitor = visitors[call % VISITORS]!;
    chosenLength += chooseRoute(compiled, visitorFacts(visitor), visitor.now).id.length;
  });
  const compiles = timeRuns(runs, 200, () => {
    chosenLength += compileRouting(parsed.value).routes.length;
  });
  const parses = timeRuns(runs, 50, () => {
    chosenLength += parseRouting(text).ok ? 1 : 0;
  });

  const page = median(perPage);
  const ok = page <= BUDGET_US_PER_PAGE;
  const [load = 0] = loadavg();
  const fixed = (values: readonly number[], digits: number) =>
    values.map((value) => value.toFixed(digits)).join(' ');
  console.log(
    `Routing: ${BENCH_ROUTES} routes, ${BENCH_AUDIENCES} audiences (${text.length} B of JSON);` +
      ` ${VISITORS} visitors, ${fallThrough} of them (${Math.round((fallThrough / VISITORS) * 100)}%) taken by no route but the default.` +
      `\n  per page, visitorFacts + chooseRoute: ${page.toFixed(2)} µs median of ${runs} runs of ${pages}` +
      ` ${ok ? '✓' : '✗'} (budget ${BUDGET_US_PER_PAGE} µs = 0.05 ms; runs ${fixed(perPage, 2)})` +
      `\n  per version, once an isolate: compile ${median(compiles).toFixed(1)} µs, parse and check` +
      ` ${median(parses).toFixed(0)} µs (medians of ${runs} runs)` +
      `\n  Machine: ${availableParallelism()} CPUs, load average ${load.toFixed(1)}. (checksum ${chosenLength})`,
  );
  return ok ? 0 : 1;
}
