import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkOverride, USAGE } from '../../../scripts/translations-document';

/**
 * Every example `npm run translations -- --help` prints works as printed: the override texts in
 * its prose pass the checks, and its example commands, run one after another in a directory of
 * their own, validate, publish (as a copy version of the history) and remove the override.
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

  describe('its commands, run as printed', { timeout: 120_000 }, () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'translations-example-'));
    });
    afterAll(() => rm(dir, { recursive: true, force: true }));

    /** A printed line in `dir`: `npm run translations --` is the CLI itself, on a state of its own. */
    async function runLine(line: string) {
      const cli = 'npm run translations -- ';
      try {
        if (!line.startsWith(cli)) return await run('sh', ['-c', line], { cwd: dir });
        const args = [...line.slice(cli.length).split(' '), '--persist-to', join(dir, 'state')];
        return await run(
          join(ROOT, 'node_modules/.bin/tsx'),
          [join(ROOT, 'scripts/translations.ts'), ...args],
          {
            cwd: dir,
            env: { ...process.env, CONFIG_AUTHOR: 'example@geofunnel.test' },
          },
        );
      } catch (error) {
        const failed = error as { stdout?: string; stderr?: string };
        throw new Error(`"${line}" failed: ${failed.stdout}${failed.stderr}`);
      }
    }

    // slow: runs each command the CLI prints, each starting workerd through wrangler
    it('writes the file, validates, publishes as a copy version and removes it again', async () => {
      expect(exampleLines[0]).toMatch(/^echo '.*' > es\.json$/);
      const outputs: string[] = [];
      for (const line of exampleLines) outputs.push((await runLine(line)).stdout);
      expect(JSON.parse(await readFile(join(dir, 'es.json'), 'utf8'))).toEqual({
        'landing.phone.locate': 'Buscar',
      });
      const [, validated, published, removed] = outputs;
      expect(validated).toContain('es: 1 key, valid');
      expect(published).toMatch(/^published c1: manifest → timestamp \d+, languages: es$/m);
      expect(removed).toMatch(/^published c2: manifest → timestamp \d+, languages: none$/m);
      const got = await runLine('npm run translations -- get');
      expect(got.stdout).toMatch(/copy version c2 \(cli, .* by example@geofunnel\.test\)/);
    });
  });
});
