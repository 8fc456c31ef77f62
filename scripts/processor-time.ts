import { readdirSync, readFileSync } from 'node:fs';

/**
 * Processor time, read from Linux's /proc: what a test file or a whole run cost the machine's
 * cores, which unlike wall time does not grow when other work shares them (docs/testing.md,
 * "The budget: 600 s on two cores"). Elsewhere than Linux nothing is read and the readers answer
 * undefined.
 */

/** The kernel's clock ticks per second (USER_HZ), which /proc counts in: 100 on Linux. */
const TICKS_PER_SECOND = 100;

/** The processes a browser test file makes work, by what they are. */
export interface TreeSeconds {
  /** Chromium's browser, renderer, GPU and utility processes. */
  chromium: number;
  /** The built worker's workerd. */
  workerd: number;
  /** The test process itself: the tests, and Playwright's driver in it. */
  test: number;
  /** Any other child: a CLI the test started, its node, a shell. */
  other: number;
  /**
   * The test process's children that have ended and been waited for: a stopped workerd, a closed
   * browser, a finished CLI, with all the time they took. Between two readings a child that ended
   * leaves its kind and counts here whole, so the kinds' sum stays right where a kind alone may
   * fall.
   */
  ended: number;
}

interface ProcessStat {
  parent: number;
  name: string;
  /** Its own user and system time, in ticks. */
  own: number;
  /** Its ended and waited-for children's, in ticks. */
  children: number;
}

/** One line of /proc/<pid>/stat, its name in parentheses possibly holding spaces and brackets. */
export function parseStat(line: string): ProcessStat {
  const name = line.slice(line.indexOf('(') + 1, line.lastIndexOf(')'));
  // Fields from the third on (state, ppid, …), numbered as proc(5) does from 3.
  const fields = line.slice(line.lastIndexOf(')') + 2).split(' ');
  const field = (number: number) => Number(fields[number - 3]);
  return {
    parent: field(4),
    name,
    own: field(14) + field(15),
    children: field(16) + field(17),
  };
}

function readStats(): Map<number, ProcessStat> | undefined {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return undefined;
  }
  const stats = new Map<number, ProcessStat>();
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      stats.set(Number(entry), parseStat(readFileSync(`/proc/${entry}/stat`, 'utf8')));
    } catch {
      // Ended between the listing and the read: its time is now its parent's.
    }
  }
  return stats;
}

function kindOf(name: string): keyof TreeSeconds {
  if (name.startsWith('chrom')) return 'chromium';
  if (name.startsWith('workerd')) return 'workerd';
  return 'other';
}

/**
 * The processor time of process `root` and everything under it, by kind, so far: each living
 * process's own time plus that of its children that have ended (a closed page's renderer counts
 * with the browser that waited for it), and the root's ended children apart. Two readings'
 * difference is what ran between them.
 */
export function treeSeconds(root: number = process.pid): TreeSeconds | undefined {
  const stats = readStats();
  const rootStat = stats?.get(root);
  if (!stats || !rootStat) return undefined;
  const below = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, { parent }] of stats) {
      if (below.has(parent) && !below.has(pid)) {
        below.add(pid);
        grew = true;
      }
    }
  }
  const seconds: TreeSeconds = { chromium: 0, workerd: 0, test: 0, other: 0, ended: 0 };
  for (const pid of below) {
    const stat = stats.get(pid)!;
    if (pid === root) {
      seconds.test += stat.own / TICKS_PER_SECOND;
      seconds.ended += stat.children / TICKS_PER_SECOND;
    } else {
      seconds[kindOf(stat.name)] += (stat.own + stat.children) / TICKS_PER_SECOND;
    }
  }
  return seconds;
}

/** `later` less `earlier`, kind by kind. */
export function secondsBetween(earlier: TreeSeconds, later: TreeSeconds): TreeSeconds {
  return {
    chromium: later.chromium - earlier.chromium,
    workerd: later.workerd - earlier.workerd,
    test: later.test - earlier.test,
    other: later.other - earlier.other,
    ended: later.ended - earlier.ended,
  };
}

/** The seconds every core of the machine has spent busy since it started (/proc/stat). */
export function machineBusySeconds(): number | undefined {
  let line: string;
  try {
    line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  } catch {
    return undefined;
  }
  // cpu user nice system idle iowait irq softirq steal guest guest_nice: the first eight but idle
  // and iowait are busy; a guest's time is already counted in user and nice.
  const ticks = line.trim().split(/\s+/).slice(1, 9).map(Number);
  const busy = ticks.reduce(
    (sum, tick, index) => (index === 3 || index === 4 ? sum : sum + tick),
    0,
  );
  return busy / TICKS_PER_SECOND;
}
