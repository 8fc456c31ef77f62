import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCliArgs as parseConfigArgs } from '../../scripts/config-document';
import { runDoctor } from '../../scripts/doctor';
import { parseEventsArgs } from '../../scripts/events/arguments';
import { parseDeadLetterArgs } from '../../scripts/events/dead-letter-arguments';
import { parseExperimentsArgs } from '../../scripts/experiments-arguments';
import { PROJECT_ROOT } from '../../scripts/local-platform';
import { parsePortalArgs } from '../../scripts/portal/arguments';
import { parseSmokeArgs } from '../../scripts/smoke/arguments';

/**
 * docs/operate.md's commands, as an operator copies them at 3 a.m.: every `npm run <tool> -- …`
 * of its shell blocks, and every complete one written inline (with its `--env`, `--url` or
 * `--since`), is accepted by its tool as written, placeholders filled in; the offline ones are
 * run (the doctor, from wrangler.toml alone). A flag renamed in a tool and not in the page fails.
 */

const PAGE = readFileSync(join(PROJECT_ROOT, 'docs', 'operate.md'), 'utf8');

/** What an operator types for the page's placeholders. */
const PLACEHOLDERS: Record<string, string> = {
  '<id>': '12',
  '<time>': '2026-11-22T08:00:00Z',
  '<origin>': 'https://funnel.example.com',
  '<subdomain>': 'example',
  '<subscription>': 'sub_123',
};

function filled(command: string): string {
  return command.replace(/<[a-z ]+>/g, (placeholder) => PLACEHOLDERS[placeholder] ?? placeholder);
}

/** `npm run <tool> -- <args>` as the page writes it: in shell blocks, and complete inline ones. */
function documentedCommands(): string[] {
  const fromBlocks = [...PAGE.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((block) =>
    (block[1] ?? '')
      .split('\n')
      .map((line) => line.replace(/\s+#.*$/, '').trim())
      .filter((line) => line.startsWith('npm run ')),
  );
  const inline = [...PAGE.matchAll(/`(npm run [a-z]+ -- [^`]+)`/g)]
    .map((span) => (span[1] ?? '').replace(/\s+/g, ' ').trim())
    .filter((command) => /--(env|url|since)\b/.test(command));
  return [...new Set([...fromBlocks, ...inline].map(filled))];
}

/** What a tool makes of the words after `--`: accepted, or its refusal. */
function parsed(tool: string, argv: string[]): { ok: boolean; error?: string } {
  const verdict = (args: { kind: string; error?: string }) =>
    args.kind === 'usage-error' ? { ok: false, error: args.error } : { ok: true };
  switch (tool) {
    case 'config':
      return verdict(parseConfigArgs(argv));
    case 'events':
      return verdict(
        argv[0] === 'dead-letters' ? parseDeadLetterArgs(argv.slice(1)) : parseEventsArgs(argv),
      );
    case 'experiments':
      return verdict(parseExperimentsArgs(argv));
    case 'portal':
      return verdict(parsePortalArgs(argv));
    case 'smoke':
      return verdict(parseSmokeArgs(argv));
    default:
      return { ok: false, error: `no parser known for npm run ${tool}` };
  }
}

const commands = documentedCommands();

describe("docs/operate.md's commands, as written", () => {
  it('are found: the page documents its tools', () => {
    const tools = new Set(commands.map((command) => command.split(' ')[2]));
    expect([...tools].sort()).toEqual(
      expect.arrayContaining(['config', 'doctor', 'events', 'smoke']),
    );
  });

  it.each(commands.filter((command) => !command.includes(' -- ')))(
    '%s is a script of package.json',
    (command) => {
      const scripts = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8'))
        .scripts as Record<string, string>;
      expect(Object.keys(scripts)).toContain(command.split(' ')[2]);
    },
  );

  it.each(
    commands.filter((command) => command.includes(' -- ') && !command.startsWith('npm run doctor')),
  )('%s is accepted by its tool', (command) => {
    const [, , tool = '', , ...argv] = command.split(' ');
    expect(parsed(tool, argv)).toEqual({ ok: true });
  });

  it.each(commands.filter((command) => command.startsWith('npm run doctor')))(
    '%s runs (offline) or is accepted (with --remote)',
    async (command) => {
      const argv = command.split(' ').slice(4);
      // Never the account: a call to wrangler here would be a test reaching the internet.
      const offline = async () => {
        throw new Error('no account in the tests');
      };
      const { code, output } = await runDoctor(argv, offline);
      expect(code, output).not.toBe(2);
      if (!argv.includes('--remote')) {
        // The repository's production still holds placeholders: the doctor says what to fix.
        expect(output).toContain('production: ');
        expect(output).toContain('to fix before traffic');
      }
    },
  );
});
