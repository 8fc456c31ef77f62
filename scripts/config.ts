import { runConfigCli } from './config-cli';

/** `npm run config`: the marketers' config CLI (config-cli.ts) as a process. */
process.exitCode = await runConfigCli(process.argv.slice(2));
