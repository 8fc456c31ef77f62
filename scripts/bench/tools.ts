/**
 * The benchmark's tools, Lighthouse (with chrome-launcher, which it drives) and autocannon, are
 * a package of their own (scripts/bench/package.json) that `npm run bench` installs, so the
 * project's `npm ci`, which every test run pays for, does not carry them. They are loaded by
 * name at run time, and typed here only as far as the benchmark reads them, so the project
 * type-checks without them installed.
 */

export interface LaunchedChrome {
  port: number;
  kill(): void;
}

export type LaunchChrome = (options: {
  chromePath: string;
  chromeFlags: string[];
  userDataDir: string;
  logLevel: 'silent';
}) => Promise<LaunchedChrome>;

interface Audit {
  numericValue?: number;
  details?: { type: string; items: unknown[] };
}

export type Lighthouse = (
  url: string,
  flags: {
    port: number;
    logLevel: 'error';
    output: 'json';
    onlyCategories: string[];
    disableFullPageScreenshot: boolean;
  },
) => Promise<
  | {
      lhr: {
        audits: Record<string, Audit | undefined>;
        categories: Record<string, { score: number | null } | undefined>;
        runtimeError?: { message: string };
      };
    }
  | undefined
>;

/** The part of autocannon's result we read. */
export interface LoadResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodeStats: Record<string, { count: number }>;
}

export type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  headers: Record<string, string>;
}) => Promise<LoadResult>;

/** Imports one of the tools from scripts/bench/node_modules, or says how to get it. */
async function tool(name: string): Promise<Record<string, unknown>> {
  try {
    return (await import(name)) as Record<string, unknown>;
  } catch (error) {
    throw new Error(
      `${name} is not installed: run npm run bench, which installs the benchmark's tools ` +
        `(npm install --prefix scripts/bench) (${(error as Error).message})`,
    );
  }
}

export async function loadLighthouse(): Promise<{ lighthouse: Lighthouse; launch: LaunchChrome }> {
  const [lighthouse, launcher] = await Promise.all([tool('lighthouse'), tool('chrome-launcher')]);
  return { lighthouse: lighthouse.default as Lighthouse, launch: launcher.launch as LaunchChrome };
}

export async function loadAutocannon(): Promise<Autocannon> {
  return (await tool('autocannon')).default as Autocannon;
}
