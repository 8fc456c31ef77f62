import { runSideBySide, sideBySideReport } from './run-side-by-side';

/** `tsx scripts/side-by-side.ts build check`: those npm scripts at once (run-side-by-side.ts). */

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  console.error('usage: tsx scripts/side-by-side.ts <npm script> [<npm script> …]');
  process.exit(2);
}
const { text, failed } = sideBySideReport(await runSideBySide(scripts));
process.stdout.write(text);
if (failed.length > 0) process.exit(1);
