import { availableParallelism, loadavg } from 'node:os';
import { EMPTY_CONTENT } from '../../shared/config/content';
import type { ExperimentsDocument } from '../../shared/config/experiments';
import { parseExperiments } from '../../shared/config/experiments';
import { parseRouting } from '../../shared/config/routing';
import type { SplitDocument } from '../../shared/config/split';
import { DEFAULT_ROUTE_ID } from '../../shared/routing';
import { DEFAULT_FLOWS } from '../../worker/config/defaults';
import { HASHED_PLACEMENT } from '../../worker/experiments/assignment/assign';
import {
  assignExperiments,
  compileExperiments,
  shapeOf,
  visitorTrigger,
} from '../../worker/experiments/config/evaluate';
import { visitorFacts } from '../../worker/routing/attributes';
import { chooseRoute, compileRouting } from '../../worker/routing/router';
import { benchExperimentsDocument } from './bench-experiments';
import {
  BENCH_AUDIENCES,
  BENCH_NOW,
  BENCH_ROUTES,
  benchRouting,
  benchVisitors,
} from './routing-document';
import { median, positiveInt, timeRuns } from './timing';

/**
 * `npm run bench -- routing`: the CPU a page spends choosing its route (its budget: at most
 * 0.05 ms for 50 routes and 30 audiences), measured as the route middleware spends it, a fresh
 * visitorFacts and chooseRoute per arriving visitor, over visitors most of whom no route takes
 * (each then tests every route, the worst case). Also what a new routing version costs once per
 * isolate: its parse and its compile. Runs in Node's V8, the engine workerd embeds; no worker
 * is started. Exits 1 over budget.
 *
 * Then the same for the experiments a page places the visitor in (worker/request/visit-facts.ts
 * and exposure.ts): five running experiments, one in each layer (the split in the flow layer),
 * each layer's pin looked for, its bucket, coverage and variant hashed, the visitor's funnel
 * made, and every experiment's trigger worked out for them, as a page that may expose does.
 * Budget: 0.05 ms a page for these too.
 *
 * Env: BENCH_ROUTING_RUNS (default 15), BENCH_ROUTING_PAGES (pages a run, default 20000).
 */

const BUDGET_US_PER_PAGE = 50;
const EXPERIMENTS_BUDGET_US_PER_PAGE = 50;

/** A split of two flows and one running experiment in each other layer, two on audiences. */
function benchExperiments(): { split: SplitDocument; experiments: ExperimentsDocument } {
  return {
    split: {
      version: 'bench',
      defaultVariant: 'default',
      variants: { default: { weight: 1 }, lp11ch8: { weight: 1 } },
    },
    experiments: benchExperimentsDocument({ countries: ['US', 'DE'] }),
  };
}
const VISITORS = 1000;

/**
 * Microseconds a page spends placing the visitor in the experiments, as `timeRuns` gives them,
 * and what the placements summed to (kept, so the optimiser cannot drop them as unused).
 */
function timeExperimentsPages(
  { runs, pages }: { runs: number; pages: number },
  visitors: ReturnType<typeof benchVisitors>,
  compiled: ReturnType<typeof compileRouting>,
  routing: Parameters<typeof compileRouting>[0],
): { perExperimentsPage: number[]; placed: number } {
  const { split, experiments: experimentsDocument } = benchExperiments();
  const experimentsChecked = parseExperiments(JSON.stringify(experimentsDocument));
  if (!experimentsChecked.ok)
    throw new Error(`the bench's experiments are invalid: ${experimentsChecked.error}`);
  const experiments = compileExperiments(experimentsChecked.value, split, routing, EMPTY_CONTENT);
  const noPins = new Map<string, string>();
  // Uuid-shaped, so each hash reads as many characters as a real visitor id.
  const ids = visitors.map(
    (_, index) => `6f1c2a4e-0000-4000-8000-${String(index).padStart(12, '0')}`,
  );
  let placed = 0;
  const perExperimentsPage = timeRuns(runs, pages, (call) => {
    const visitor = visitors[call % VISITORS]!;
    const facts = visitorFacts(visitor);
    const route = chooseRoute(compiled, facts, visitor.now);
    const base = {
      flow: route.flow,
      screens: DEFAULT_FLOWS.flows[route.flow] ?? DEFAULT_FLOWS.flows.default!,
      plans: route.plans,
      upsellPlans: route.upsellPlans,
      guidePlans: route.guidePlans,
    };
    const assignments = assignExperiments(
      experiments,
      {
        visitorId: ids[call % VISITORS]!,
        route: route.id,
        facts,
        pins: noPins,
        now: visitor.now,
      },
      HASHED_PLACEMENT,
    );
    placed += shapeOf(experiments, base, assignments, DEFAULT_FLOWS).screens.length;
    for (let index = 0; index < assignments.length; index++)
      placed += visitorTrigger(experiments, base, assignments, index, DEFAULT_FLOWS) ?? 0;
  });
  return { perExperimentsPage, placed };
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

  const { perExperimentsPage, placed } = timeExperimentsPages(
    { runs, pages },
    visitors,
    compiled,
    parsed.value,
  );
  chosenLength += placed;

  const page = median(perPage);
  const experimentsPage = median(perExperimentsPage);
  const ok = page <= BUDGET_US_PER_PAGE && experimentsPage <= EXPERIMENTS_BUDGET_US_PER_PAGE;
  const [load = 0] = loadavg();
  const fixed = (values: readonly number[], digits: number) =>
    values.map((value) => value.toFixed(digits)).join(' ');
  console.log(
    `Routing: ${BENCH_ROUTES} routes, ${BENCH_AUDIENCES} audiences (${text.length} B of JSON);` +
      ` ${VISITORS} visitors, ${fallThrough} of them (${Math.round((fallThrough / VISITORS) * 100)}%) taken by no route but the default.` +
      `\n  per page, visitorFacts + chooseRoute: ${page.toFixed(2)} µs median of ${runs} runs of ${pages}` +
      ` ${ok ? '✓' : '✗'} (budget ${BUDGET_US_PER_PAGE} µs = 0.05 ms; runs ${fixed(perPage, 2)})` +
      `\n  per page, the route and 5 experiments placed, the funnel and every trigger:` +
      ` ${experimentsPage.toFixed(2)} µs median ${experimentsPage <= EXPERIMENTS_BUDGET_US_PER_PAGE ? '✓' : '✗'}` +
      ` (budget ${EXPERIMENTS_BUDGET_US_PER_PAGE} µs; runs ${fixed(perExperimentsPage, 2)})` +
      `\n  per version, once an isolate: compile ${median(compiles).toFixed(1)} µs, parse and check` +
      ` ${median(parses).toFixed(0)} µs (medians of ${runs} runs)` +
      `\n  Machine: ${availableParallelism()} CPUs, load average ${load.toFixed(1)}. (checksum ${chosenLength})`,
  );
  return ok ? 0 : 1;
}
