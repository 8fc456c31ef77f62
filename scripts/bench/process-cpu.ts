import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time of the workerd that Miniflare started for this process, read from /proc (Linux only,
 * where the bench runs). Divided by the requests a load run answered, it gives the worker's CPU
 * per page: the figure Cloudflare bills and limits, which requests a second only hint at.
 */

/** Linux reports utime and stime in clock ticks; 100 a second on every kernel we run. */
const TICKS_PER_SECOND = 100;

interface ProcStat {
  pid: number;
  command: string;
  parent: number;
  cpuMs: number;
}

function readStat(pid: number): ProcStat | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command sits in parentheses and may hold spaces; the fields after it are positional.
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  const fields = text.slice(close + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return {
    pid,
    command: text.slice(open + 1, close),
    parent: Number(fields[1]),
    cpuMs: (ticks * 1000) / TICKS_PER_SECOND,
  };
}

/** The workerd processes this Node process started, or [] where /proc is not there. */
export function childWorkerdPids(): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  return entries
    .filter((entry) => /^\d+$/.test(entry))
    .map((entry) => readStat(Number(entry)))
    .filter(
      (stat): stat is ProcStat => stat?.parent === process.pid && /workerd/.test(stat.command),
    )
    .map((stat) => stat.pid);
}

/** The workerd processes started since `before`, an earlier childWorkerdPids(). */
export function workerdPidsStartedSince(before: readonly number[]): number[] {
  const earlier = new Set(before);
  return childWorkerdPids().filter((pid) => !earlier.has(pid));
}

/** Total CPU milliseconds the given processes have used so far. */
export function cpuMsOf(pids: readonly number[]): number {
  return pids.reduce((total, pid) => total + (readStat(pid)?.cpuMs ?? 0), 0);
}
