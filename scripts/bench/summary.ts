import type { LighthouseRun } from './lighthouse';

/**
 * From Lighthouse rounds to each page's figures against the floor. A round is every page once,
 * the floor among them, run one after the other; ratios are taken within a round (a screen's LCP
 * over the floor's from the same few seconds, when the machine was as busy for both) and the
 * median over rounds is reported, so a slow moment of the machine moves both sides of a ratio.
 */

/**
 * The goals a screen is held to, each against the floor of the same round: a static page with
 * the screen's own text and styles and no script, measured by the same Lighthouse on the same
 * machine a few seconds apart. What the floor itself scores is the machine's, and the rest is
 * ours. (On a fast machine the floor scores 100 with a TBT near 0, and these are the absolute
 * goals they replace: score 100, TBT at most 50 ms.)
 */
export const GOALS = {
  /**
   * How many points of Lighthouse's score (0–100) a screen may be under the floor's: one, the
   * score's own step (it is shown rounded), so a screen level with the floor never misses.
   */
  scoreUnderFloor: 1,
  lcpRatio: 1.1,
  /** Total blocking time a screen may add to the floor's, in ms. */
  tbtOverFloorMs: 50,
  /** CLS 0, as Lighthouse prints it (three decimals). */
  cls: 0.0005,
  longestTaskRatio: 1.25,
} as const;

/**
 * Lighthouse lists main-thread tasks of 50 ms or more; a page with none has its longest under
 * that, which is what the ratio counts it as (an upper bound for it, so never flattering).
 */
const LONG_TASK_THRESHOLD_MS = 50;

export type Round = ReadonlyMap<string, LighthouseRun>;

export interface PageFigures {
  page: string;
  score: number | null;
  lcpMs: number | null;
  lcpRatio: number | null;
  /** Median over rounds of the score less the floor's (points; negative: under the floor). */
  scoreOverFloor: number | null;
  tbtMs: number | null;
  /** Median over rounds of the TBT less the floor's, in ms. */
  tbtOverFloorMs: number | null;
  cls: number | null;
  /** null when no run had a task of 50 ms or more. */
  longestTaskMs: number | null;
  longestTaskRatio: number | null;
  scores: (number | null)[];
  /**
   * The LCP elements of the rounds, the most frequent first, with how many rounds each was
   * (`main > p.lead ×4`): a screen whose element changes has changed what it paints first.
   */
  lcpElements: string[];
  /** Median render delay of the LCP element (the time the content waited to be painted). */
  lcpRenderDelayMs: number | null;
  errors: string[];
}

function countedElements(runs: readonly LighthouseRun[]): string[] {
  const counts = new Map<string, number>();
  for (const run of runs) {
    const element = run.lcpElement ?? '(none)';
    counts.set(element, (counts.get(element) ?? 0) + 1);
  }
  return [...counts]
    .sort(([, a], [, b]) => b - a)
    .map(([element, count]) => `${element} ×${count}`);
}

function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? null)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

const known = (values: readonly (number | null | undefined)[]): number[] =>
  values.filter((value): value is number => typeof value === 'number' && Number.isFinite(value));

const longestTask = (run: LighthouseRun) => run.maxTaskMs ?? LONG_TASK_THRESHOLD_MS;

/**
 * Each page's figures, its ratios and differences taken against its floor (`floorOf`: the page
 * itself without its scripts) in the same round.
 */
export function summarise(
  rounds: readonly Round[],
  floorOf: (page: string) => string,
): PageFigures[] {
  const pages = [...new Set(rounds.flatMap((round) => [...round.keys()]))];
  return pages.map((page) => {
    const runs = rounds.flatMap((round) => {
      const run = round.get(page);
      return run ? [{ run, floor: round.get(floorOf(page)) }] : [];
    });
    /** The median over rounds of `compare(page's, floor's)`, rounds where either failed left out. */
    const againstFloor = (
      of: (run: LighthouseRun) => number | undefined,
      compare: (mine: number, theirs: number) => number | undefined,
    ) =>
      median(
        known(
          runs.map(({ run, floor: floorRun }) => {
            const mine = of(run);
            const theirs = floorRun && !floorRun.error ? of(floorRun) : undefined;
            return mine === undefined || theirs === undefined || run.error
              ? undefined
              : compare(mine, theirs);
          }),
        ),
      );
    const ratios = (of: (run: LighthouseRun) => number | undefined) =>
      againstFloor(of, (mine, theirs) => (theirs === 0 ? undefined : mine / theirs));
    const differences = (of: (run: LighthouseRun) => number | undefined) =>
      againstFloor(of, (mine, theirs) => mine - theirs);
    const good = runs.map(({ run }) => run).filter((run) => !run.error);
    const tasks = known(good.map((run) => run.maxTaskMs));
    const scores = runs.map(({ run }) => (run.score === null ? null : run.score * 100));
    return {
      page,
      score: median(known(scores)),
      // In whole points, as Lighthouse shows them (0.98 * 100 is not quite 98).
      scoreOverFloor: differences((run) =>
        run.score === null ? undefined : Math.round(run.score * 100),
      ),
      lcpMs: median(known(good.map((run) => run.lcpMs))),
      lcpRatio: ratios((run) => run.lcpMs),
      tbtMs: median(known(good.map((run) => run.tbtMs))),
      tbtOverFloorMs: differences((run) => run.tbtMs),
      cls: median(known(good.map((run) => run.cls))),
      longestTaskMs: tasks.length === 0 ? null : median(good.map(longestTask)),
      longestTaskRatio: ratios(longestTask),
      scores,
      lcpElements: countedElements(good),
      lcpRenderDelayMs: median(known(good.map((run) => run.lcpRenderDelayMs))),
      errors: [...new Set(runs.flatMap(({ run }) => (run.error ? [run.error] : [])))],
    };
  });
}

/** Which goals a page misses; [] when it meets them all (or is the floor itself). */
export function missedGoals(figures: PageFigures): string[] {
  const missed: string[] = [];
  const over = (value: number | null, limit: number) => value === null || value > limit;
  const under = figures.scoreOverFloor === null ? null : -figures.scoreOverFloor;
  if (over(under, GOALS.scoreUnderFloor)) missed.push('score');
  if (over(figures.lcpRatio, GOALS.lcpRatio)) missed.push('LCP');
  if (over(figures.tbtOverFloorMs, GOALS.tbtOverFloorMs)) missed.push('TBT');
  if (over(figures.cls, GOALS.cls)) missed.push('CLS');
  if (over(figures.longestTaskRatio, GOALS.longestTaskRatio)) missed.push('task');
  return missed;
}
