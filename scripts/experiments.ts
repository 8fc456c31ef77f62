import { runExperimentsCli } from './experiments-cli';

/** `npm run experiments`: the experiment tools (experiments-cli.ts) as a process. */
process.exitCode = await runExperimentsCli(process.argv.slice(2));
