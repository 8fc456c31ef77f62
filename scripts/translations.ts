import { runTranslationsCli } from './translations-cli';

/** `npm run translations`: the copy CLI (translations-cli.ts) as a process. */
process.exitCode = await runTranslationsCli(process.argv.slice(2));
