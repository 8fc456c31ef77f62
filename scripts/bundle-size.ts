/**
 * `npx tsx scripts/bundle-size.ts` (the end of `npm run build`): the production worker's size,
 * gzip as Cloudflare counts it against its limit, beside its budget, and the ten modules that
 * take the most of it, read from the esbuild metafile wrangler wrote beside the bundle
 * (`outputs[…].inputs[…].bytesInOutput`: a module's minified bytes in the bundle). The bench
 * (scripts/bench/main.ts) weighs the bundle with the same function and fails above the budget.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { BUILT_BUNDLES } from './built-bundles';

/**
 * The production worker's gzip budget, set at 409 KiB (once braintree-web stayed out,
 * wrangler.toml [alias]) with room, and met at 444 KiB once the legacy renderToString went
 * (docs/performance.md). The worker grew to 479,905 B above it; the copy of the six languages
 * but English then left the code for the static assets (about 65 KiB of gzip:
 * worker/translations/source.ts), leaving it more than 50 KiB under. `npm run build`
 * prints where it stands; `npm run bench` fails above it.
 */
export const BUNDLE_GZIP_BUDGET = 460 * 1024;

/** Raw and gzip size, as wrangler's "Total Upload" reports them (it uses gzip too). */
export function sizeOf(bundle: string): { raw: number; gzip: number } {
  const code = readFileSync(bundle);
  return { raw: code.length, gzip: gzipSync(code, { level: 9 }).length };
}

interface Metafile {
  outputs: Record<
    string,
    { bytes: number; entryPoint?: string; inputs: Record<string, { bytesInOutput: number }> }
  >;
}

/** The bundle's entry and its modules with their bytes in it, from the metafile beside it. */
export function bundleMeta(bundle: string): {
  entryPoint: string;
  modules: Record<string, { bytesInOutput: number }>;
} {
  const metafile = bundle.replace(/[^/]+$/, 'bundle-meta.json');
  if (!existsSync(bundle) || !existsSync(metafile)) {
    throw new Error(`${bundle} or its metafile is missing: run \`npm run build\` first`);
  }
  const meta = JSON.parse(readFileSync(metafile, 'utf8')) as Metafile;
  const [output] = Object.values(meta.outputs).filter((entry) => entry.entryPoint);
  if (!output?.entryPoint) throw new Error(`${metafile} names no entry point`);
  // The metafile must belong to this very bundle, not to an older build left beside it.
  if (output.bytes !== statSync(bundle).size) {
    throw new Error(`${metafile} describes another build than ${bundle}`);
  }
  return { entryPoint: output.entryPoint, modules: output.inputs };
}

/** The `count` modules with the most bytes in the bundle, largest first. */
export function largestModules(
  modules: Record<string, { bytesInOutput: number }>,
  count = 10,
): { module: string; bytes: number }[] {
  return Object.entries(modules)
    .map(([module, { bytesInOutput }]) => ({ module, bytes: bytesInOutput }))
    .sort((a, b) => b.bytes - a.bytes || (a.module < b.module ? -1 : 1))
    .slice(0, count);
}

const figure = (bytes: number) => bytes.toLocaleString('en-US');

/** The size line: the bundle, raw and gzip, against the budget. */
export function sizeLine(bundle: string, size: { raw: number; gzip: number }): string {
  const room = BUNDLE_GZIP_BUDGET - size.gzip;
  const verdict =
    room >= 0 ? `${figure(room)} B under it` : `${figure(-room)} B ABOVE IT: cut before shipping`;
  return (
    `Production worker (${bundle}): ${figure(size.raw)} B raw, ${figure(size.gzip)} B gzip;` +
    ` budget ${figure(BUNDLE_GZIP_BUDGET)} B gzip, ${verdict}.`
  );
}

/** What the bench says when the bundle is above its budget, which fails it; null when not. */
export function budgetFailure(bundle: string, size: { raw: number; gzip: number }): string | null {
  return size.gzip > BUNDLE_GZIP_BUDGET ? `The bench fails: ${sizeLine(bundle, size)}` : null;
}

/** The size line, then the largest modules with their share of the raw bundle. */
export function sizeReport(
  bundle: string,
  size: { raw: number; gzip: number },
  largest: readonly { module: string; bytes: number }[],
): string {
  const width = Math.max(...largest.map(({ bytes }) => figure(bytes).length));
  const rows = largest.map(({ module, bytes }) => {
    const share = ((100 * bytes) / size.raw).toFixed(1).padStart(4);
    return `  ${figure(bytes).padStart(width)} B ${share}%  ${module}`;
  });
  return [
    sizeLine(bundle, size),
    `Its ${largest.length} largest modules (minified bytes in the bundle, esbuild's metafile):`,
    ...rows,
  ].join('\n');
}

function main(): void {
  const bundle = BUILT_BUNDLES.production;
  const { modules } = bundleMeta(bundle);
  console.log(sizeReport(bundle, sizeOf(bundle), largestModules(modules)));
}

if (process.argv[1]?.endsWith('bundle-size.ts')) main();
