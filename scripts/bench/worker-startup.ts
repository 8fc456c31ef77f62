/**
 * `npx tsx scripts/bench/worker-startup.ts [bundle ...]`: how long a built worker takes from a
 * cold workerd to its first answered request, and how large it is (both of the
 * production bundle). Default: the production bundle `npm run build` wrote. Several bundles (a
 * copy of an older build, say) are started in turn, round after round, so a busy machine slows
 * them alike. Prints the median of ROUNDS cold starts (default 9) and an empty worker's, which is
 * workerd's own share.
 */
import { dirname, resolve } from 'node:path';
import { Log, LogLevel, Miniflare, type MiniflareOptions } from 'miniflare';
import { BESIDE_BUNDLE_RULES, BUILT_BUNDLES } from '../built-bundles';
import { sizeOf } from '../bundle-size';

/** A worker that does nothing: what workerd costs by itself. */
export const EMPTY_WORKER = 'export default { fetch: () => new Response("ok") };';

/** The bindings the bundle reads at its first request; production settings, a portal URL. */
function optionsFor(bundle: string | null): MiniflareOptions {
  return {
    modules: true,
    // modulesRoot: a bundle outside the project (an older build's copy) names its module paths
    // from its own folder.
    ...(bundle === null
      ? { script: EMPTY_WORKER }
      : {
          scriptPath: bundle,
          modulesRoot: dirname(resolve(bundle)),
          modulesRules: [...BESIDE_BUNDLE_RULES],
        }),
    compatibilityDate: '2026-04-20',
    compatibilityFlags: ['nodejs_compat'],
    kvNamespaces: ['FUNNEL_CONFIG'],
    d1Databases: ['EVENTS_DB'],
    queueProducers: { EVENTS_QUEUE: 'geofunnel-events' },
    ...(bundle === null
      ? {}
      : { durableObjects: { RATE_LIMITER: { className: 'RateLimiter', useSQLite: true } } }),
    bindings: { ENVIRONMENT: 'production', PORTAL_URL: 'https://portal.invalid/api/v1' },
    log: new Log(LogLevel.NONE),
    // No request for Cloudflare's cf object (the bench runs offline).
    cf: {},
    handleRuntimeStdio() {},
  };
}

/** Milliseconds from a new workerd to the end of the first answer (a page the worker renders). */
async function coldStart(bundle: string | null): Promise<number> {
  const started = performance.now();
  const mf = new Miniflare(optionsFor(bundle));
  try {
    const response = await mf.dispatchFetch('http://localhost/no-such-screen');
    await response.arrayBuffer();
    return performance.now() - started;
  } finally {
    await mf.dispose();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/**
 * Every cold start of each subject (null: an empty worker, workerd's own share), round after
 * round so a busy machine slows them alike, after one start each to warm the disk cache.
 */
export async function coldStarts(
  subjects: readonly (string | null)[],
  rounds: number,
): Promise<Map<string | null, { median: number; all: number[] }>> {
  const times = new Map<string | null, number[]>(subjects.map((subject) => [subject, []]));
  for (const subject of subjects) await coldStart(subject);
  for (let round = 0; round < rounds; round++) {
    for (const subject of subjects) times.get(subject)?.push(await coldStart(subject));
  }
  return new Map(
    [...times].map(([subject, all]) => [subject, { median: median(all), all }] as const),
  );
}

async function main(): Promise<void> {
  const bundles = process.argv.length > 2 ? process.argv.slice(2) : [BUILT_BUNDLES.production];
  const rounds = Number(process.env.ROUNDS ?? 9);
  const results = await coldStarts([null, ...bundles], rounds);
  for (const [subject, { median: ms, all }] of results) {
    const size = subject === null ? null : sizeOf(subject);
    console.log(
      `${subject ?? 'empty worker'}:${size ? ` ${size.raw} B raw, ${size.gzip} B gzip,` : ''}` +
        ` cold start to first answer median ${ms.toFixed(0)} ms` +
        ` (${all.map((each) => each.toFixed(0)).join(', ')})`,
    );
  }
}

// Run as a command; the bench imports coldStarts.
if (process.argv[1]?.endsWith('worker-startup.ts')) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  });
}
