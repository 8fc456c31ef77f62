import { execFile } from 'node:child_process';
import { promisify, stripVTControlCharacters } from 'node:util';
import { PROJECT_ROOT } from './local-platform';

/**
 * The wrangler CLI as the command-line tools call it for the deployed stores (`--remote`): one
 * function, so that a test can stand in for it and read the arguments a command would pass
 * (which environment, which binding) without a login or the network.
 */
export type WranglerRunner = (args: readonly string[]) => Promise<{ stdout: string }>;

const execFileAsync = promisify(execFile);

/** `npx wrangler <args>` in the project, with wrangler's own login. */
export const runWrangler: WranglerRunner = (args) =>
  // No shell: each value is passed as one argument, whatever quotes or `$` it contains.
  execFileAsync('npx', ['wrangler', ...args], {
    cwd: PROJECT_ROOT,
    maxBuffer: 16 * 1024 * 1024,
  });

/** What a failed wrangler call printed on stderr, without colours. */
export function wranglerStderr(error: unknown): string {
  return stripVTControlCharacters(String((error as { stderr?: string }).stderr ?? ''));
}

/** wrangler's own error line (`✘ [ERROR] ...`), without npm's warnings around it. */
export function wranglerMessage(error: unknown): string {
  const line = wranglerStderr(error)
    .split('\n')
    .find((l) => l.includes('[ERROR]'));
  return (line ?? (error as Error).message).replace(/^.*\[ERROR\]\s*/, '').trim();
}
