import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { holdLocalPlatformsOpen } from '../../../scripts/local-platform';
import { runTranslationsCli } from '../../../scripts/translations-cli';
import { checkOverride, USAGE } from '../../../scripts/translations-document';

/**
 * Every example `npm run translations -- --help` prints works as printed: the override texts in
 * its prose pass the checks, and its example commands, run one after another in a directory of
 * their own, validate, publish (as a copy version of the history) and remove the override, which
 * `get` run as a process then reads.
 */

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '../../..');

/** The JSON objects the usage shows inline: `{"landing": {…}}` and the like. */
function inlineExamples(text: string): string[] {
  const found: string[] = [];
  for (let start = text.indexOf('{"'); start !== -1; start = text.indexOf('{"', start + 1)) {
    let depth = 0;
    for (let end = start; end < text.length; end += 1) {
      if (text[end] === '{') depth += 1;
      if (text[end] === '}') depth -= 1;
      if (depth === 0) {
        found.push(text.slice(start, end + 1));
        start = end;
        break;
      }
    }
  }
  return found;
}

/** The example's command lines, as printed: under "Example:", up to the blank line. */
const exampleLines = USAGE.slice(USAGE.indexOf('Example:'))
  .split('\n\n')[0]!
  .split('\n')
  .slice(1)
  .map((line) => line.trim());

describe('the translations CLI’s printed examples', () => {
  it('shows override texts that pass the checks, nested and dotted alike', () => {
    const examples = inlineExamples(USAGE);
    expect(examples.length).toBeGreaterThanOrEqual(3);
    for (const example of examples)
      expect(checkOverride('es', example)).toMatchObject({ ok: true });
  });

  // Each command that touches KV opens it through wrangler's platform proxy, a workerd of a
  // second or more to start: the printed commands run in this process, as `npm run translations`
  // runs them (runTranslationsCli), sharing one held open; one `get` then runs as a process of its
  // own, which proves the entry prints and exits alike and reads what the others wrote.
  describe('its commands, run as printed', { timeout: 120_000 }, () => {
    let dir: string;
    let closeHeldPlatforms: (() => Promise<void>) | undefined;
    const startedIn = process.cwd();
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'translations-example-'));
      closeHeldPlatforms = holdLocalPlatformsOpen();
      // The printed lines name es.json in the directory they run in (the cli project's files
      // each have a process of their own: vitest.config.ts).
      process.chdir(dir);
    });
    afterAll(async () => {
      process.chdir(startedIn);
      await closeHeldPlatforms?.();
      await rm(dir, { recursive: true, force: true });
    });

    const CLI = 'npm run translations -- ';
    /** The CLI's arguments in a printed line, on a state of its own in `dir`. */
    const cliArgs = (line: string) => [
      ...line.slice(CLI.length).split(' '),
      '--persist-to',
      join(dir, 'state'),
    ];

    /** A printed line in `dir`, a shell's or the CLI's, with what it printed. */
    async function runLine(line: string): Promise<string> {
      if (!line.startsWith(CLI)) return (await run('sh', ['-c', line], { cwd: dir })).stdout;
      const printed: string[] = [];
      const log = vi.spyOn(console, 'log').mockImplementation((...said) => {
        printed.push(`${said.join(' ')}\n`);
      });
      const error = vi.spyOn(console, 'error').mockImplementation((...said) => {
        printed.push(`${said.join(' ')}\n`);
      });
      vi.stubEnv('CONFIG_AUTHOR', 'example@geofunnel.test');
      try {
        const code = await runTranslationsCli(cliArgs(line));
        if (code !== 0) throw new Error(`"${line}" failed: ${printed.join('')}`);
        return printed.join('');
      } finally {
        log.mockRestore();
        error.mockRestore();
        vi.unstubAllEnvs();
      }
    }

    // slow: the printed commands share one workerd started through wrangler; the last runs as a
    // process with its own
    it('writes the file, validates, publishes as a copy version and removes it again', async () => {
      expect(exampleLines[0]).toMatch(/^echo '.*' > es\.json$/);
      const outputs: string[] = [];
      for (const line of exampleLines) outputs.push(await runLine(line));
      expect(JSON.parse(await readFile(join(dir, 'es.json'), 'utf8'))).toEqual({
        'landing.phone.locate': 'Buscar',
      });
      const [, validated, published, removed] = outputs;
      expect(validated).toContain('es: 1 key, valid');
      expect(published).toMatch(/^published c1: manifest → timestamp \d+, languages: es$/m);
      expect(removed).toMatch(/^published c2: manifest → timestamp \d+, languages: none$/m);

      // As `npm run translations` runs it, alone on its state directory.
      await closeHeldPlatforms?.();
      closeHeldPlatforms = undefined;
      const got = await run(
        join(ROOT, 'node_modules/.bin/tsx'),
        [join(ROOT, 'scripts/translations.ts'), ...cliArgs(`${CLI}get`)],
        { cwd: dir },
      );
      expect(got.stdout).toMatch(/copy version c2 \(cli, .* by example@geofunnel\.test\)/);
    });
  });
});
