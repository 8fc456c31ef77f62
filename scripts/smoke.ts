import { parseSmokeArgs, SMOKE_USAGE } from './smoke/arguments';
import { formatSmoke, runSmoke } from './smoke/checks';

/**
 * `npm run smoke -- --url <origin>`: the checks of ./smoke/checks.ts against a running worker,
 * one line each; exit 0 when all pass, 1 when one fails, 2 for bad arguments.
 */
async function main(argv: readonly string[]): Promise<number> {
  const args = parseSmokeArgs(argv);
  if (args.kind === 'help') {
    console.log(SMOKE_USAGE);
    return 0;
  }
  if (args.kind === 'usage-error') {
    console.error(`error: ${args.error}\n\n${SMOKE_USAGE}`);
    return 2;
  }
  const results = await runSmoke(args.target);
  console.log(formatSmoke(results));
  const failed = results.filter((result) => !result.ok).length;
  console.log(
    failed === 0
      ? `All ${results.length} checks passed on ${args.target.origin}.`
      : `${failed} of ${results.length} checks failed on ${args.target.origin}.`,
  );
  return failed === 0 ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
